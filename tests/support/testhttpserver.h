#pragma once

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QTcpServer>
#include <QUrl>

namespace hg::test {

// A small HTTP/1.1 server on loopback for executor tests, in the test's own thread. Routes:
//   /status/NNN   answers NNN
//   /retry-after/N answers 503 with "Retry-After: N"
//   /echo         200 with "METHOD PATH", the X-Test header and the request body
//   /bytes/N      200 with N bytes of 'x'
//   /hang         never answers (for timeouts and stops)
// Anything else is 404. Every request is recorded.
class TestHttpServer final : public QTcpServer
{
    Q_OBJECT

public:
    struct Request
    {
        QByteArray method;
        QByteArray path;
        QHash<QByteArray, QByteArray> headers; // lower-case names
        QByteArray body;
        qint64 receivedMs = 0; // when it was read whole, ms since the epoch
    };

    explicit TestHttpServer(QObject *parent = nullptr);
    bool start();
    QUrl url(const QString &path) const;
    const QList<Request> &requests() const { return m_requests; }

private:
    void serve(QTcpSocket *socket);
    static QByteArray response(int status, const QByteArray &body, const QByteArray &headers = {});

    QList<Request> m_requests;
};

} // namespace hg::test
