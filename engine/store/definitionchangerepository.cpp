#include "store/definitionchangerepository.h"

#include "store/store.h"
#include "store/storequery.h"

namespace hg {

Result<DefinitionChangeRepository::Changes> DefinitionChangeRepository::since(qint64 after) const
{
    StoreQuery q(
        m_store,
        QStringLiteral("SELECT r.revision, c.revision, c.chain_id FROM definition_revision r "
                       "LEFT JOIN definition_change c ON c.revision > ? WHERE r.id = 1 "
                       "ORDER BY c.revision"));
    q.bind(after);
    if (Status s = q.exec(tr("read the definition changes")); !s)
        return s.error();
    Changes changes;
    changes.revision = after;
    qint64 current = after;
    qint64 expected = after + 1; // revisions come one by one, each with at least one row
    while (q.next()) {
        current = q.int64(0);
        if (q.value(1).isNull())
            continue;
        const qint64 revision = q.int64(1);
        if (revision > expected)
            changes.complete = false;
        expected = revision + 1;
        changes.revision = revision;
        changes.chainIds.insert(q.int64(2));
    }
    // Newer revisions with no rows: pruned (or the store predates the feed).
    // A store restored from an older copy goes back in revisions: reload everything too.
    if (current > changes.revision || current < after) {
        changes.complete = false;
        changes.revision = current;
    }
    return changes;
}

Result<qint64> DefinitionChangeRepository::revision() const
{
    StoreQuery q(m_store, QStringLiteral("SELECT revision FROM definition_revision WHERE id = 1"));
    if (Status s = q.execSingle(tr("read the definition revision"),
                                tr("the store has no definition revision"));
        !s)
        return s.error();
    return q.int64(0);
}

Result<int> DefinitionChangeRepository::prune(qint64 keepMs)
{
    // By the clock that wrote changed_at (the database's), not the engine's, which a test
    // may have moved years ahead.
    const QString now =
        m_store.backend() == StoreBackend::PostgreSql
            ? QStringLiteral("CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000 AS BIGINT)")
            : QStringLiteral("CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)");
    StoreQuery q(
        m_store,
        QStringLiteral("DELETE FROM definition_change WHERE changed_at < %1 - ?").arg(now));
    q.bind(keepMs);
    if (Status s = q.exec(tr("prune the definition changes")); !s)
        return s.error();
    return q.rowsAffected();
}

} // namespace hg
