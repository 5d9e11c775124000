#include "commandrepository.h"

#include "store.h"
#include "storequery.h"

namespace hg {
namespace {

const QString commandColumns = QStringLiteral(
    "id, kind, COALESCE(chain_id, 0), COALESCE(run_id, 0), payload, target_engine, created_at, "
    "claimed_by, claimed_at, done_at, error");

Command readCommand(const StoreQuery &q)
{
    Command c;
    c.id = q.int64(0);
    c.kind = enumFromString<CommandKind>(q.text(1)).value_or(CommandKind::Start);
    c.chainId = q.int64(2);
    c.runId = q.int64(3);
    c.payload = q.object(4);
    c.targetEngine = q.text(5);
    c.createdAt = q.time(6);
    c.claimedBy = q.text(7);
    c.claimedAt = q.time(8);
    c.doneAt = q.time(9);
    c.error = q.text(10);
    return c;
}

} // namespace

Result<Command> CommandRepository::enqueue(const Command &command)
{
    Command stored = command;
    stored.createdAt = QDateTime::currentDateTimeUtc();
    StoreQuery q(m_store, QStringLiteral("INSERT INTO command (kind, chain_id, run_id, payload, "
                                         "target_engine, created_at) VALUES (?, ?, ?, ?, ?, ?) "
                                         "RETURNING id"));
    q.bind(enumName(stored.kind))
        .bind(StoreQuery::fromId(stored.chainId))
        .bind(StoreQuery::fromId(stored.runId))
        .bind(StoreQuery::fromJson(stored.payload))
        .bind(stored.targetEngine)
        .bind(StoreQuery::fromTime(stored.createdAt));
    if (Status s = q.execSingle(tr("enqueue %1 command").arg(enumName(stored.kind)), {}); !s)
        return s.error();
    stored.id = q.int64(0);
    return stored;
}

Result<std::optional<Command>> CommandRepository::claimNext(const QString &engineName,
                                                            qint64 sessionId, bool ownRunsOnly)
{
    // PostgreSQL engines compete: SKIP LOCKED lets each take a different row without waiting.
    // SQLite has one writer, so the plain sub-select is already atomic.
    const QString lock = m_store.backend() == StoreBackend::PostgreSql
                             ? QStringLiteral(" FOR UPDATE SKIP LOCKED")
                             : QString();
    StoreQuery q(
        m_store,
        QStringLiteral(
            "UPDATE command SET claimed_by = ?, claimed_at = ? WHERE id = (SELECT id FROM command "
            "WHERE claimed_at IS NULL AND (target_engine = '' OR target_engine = ?) AND (? = 0 "
            "OR run_id IS NULL OR NOT EXISTS (SELECT 1 FROM run WHERE run.id = command.run_id "
            "AND run.owner_session IS NOT NULL AND run.owner_session <> ?))%3 ORDER BY id "
            "LIMIT 1%1) RETURNING %2")
            .arg(lock, commandColumns,
                 ownRunsOnly ? QStringLiteral(" AND EXISTS (SELECT 1 FROM run WHERE run.id = "
                                              "command.run_id AND run.owner_session = ?)")
                             : QString()));
    q.bind(engineName)
        .bind(QDateTime::currentMSecsSinceEpoch())
        .bind(engineName)
        .bind(sessionId)
        .bind(sessionId);
    if (ownRunsOnly)
        q.bind(sessionId);
    if (Status s = q.exec(tr("claim a command")); !s)
        return s.error();
    if (!q.next())
        return std::optional<Command>();
    return std::optional<Command>(readCommand(q));
}

Status CommandRepository::complete(qint64 id, const QString &error)
{
    StoreQuery q(m_store, QStringLiteral("UPDATE command SET done_at = ?, error = ? WHERE id = ?"));
    q.bind(QDateTime::currentMSecsSinceEpoch()).bind(error).bind(id);
    if (Status s = q.exec(tr("complete command %1").arg(id)); !s)
        return s;
    if (q.rowsAffected() == 0)
        return Error::notFound(tr("unknown command %1").arg(id));
    return {};
}

Result<Command> CommandRepository::byId(qint64 id) const
{
    StoreQuery q(m_store,
                 QStringLiteral("SELECT %1 FROM command WHERE id = ?").arg(commandColumns));
    q.bind(id);
    if (Status s = q.execSingle(tr("read command"), tr("unknown command %1").arg(id)); !s)
        return s.error();
    return readCommand(q);
}

Result<QList<Command>> CommandRepository::pending() const
{
    StoreQuery q(m_store, QStringLiteral("SELECT %1 FROM command WHERE done_at IS NULL ORDER BY id")
                              .arg(commandColumns));
    if (Status s = q.exec(tr("list commands")); !s)
        return s.error();
    QList<Command> commands;
    while (q.next())
        commands << readCommand(q);
    return commands;
}

} // namespace hg
