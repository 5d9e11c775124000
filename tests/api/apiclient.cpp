#include "apiclient.h"

#include <QEventLoop>
#include <QJsonDocument>
#include <QNetworkReply>
#include <QProcess>
#include <QTcpSocket>
#include <QTimer>

namespace hg::test {

QByteArray ApiClient::Answer::header(const QByteArray &name) const
{
    for (const auto &[key, value] : headers)
        if (key.compare(name, Qt::CaseInsensitive) == 0)
            return value;
    return {};
}

ApiClient::Answer ApiClient::send(const QByteArray &method, const QString &path,
                                  const QByteArray &body,
                                  const QList<std::pair<QByteArray, QByteArray>> &headers)
{
    QNetworkRequest request(m_base.resolved(QUrl(path)));
    request.setTransferTimeout(30000);
    if (!m_token.isEmpty())
        request.setRawHeader("Authorization", "Bearer " + m_token.toLatin1());
    if (!body.isEmpty())
        request.setHeader(QNetworkRequest::ContentTypeHeader, QByteArray("application/json"));
    for (const auto &[name, value] : headers)
        request.setRawHeader(name, value);
    QNetworkReply *reply = m_network.sendCustomRequest(request, method, body);
    QEventLoop loop;
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    if (!reply->isFinished())
        loop.exec();
    Answer answer;
    answer.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    answer.body = reply->readAll();
    answer.json = QJsonDocument::fromJson(answer.body).object();
    for (const auto &pair : reply->rawHeaderPairs())
        answer.headers.append(pair);
    if (answer.status == 0)
        answer.error = reply->errorString();
    reply->deleteLater();
    return answer;
}

QByteArray rawRequest(quint16 port, const QByteArray &request, int timeoutMs)
{
    QTcpSocket socket;
    socket.connectToHost(QStringLiteral("127.0.0.1"), port);
    if (!socket.waitForConnected(timeoutMs))
        return {};
    socket.write(request);
    QByteArray answer;
    QEventLoop loop;
    QTimer limit;
    limit.setSingleShot(true);
    QObject::connect(&limit, &QTimer::timeout, &loop, &QEventLoop::quit);
    QObject::connect(&socket, &QTcpSocket::readyRead, &loop, [&] { answer += socket.readAll(); });
    QObject::connect(&socket, &QTcpSocket::disconnected, &loop, &QEventLoop::quit);
    limit.start(timeoutMs);
    if (socket.state() == QAbstractSocket::ConnectedState)
        loop.exec();
    answer += socket.readAll();
    return answer;
}

QByteArray promtoolProblems(const QString &promtool, const QByteArray &text)
{
    QProcess check;
    check.start(promtool, {QStringLiteral("check"), QStringLiteral("metrics")});
    check.write(text);
    check.closeWriteChannel();
    if (!check.waitForFinished(30000))
        return "promtool did not end";
    if (check.exitStatus() == QProcess::NormalExit && check.exitCode() == 0)
        return {};
    return check.readAllStandardOutput() + check.readAllStandardError();
}

} // namespace hg::test
