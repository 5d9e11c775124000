#include "enginesessionrepository.h"

#include "base/processinfo.h"
#include "store.h"
#include "storequery.h"

#include <QSysInfo>

namespace hg {
namespace {

const QString selectSession = QStringLiteral(
    "SELECT id, name, host, pid, started_at, heartbeat_at, lease_until, capacity, load, epoch, "
    "process "
    "FROM engine_session ");

EngineSession readSession(const StoreQuery &q)
{
    return EngineSession{q.int64(0), q.text(1),    q.text(2),    q.int64(3), q.time(4), q.time(5),
                         q.time(6),  q.integer(7), q.integer(8), q.int64(9), q.text(10)};
}

} // namespace

Result<EngineSession> EngineSessionRepository::acquire(const EngineSession &session,
                                                       const QDateTime &now)
{
    EngineSession stored = session;
    bool raced = false; // the name was free when read, taken when inserted
    const Status status = m_store.transaction([&]() -> Status {
        StoreQuery existing(m_store, selectSession + QStringLiteral("WHERE name = ?"));
        existing.bind(session.name);
        if (Status s = existing.exec(tr("read engine session")); !s)
            return s;
        if (existing.next()) {
            const EngineSession holder = readSession(existing);
            if (serves(holder, now, m_store.backend()))
                return Error::exists(
                    tr("an engine of the same name already runs: %1; its "
                       "lease holds until %2; give this one another name with "
                       "HOURGLASS_ENGINE_NAME")
                        .arg(describe(holder), holder.leaseUntil.toLocalTime().toString(
                                                   QStringLiteral("yyyy-MM-dd HH:mm:ss"))));
            StoreQuery drop(m_store, QStringLiteral("DELETE FROM engine_session WHERE id = ?"));
            drop.bind(holder.id);
            if (Status s = drop.exec(tr("replace expired engine session")); !s)
                return s;
        }
        // Every registration draws a new epoch: the fencing token of the runs it claims.
        StoreQuery epoch(m_store, QStringLiteral("UPDATE engine_epoch SET value = value + 1 "
                                                 "WHERE id = 1 RETURNING value"));
        if (Status s = epoch.execSingle(tr("draw an engine epoch"), {}); !s)
            return s;
        stored.epoch = epoch.int64(0);
        StoreQuery q(m_store,
                     QStringLiteral("INSERT INTO engine_session (name, host, pid, started_at, "
                                    "heartbeat_at, lease_until, capacity, load, epoch, process) "
                                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id"));
        q.bind(session.name)
            .bind(session.host)
            .bind(session.pid)
            .bind(StoreQuery::fromTime(now))
            .bind(StoreQuery::fromTime(now))
            .bind(StoreQuery::fromTime(session.leaseUntil))
            .bind(session.capacity)
            .bind(session.load)
            .bind(stored.epoch)
            .bind(session.process);
        if (Status s = q.execSingle(tr("register engine session"), {}); !s) {
            raced = s.error().kind == ErrorKind::AlreadyExists;
            return s;
        }
        stored.id = q.int64(0);
        stored.startedAt = now;
        stored.heartbeatAt = now;
        return {};
    });
    if (!status && raced) {
        // Two engines of one name registered at once: the other's insert came first. Say who
        // holds the name, not which constraint the database enforced.
        StoreQuery holder(m_store, selectSession + QStringLiteral("WHERE name = ?"));
        holder.bind(session.name);
        if (holder.exec(tr("read engine session")) && holder.next())
            return Error::exists(tr("an engine of the same name registered at the same moment: "
                                    "%1; give this one another name with HOURGLASS_ENGINE_NAME")
                                     .arg(describe(readSession(holder))));
    }
    if (!status)
        return status.error();
    return stored;
}

Status EngineSessionRepository::heartbeat(qint64 id, const QDateTime &now,
                                          const QDateTime &leaseUntil, int load)
{
    StoreQuery q(m_store, QStringLiteral("UPDATE engine_session SET heartbeat_at = ?, "
                                         "lease_until = ?, load = ? WHERE id = ?"));
    q.bind(StoreQuery::fromTime(now)).bind(StoreQuery::fromTime(leaseUntil)).bind(load).bind(id);
    if (Status s = q.exec(tr("heartbeat engine session")); !s)
        return s;
    // Another engine took our session over after our lease expired: we must stop working.
    if (q.rowsAffected() == 0)
        return Error::notFound(tr("engine session %1 was taken over").arg(id));
    return {};
}

Result<qint64> EngineSessionRepository::clockMs(qint64 engineNowMs) const
{
    if (m_store.backend() != StoreBackend::PostgreSql)
        return engineNowMs;
    StoreQuery q(m_store, QStringLiteral("SELECT CAST(EXTRACT(EPOCH FROM clock_timestamp()) * "
                                         "1000 AS BIGINT)"));
    if (Status s = q.execSingle(tr("read the database clock"), {}); !s)
        return s.error();
    return q.int64(0);
}

Status EngineSessionRepository::release(qint64 id)
{
    StoreQuery q(m_store, QStringLiteral("DELETE FROM engine_session WHERE id = ?"));
    q.bind(id);
    return q.exec(tr("release engine session"));
}

Result<QList<EngineSession>> EngineSessionRepository::list() const
{
    StoreQuery q(m_store, selectSession + QStringLiteral("ORDER BY name"));
    if (Status s = q.exec(tr("list engine sessions")); !s)
        return s.error();
    QList<EngineSession> sessions;
    while (q.next())
        sessions << readSession(q);
    return sessions;
}

Result<QList<EngineSession>> EngineSessionRepository::liveNow() const
{
    const Result<qint64> now = clockMs(QDateTime::currentMSecsSinceEpoch());
    if (!now)
        return now.error();
    return live(QDateTime::fromMSecsSinceEpoch(now.value(), Qt::UTC));
}

bool EngineSessionRepository::anyServes() const
{
    const Result<QList<EngineSession>> serving = liveNow();
    return serving && !serving->isEmpty();
}

Result<QList<EngineSession>> EngineSessionRepository::live(const QDateTime &now) const
{
    const Result<QList<EngineSession>> all = list();
    if (!all)
        return all.error();
    QList<EngineSession> serving;
    for (const EngineSession &session : all.value()) {
        if (serves(session, now, m_store.backend()))
            serving << session;
    }
    return serving;
}

bool EngineSessionRepository::serves(const EngineSession &session, const QDateTime &now,
                                     StoreBackend backend)
{
    if (session.host != QSysInfo::machineHostName())
        return session.leaseUntil > now;
    if (processGone(session))
        return false;
    // Written before schema 13, the pid alone may name another process by now: the lease too.
    const bool known = !session.process.isEmpty();
    return (backend == StoreBackend::Sqlite && known) || session.leaseUntil > now;
}

bool EngineSessionRepository::processGone(const EngineSession &session)
{
    if (session.host != QSysInfo::machineHostName())
        return false;
    return session.process.isEmpty() ? !processinfo::isAlive(session.pid)
                                     : processinfo::identity(session.pid) != session.process;
}

QString EngineSessionRepository::describe(const EngineSession &session)
{
    const QString command = session.host == QSysInfo::machineHostName()
                                ? processinfo::commandLine(session.pid)
                                : QString();
    const QString since =
        session.startedAt.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
    if (command.isEmpty())
        return tr("'%1', pid %2 on %3, serving since %4")
            .arg(session.name)
            .arg(session.pid)
            .arg(session.host, since);
    return tr("'%1', pid %2 on %3 (%4), serving since %5")
        .arg(session.name)
        .arg(session.pid)
        .arg(session.host, command, since);
}

Result<QList<EngineSession>> EngineSessionRepository::expired(const QDateTime &now) const
{
    StoreQuery q(m_store, selectSession + QStringLiteral("WHERE lease_until < ? ORDER BY id"));
    q.bind(StoreQuery::fromTime(now));
    if (Status s = q.exec(tr("list expired engine sessions")); !s)
        return s.error();
    QList<EngineSession> sessions;
    while (q.next())
        sessions << readSession(q);
    return sessions;
}

} // namespace hg
