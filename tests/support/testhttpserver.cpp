#include "testhttpserver.h"

#include <QDateTime>
#include <QTcpSocket>

namespace hg::test {

TestHttpServer::TestHttpServer(QObject *parent)
    : QTcpServer(parent)
{
    connect(this, &QTcpServer::newConnection, this, [this] {
        while (QTcpSocket *socket = nextPendingConnection()) {
            connect(socket, &QTcpSocket::readyRead, this, [this, socket] { serve(socket); });
            connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
        }
    });
}

bool TestHttpServer::start()
{
    return listen(QHostAddress::LocalHost, 0);
}

QUrl TestHttpServer::url(const QString &path) const
{
    return QUrl(QStringLiteral("http://127.0.0.1:%1%2").arg(serverPort()).arg(path));
}

QByteArray TestHttpServer::response(int status, const QByteArray &body, const QByteArray &headers)
{
    return "HTTP/1.1 " + QByteArray::number(status)
           + " Test\r\nContent-Length: " + QByteArray::number(body.size())
           + "\r\nConnection: close\r\n" + headers + "\r\n" + body;
}

void TestHttpServer::serve(QTcpSocket *socket)
{
    // The whole request is in the socket's buffer once the headers and Content-Length bytes
    // of body have arrived; until then wait for more.
    const QByteArray buffered = socket->peek(socket->bytesAvailable());
    const qsizetype headerEnd = buffered.indexOf("\r\n\r\n");
    if (headerEnd < 0)
        return;
    Request request;
    const QList<QByteArray> lines = buffered.left(headerEnd).split('\n');
    const QList<QByteArray> requestLine = lines.value(0).trimmed().split(' ');
    request.method = requestLine.value(0);
    request.path = requestLine.value(1);
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const qsizetype colon = lines.at(i).indexOf(':');
        if (colon > 0)
            request.headers.insert(lines.at(i).left(colon).trimmed().toLower(),
                                   lines.at(i).mid(colon + 1).trimmed());
    }
    const qsizetype length = request.headers.value("content-length", "0").toLongLong();
    if (buffered.size() < headerEnd + 4 + length)
        return;
    socket->read(headerEnd + 4 + length);
    request.body = buffered.mid(headerEnd + 4, length);
    request.receivedMs = QDateTime::currentMSecsSinceEpoch();
    m_requests << request;

    if (request.path == "/hang")
        return;
    QByteArray reply;
    if (request.path.startsWith("/status/")) {
        const int status = request.path.mid(8).toInt();
        reply = response(status, "status " + QByteArray::number(status) + "\n");
    } else if (request.path.startsWith("/retry-after/")) { // 503, back after that many seconds
        reply = response(503, "busy\n", "Retry-After: " + request.path.mid(13) + "\r\n");
    } else if (request.path == "/echo") {
        reply = response(200, request.method + ' ' + request.path + "\nx-test: "
                                  + request.headers.value("x-test") + '\n' + request.body);
    } else if (request.path.startsWith("/bytes/")) {
        reply = response(200, QByteArray(request.path.mid(7).toInt(), 'x'));
    } else {
        reply = response(404, "not found\n");
    }
    socket->write(reply);
    socket->disconnectFromHost();
}

} // namespace hg::test
