#include "singleinstance.h"

#include <QCryptographicHash>
#include <QLocalServer>
#include <QLocalSocket>

namespace hg {
namespace {

const QByteArray showRequest("show\n");
constexpr int connectTimeoutMs = 1000;

QString userName()
{
    const QString user = qEnvironmentVariable("USER", qEnvironmentVariable("USERNAME"));
    return user.isEmpty() ? QStringLiteral("user") : user;
}

// A short, file-name-safe name: socket paths are limited to about 100 bytes.
QString serverNameFor(const QString &key)
{
    const QByteArray digest =
        QCryptographicHash::hash((userName() + QLatin1Char('\n') + key).toUtf8(),
                                 QCryptographicHash::Sha256)
            .toHex()
            .left(16);
    return QStringLiteral("hourglass-") + QString::fromLatin1(digest);
}

} // namespace

SingleInstance::SingleInstance(const QString &key, QObject *parent)
    : QObject(parent)
    , m_name(serverNameFor(key))
{}

bool SingleInstance::isRunning(const QString &key)
{
    QLocalSocket probe;
    probe.connectToServer(serverNameFor(key));
    const bool answered = probe.waitForConnected(connectTimeoutMs);
    probe.disconnectFromServer();
    return answered;
}

SingleInstance::~SingleInstance() = default;

bool SingleInstance::claim()
{
    QLocalSocket probe;
    probe.connectToServer(m_name);
    if (probe.waitForConnected(connectTimeoutMs)) {
        probe.write(showRequest);
        probe.waitForBytesWritten(connectTimeoutMs);
        probe.disconnectFromServer();
        return false;
    }
    // Nobody answers: a socket file left by a crash is stale, not a running instance.
    QLocalServer::removeServer(m_name);
    m_server = new QLocalServer(this);
    m_server->setSocketOptions(QLocalServer::UserAccessOption);
    if (!m_server->listen(m_name)) {
        // Still the first one; a later start simply will not find it.
        qWarning("hourglass: single-instance socket %s: %s", qPrintable(m_name),
                 qPrintable(m_server->errorString()));
        return true;
    }
    connect(m_server, &QLocalServer::newConnection, this, &SingleInstance::readRequests);
    return true;
}

void SingleInstance::readRequests()
{
    while (QLocalSocket *client = m_server->nextPendingConnection()) {
        connect(client, &QLocalSocket::disconnected, client, &QObject::deleteLater);
        const auto readLines = [this, client] {
            while (client->canReadLine()) {
                if (client->readLine() == showRequest)
                    Q_EMIT activationRequested();
            }
        };
        connect(client, &QLocalSocket::readyRead, this, readLines);
        readLines(); // what arrived before the connection was made
    }
}

} // namespace hg
