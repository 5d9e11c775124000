#include "remoteconnectioncache.h"

#include "remotedatabase.h"

#include <QCryptographicHash>
#include <QSqlQuery>
#include <QString>
#include <QThreadStorage>

#include <map>
#include <memory>

namespace hg {
namespace {

// Every part of the profile that changes where or as whom it connects, and the password
// (hashed: the key outlives nothing, but a password is never kept in clear beside it).
std::string connectionKey(const ConnectionProfile &profile, const QString &password)
{
    const QString parts =
        QStringList{
            profile.name,
            QString::number(int(profile.kind)),
            QString::number(int(profile.server())),
            profile.host,
            QString::number(profile.effectivePort()),
            profile.database,
            profile.userName,
            profile.options,
            QString::fromLatin1(
                QCryptographicHash::hash(password.toUtf8(), QCryptographicHash::Sha256).toHex())}
            .join(QChar(0x1f));
    return parts.toStdString();
}

using Connections = std::map<std::string, std::unique_ptr<RemoteDatabase>>;

// QThreadStorage, not thread_local: Qt deletes it while the thread is still a QThread (as it
// finishes, and for the main thread with QCoreApplication). A C++ thread_local is destroyed
// after Qt has let go of the thread, and closing a connection then (its driver is a QObject of
// that thread) crashed bench_dolphinscheduler now and then as the pool's threads ended at exit.
Connections &threadConnections()
{
    static QThreadStorage<Connections *> connections;
    if (!connections.hasLocalData())
        connections.setLocalData(new Connections);
    return *connections.localData();
}

// Alive and outside a transaction. PostgreSQL's now() is the transaction's start, equal to
// the statement's only when the statement began it. MySQL has no such question for every
// release (MariaDB's @@in_transaction, MySQL's needs PROCESS), but ends any transaction left
// open, silently, with a ROLLBACK (where PostgreSQL would warn in the server's log).
bool idle(RemoteDatabase &remote)
{
    QSqlQuery check(remote.db());
    if (remote.isMysql())
        return check.exec(QStringLiteral("ROLLBACK"));
    if (!check.exec(QStringLiteral("SELECT now() = statement_timestamp()")) || !check.next())
        return false;
    return check.value(0).toBool();
}

} // namespace

Result<RemoteDatabase *> RemoteConnectionCache::acquire(const ConnectionProfile &profile,
                                                        const QString &password)
{
    auto &connections = threadConnections();
    const std::string key = connectionKey(profile, password);
    if (const auto kept = connections.find(key); kept != connections.end()) {
        if (idle(*kept->second))
            return kept->second.get();
        connections.erase(kept);
    }
    Result<std::unique_ptr<RemoteDatabase>> opened = RemoteDatabase::open(profile, password);
    if (!opened)
        return opened.error();
    RemoteDatabase *remote = opened.value().get();
    connections[key] = std::move(opened.value());
    return remote;
}

} // namespace hg
