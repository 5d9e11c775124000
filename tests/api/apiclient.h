#pragma once

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QNetworkAccessManager>
#include <QUrl>

#include <utility>

namespace hg::test {

// Real HTTP to the API under test, one request at a time, waiting on its answer (never on a
// clock): QNetworkAccessManager on the test's thread.
class ApiClient final
{
public:
    struct Answer
    {
        int status = 0; // 0: no answer (a network error, said in error)
        QByteArray body;
        QJsonObject json;
        QList<std::pair<QByteArray, QByteArray>> headers;
        QString error;
        QByteArray header(const QByteArray &name) const;
    };

    void setBase(const QUrl &base) { m_base = base; }
    void setToken(const QString &token) { m_token = token; }
    Answer get(const QString &path) { return send("GET", path, {}, {}); }
    Answer post(const QString &path, const QByteArray &body = {},
                const QList<std::pair<QByteArray, QByteArray>> &headers = {})
    {
        return send("POST", path, body, headers);
    }
    Answer send(const QByteArray &method, const QString &path, const QByteArray &body,
                const QList<std::pair<QByteArray, QByteArray>> &headers);

private:
    QNetworkAccessManager m_network;
    QUrl m_base;
    QString m_token;
};

// One request written by hand on a socket of its own (what QNetworkAccessManager would not
// send: two Content-Lengths, a NUL); the raw answer, or empty when the server said nothing.
QByteArray rawRequest(quint16 port, const QByteArray &request, int timeoutMs = 10000);

// What `promtool check metrics` says is wrong with `text`; empty when it passes.
QByteArray promtoolProblems(const QString &promtool, const QByteArray &text);

} // namespace hg::test
