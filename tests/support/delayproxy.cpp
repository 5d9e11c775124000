#include "delayproxy.h"

#include <QDeadlineTimer>
#include <QHostAddress>
#include <QQueue>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTimer>

#include <functional>

namespace hg::test {
namespace {

// One way of one connection: chunks wait their time in order, then go out.
class DelayedPipe final : public QObject
{
public:
    DelayedPipe(QTcpSocket *from, QTcpSocket *to, int delayMs, QObject *parent)
        : QObject(parent)
        , m_from(from)
        , m_to(to)
        , m_delayMs(delayMs)
    {
        m_timer.setSingleShot(true);
        m_timer.setTimerType(Qt::PreciseTimer);
        connect(&m_timer, &QTimer::timeout, this, &DelayedPipe::pass);
        connect(from, &QTcpSocket::readyRead, this, [this] {
            m_chunks.enqueue({QDeadlineTimer(m_delayMs, Qt::PreciseTimer), m_from->readAll()});
            if (!m_timer.isActive())
                m_timer.start(int(m_chunks.head().due.remainingTime()));
        });
    }

private:
    struct Chunk
    {
        QDeadlineTimer due;
        QByteArray bytes;
    };

    void pass()
    {
        while (!m_chunks.isEmpty() && m_chunks.head().due.hasExpired())
            m_to->write(m_chunks.dequeue().bytes);
        if (!m_chunks.isEmpty())
            m_timer.start(int(m_chunks.head().due.remainingTime()));
    }

    QTcpSocket *m_from;
    QTcpSocket *m_to;
    int m_delayMs;
    QTimer m_timer;
    QQueue<Chunk> m_chunks;
};

class ProxyServer final : public QTcpServer
{
public:
    ProxyServer(quint16 targetPort, int delayMs)
        : m_targetPort(targetPort)
        , m_delayMs(delayMs)
    {
        connect(this, &QTcpServer::newConnection, this, &ProxyServer::accept);
    }

private:
    void accept()
    {
        while (QTcpSocket *client = nextPendingConnection()) {
            auto *server = new QTcpSocket(client);
            new DelayedPipe(client, server, m_delayMs, client);
            new DelayedPipe(server, client, m_delayMs, client);
            // Either side closing closes the other (after what is on its way).
            connect(client, &QTcpSocket::disconnected, client, [client, server] {
                server->disconnectFromHost();
                client->deleteLater();
            });
            connect(server, &QTcpSocket::disconnected, client,
                    [client] { client->disconnectFromHost(); });
            server->connectToHost(QHostAddress::LocalHost, m_targetPort);
        }
    }

    quint16 m_targetPort;
    int m_delayMs;
};

} // namespace

DelayProxy::DelayProxy(quint16 targetPort, int delayMs)
    : m_worker(new QObject)
{
    m_thread.setObjectName(QStringLiteral("delay proxy"));
    m_worker->moveToThread(&m_thread);
    m_thread.start();
    quint16 port = 0;
    // Made, listening, on its own thread; the caller waits for the port.
    QMetaObject::invokeMethod(
        m_worker,
        [this, targetPort, delayMs, &port] {
            auto *server = new ProxyServer(targetPort, delayMs);
            server->setParent(m_worker);
            if (server->listen(QHostAddress::LocalHost, 0))
                port = server->serverPort();
        },
        Qt::BlockingQueuedConnection);
    m_port = port;
}

DelayProxy::~DelayProxy()
{
    QMetaObject::invokeMethod(
        m_worker, [this] { delete m_worker; }, Qt::BlockingQueuedConnection);
    m_thread.quit();
    m_thread.wait();
}

} // namespace hg::test
