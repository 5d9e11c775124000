#include "chainrepository.h"

#include "domain/chainvalidator.h"
#include "projectrepository.h"
#include "removedruns.h"
#include "runsinflight.h"
#include "store.h"
#include "storequery.h"

namespace hg {
namespace {

const QString chainColumns = QStringLiteral(
    "c.id, c.project_id, c.name, c.description, c.enabled, c.max_instances, c.overlap, "
    "c.timeout_s, c.self_destruct, c.exclusive, c.client_name, c.on_failure, c.priority, "
    "c.notify, c.parameters, c.created_at, c.keep_runs, c.keep_days, c.keep_failed_runs, "
    "c.keep_failed_days, c.needs_network");

Chain readChain(const StoreQuery &q)
{
    Chain c;
    c.id = q.int64(0);
    c.projectId = q.int64(1);
    c.name = q.text(2);
    c.description = q.text(3);
    c.enabled = q.boolean(4);
    c.maxInstances = q.integer(5);
    c.overlap = enumFromString<OverlapPolicy>(q.text(6)).value_or(OverlapPolicy::Queue);
    c.timeoutSeconds = q.integer(7);
    c.selfDestruct = q.boolean(8);
    c.exclusive = q.boolean(9);
    c.clientName = q.text(10);
    c.onFailure = enumFromString<FailureStrategy>(q.text(11)).value_or(FailureStrategy::End);
    c.priority = enumFromString<Priority>(q.text(12)).value_or(Priority::Medium);
    c.notify = enumFromString<NotifyPolicy>(q.text(13)).value_or(NotifyPolicy::Failure);
    c.parameters = q.object(14);
    c.createdAt = q.time(15);
    c.retention = Retention{q.integer(16), q.integer(17), q.integer(18), q.integer(19)};
    c.needsNetwork = q.boolean(20);
    return c;
}

// The editable columns in one order, shared by insert and update.
void bindEditable(StoreQuery &q, const Chain &c)
{
    q.bind(c.name)
        .bind(c.description)
        .bind(c.enabled)
        .bind(c.maxInstances)
        .bind(enumName(c.overlap))
        .bind(c.timeoutSeconds)
        .bind(c.selfDestruct)
        .bind(c.exclusive)
        .bind(c.clientName)
        .bind(enumName(c.onFailure))
        .bind(enumName(c.priority))
        .bind(enumName(c.notify))
        .bind(StoreQuery::fromJson(c.parameters))
        .bind(c.retention.keepRuns)
        .bind(c.retention.keepDays)
        .bind(c.retention.keepFailedRuns)
        .bind(c.retention.keepFailedDays)
        .bind(c.needsNetwork);
}

} // namespace

Result<Chain> ChainRepository::add(const Chain &chain)
{
    if (Status valid = ChainValidator::validate(chain); !valid)
        return valid.error();
    Chain stored = chain;
    stored.createdAt = QDateTime::currentDateTimeUtc();
    StoreQuery q(
        m_store,
        QStringLiteral(
            "INSERT INTO chain (name, description, enabled, max_instances, overlap, timeout_s, "
            "self_destruct, exclusive, client_name, on_failure, priority, notify, parameters, "
            "keep_runs, keep_days, keep_failed_runs, keep_failed_days, needs_network, project_id, "
            "created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
            "RETURNING id"));
    bindEditable(q, stored);
    q.bind(stored.projectId).bind(StoreQuery::fromTime(stored.createdAt));
    if (Status status = q.execSingle(tr("add chain '%1'").arg(chain.name), {}); !status) {
        if (status.error().kind == ErrorKind::AlreadyExists)
            return Error::exists(tr("chain '%1' already exists in this project").arg(chain.name));
        if (status.error().kind == ErrorKind::Invalid)
            return Error::notFound(tr("unknown project id %1").arg(chain.projectId));
        return status.error();
    }
    stored.id = q.int64(0);
    return stored;
}

Status ChainRepository::update(const Chain &chain)
{
    if (Status valid = ChainValidator::validate(chain); !valid)
        return valid;
    StoreQuery q(
        m_store,
        QStringLiteral(
            "UPDATE chain SET name = ?, description = ?, enabled = ?, max_instances = ?, overlap = "
            "?, "
            "timeout_s = ?, self_destruct = ?, exclusive = ?, client_name = ?, on_failure = ?, "
            "priority = ?, notify = ?, parameters = ?, keep_runs = ?, keep_days = ?, "
            "keep_failed_runs = ?, keep_failed_days = ?, needs_network = ? WHERE id = ?"));
    bindEditable(q, chain);
    q.bind(chain.id);
    if (Status status = q.exec(tr("update chain '%1'").arg(chain.name)); !status) {
        if (status.error().kind == ErrorKind::AlreadyExists)
            return Error::exists(tr("chain '%1' already exists in this project").arg(chain.name));
        return status;
    }
    if (q.rowsAffected() == 0)
        return Error::notFound(tr("unknown chain id %1").arg(chain.id));
    return {};
}

Result<Chain> ChainRepository::byId(qint64 id) const
{
    StoreQuery q(m_store,
                 QStringLiteral("SELECT %1 FROM chain c WHERE c.id = ?").arg(chainColumns));
    q.bind(id);
    if (Status s = q.execSingle(tr("read chain"), tr("unknown chain id %1").arg(id)); !s)
        return s.error();
    return readChain(q);
}

Result<Chain> ChainRepository::byPath(const ChainPath &path) const
{
    const Result<Project> project = ProjectRepository(m_store).byName(path.project);
    if (!project)
        return project.error();
    StoreQuery q(m_store, QStringLiteral("SELECT %1 FROM chain c WHERE c.project_id = ? AND "
                                         "c.name = ?")
                              .arg(chainColumns));
    q.bind(project->id).bind(path.chain);
    if (Status s = q.execSingle(tr("read chain"), tr("unknown chain '%1'").arg(path.toString()));
        !s)
        return s.error();
    return readChain(q);
}

Result<Chain> ChainRepository::byPath(const QString &text) const
{
    const Result<ChainPath> path = ChainPath::parse(text);
    if (!path)
        return path.error();
    return byPath(path.value());
}

Result<QList<Chain>> ChainRepository::list(std::optional<qint64> projectId) const
{
    QString sql = QStringLiteral("SELECT %1 FROM chain c JOIN project p ON p.id = c.project_id ")
                      .arg(chainColumns);
    if (projectId)
        sql += QStringLiteral("WHERE c.project_id = ? ");
    sql += QStringLiteral("ORDER BY p.name, c.name");
    StoreQuery q(m_store, sql);
    if (projectId)
        q.bind(*projectId);
    if (Status s = q.exec(tr("list chains")); !s)
        return s.error();
    QList<Chain> chains;
    while (q.next())
        chains << readChain(q);
    return chains;
}

Status ChainRepository::remove(qint64 id)
{
    return m_store.transaction([&]() -> Status {
        const Result<ChainPath> path = pathOf(id);
        if (!path)
            return path.error();
        if (Status idle = RunsInFlight::refuseRemoval(m_store, RunsInFlight::Scope::Chain, id,
                                                      tr("chain %1").arg(path->toString()));
            !idle)
            return idle;
        if (Status kept = RemovedRuns::keep(m_store, RunsInFlight::Scope::Chain, id); !kept)
            return kept;
        // A trigger that waits for this chain can never be met again ("after a and b" with b
        // gone): it goes too, rather than quietly becoming "after a".
        StoreQuery waiting(m_store, QStringLiteral("DELETE FROM chain_trigger WHERE id IN "
                                                   "(SELECT trigger_id FROM "
                                                   "chain_trigger_upstream WHERE chain_id = ?)"));
        waiting.bind(id);
        if (Status s = waiting.exec(tr("remove chain")); !s)
            return s;
        StoreQuery q(m_store, QStringLiteral("DELETE FROM chain WHERE id = ?"));
        q.bind(id);
        if (Status s = q.exec(tr("remove chain")); !s)
            return s;
        if (q.rowsAffected() == 0)
            return Error::notFound(tr("unknown chain id %1").arg(id));
        return {};
    });
}

Result<ChainPath> ChainRepository::pathOf(qint64 chainId) const
{
    StoreQuery q(m_store, QStringLiteral("SELECT p.name, c.name FROM chain c JOIN project p ON "
                                         "p.id = c.project_id WHERE c.id = ?"));
    q.bind(chainId);
    if (Status s = q.execSingle(tr("read chain"), tr("unknown chain id %1").arg(chainId)); !s)
        return s.error();
    return ChainPath{q.text(0), q.text(1)};
}

Result<QHash<qint64, ChainPath>> ChainRepository::pathsOf(const QList<qint64> &chainIds) const
{
    QHash<qint64, ChainPath> paths;
    if (chainIds.isEmpty())
        return paths;
    StoreQuery q(m_store, QStringLiteral("SELECT c.id, p.name, c.name FROM chain c JOIN project p "
                                         "ON p.id = c.project_id WHERE c.id IN (%1)")
                              .arg(StoreQuery::idList(chainIds)));
    if (Status s = q.exec(tr("read chains")); !s)
        return s.error();
    while (q.next())
        paths.insert(q.int64(0), ChainPath{q.text(1), q.text(2)});
    return paths;
}

} // namespace hg
