#include "chaintriggerrepository.h"

#include "store.h"
#include "storequery.h"

#include <QDateTime>
#include <QHash>
#include <QRegularExpression>
#include <QSet>
#include <queue>

#include <algorithm>

namespace hg {
namespace {

constexpr int mostUpstreams = 50;
constexpr qint64 longestWindowMs = qint64(30) * 24 * 3600 * 1000;

const QString chainPathSql = QStringLiteral("p.name || '/' || c.name");

// The same files, however written: "/srv//in/*" is "/srv/in/*".
bool sameFiles(const QString &a, const QString &b)
{
    static const QRegularExpression slashes(QStringLiteral("/+"));
    return QString(a).replace(slashes, QStringLiteral("/"))
           == QString(b).replace(slashes, QStringLiteral("/"));
}

} // namespace

Result<ChainTrigger> ChainTriggerRepository::add(const ChainTrigger &trigger)
{
    if (Status s = refuseTwin(trigger); !s)
        return s.error();
    if (trigger.kind == TriggerKind::File || trigger.kind == TriggerKind::Desktop)
        return addWatched(trigger);
    if (trigger.kind == TriggerKind::Webhook)
        return addWebhook(trigger);
    if (trigger.upstreams.isEmpty())
        return Error::invalidField(QStringLiteral("after"), 0,
                                   tr("--after: name the chain (or chains) whose runs start it"));
    if (trigger.upstreams.size() > mostUpstreams)
        return Error::invalidField(
            QStringLiteral("after"), 0,
            tr("--after: %1 chains; %2 at most").arg(trigger.upstreams.size()).arg(mostUpstreams));
    QSet<qint64> seen;
    for (const ChainTrigger::Upstream &upstream : trigger.upstreams) {
        if (upstream.chainId == trigger.chainId)
            return Error::invalidField(QStringLiteral("after"), 0,
                                       tr("--after: %1 cannot start itself when it ends (every "
                                          "run would start the next for good)")
                                           .arg(upstream.path));
        if (seen.contains(upstream.chainId))
            return Error::invalidField(QStringLiteral("after"), 0,
                                       tr("--after: %1 is named twice").arg(upstream.path));
        seen.insert(upstream.chainId);
    }
    if (trigger.withinMs < 0 || trigger.withinMs > longestWindowMs)
        return Error::invalidField(QStringLiteral("within"), 0,
                                   tr("--within: a window from 1 s to 30 days"));
    if (trigger.withinMs > 0 && trigger.withinMs < 1000)
        return Error::invalidField(QStringLiteral("within"), 0,
                                   tr("--within: a window from 1 s to 30 days"));
    if (trigger.withinMs > 0 && trigger.upstreams.size() < 2)
        return Error::invalidField(QStringLiteral("within"), 0,
                                   tr("--within: waits for every one of several chains; with "
                                      "one, each of its ends starts a run"));
    Result<ChainTrigger> stored = Error::runtime(QString());
    const Status written = m_store.transaction([&]() -> Status {
        for (const ChainTrigger::Upstream &upstream : trigger.upstreams) {
            const Result<QStringList> cycle = pathOfTriggers(trigger.chainId, upstream.chainId);
            if (!cycle)
                return cycle.error();
            if (!cycle->isEmpty())
                return Error::invalidField(
                    QStringLiteral("after"), 0,
                    tr("--after: a cycle of triggers, each end starting the next for good: %1")
                        .arg((QStringList{upstream.path} + cycle.value())
                                 .join(QStringLiteral(" → "))));
        }
        StoreQuery q(m_store, QStringLiteral("INSERT INTO chain_trigger (chain_id, kind, "
                                             "on_state, within_ms, paused, created_at) VALUES "
                                             "(?, ?, ?, ?, ?, ?) RETURNING id"));
        q.bind(trigger.chainId)
            .bind(enumName(trigger.kind))
            .bind(enumName(trigger.on))
            .bind(trigger.withinMs)
            .bind(trigger.paused)
            .bind(QDateTime::currentMSecsSinceEpoch());
        if (Status s = q.execSingle(tr("add a trigger"), {}); !s)
            return s;
        const qint64 id = q.int64(0);
        for (const ChainTrigger::Upstream &upstream : trigger.upstreams) {
            StoreQuery u(m_store, QStringLiteral("INSERT INTO chain_trigger_upstream "
                                                 "(trigger_id, chain_id) VALUES (?, ?)"));
            u.bind(id).bind(upstream.chainId);
            if (Status s = u.exec(tr("add a trigger")); !s)
                return s;
        }
        stored = byId(id);
        return stored ? Status{} : Status(stored.error());
    });
    if (!written)
        return written.error();
    return stored;
}

Result<ChainTrigger> ChainTriggerRepository::addWebhook(const ChainTrigger &trigger)
{
    if (const QString problem = trigger.webhook.problem(); !problem.isEmpty())
        return Error::invalidField(QStringLiteral("settings"), 0, problem);
    StoreQuery q(m_store, QStringLiteral("INSERT INTO chain_trigger (chain_id, kind, paused, "
                                         "settings, created_at) VALUES (?, 'webhook', ?, ?, ?) "
                                         "RETURNING id"));
    q.bind(trigger.chainId)
        .bind(trigger.paused)
        .bind(trigger.webhook.toJson())
        .bind(QDateTime::currentMSecsSinceEpoch());
    if (Status s = q.execSingle(tr("add a trigger"), {}); !s)
        return s.error();
    return byId(q.int64(0));
}

Result<ChainTrigger> ChainTriggerRepository::addWatched(const ChainTrigger &trigger)
{
    const bool file = trigger.kind == TriggerKind::File;
    if (const QString problem = file ? trigger.file.problem() : trigger.desktop.problem();
        !problem.isEmpty())
        return Error::invalidField(QStringLiteral("settings"), 0, problem);
    if (m_store.backend() == StoreBackend::PostgreSql) {
        // A file or a desktop is on one machine: the engine named by the chain's client name
        // watches it.
        StoreQuery chain(m_store, QStringLiteral("SELECT client_name FROM chain WHERE id = ?"));
        chain.bind(trigger.chainId);
        if (Status s = chain.execSingle(tr("add a trigger"), tr("no chain %1").arg(trigger.path));
            !s)
            return s.error();
        if (chain.text(0).isEmpty())
            return Error::invalidField(
                QStringLiteral("client_name"), 0,
                tr("%1: %2 has no client name, and on a shared store %3 is on one machine: "
                   "set the chain's client name to the name of the engine that watches it "
                   "(the chain editor, or `chain add … --client NAME`)")
                    .arg(file ? QStringLiteral("--file") : trigger.desktop.option(),
                         trigger.path.left(300), file ? tr("a file") : tr("a desktop")));
    }
    StoreQuery q(m_store, QStringLiteral("INSERT INTO chain_trigger (chain_id, kind, paused, "
                                         "settings, created_at) VALUES (?, ?, ?, ?, ?) "
                                         "RETURNING id"));
    q.bind(trigger.chainId)
        .bind(enumName(trigger.kind))
        .bind(trigger.paused)
        .bind(file ? trigger.file.toJson() : trigger.desktop.toJson())
        .bind(QDateTime::currentMSecsSinceEpoch());
    if (Status s = q.execSingle(tr("add a trigger"), {}); !s)
        return s.error();
    return byId(q.int64(0));
}

Status ChainTriggerRepository::refuseTwin(const ChainTrigger &trigger) const
{
    // Two alike would start two runs for every event: one the user meant, one by mistake.
    const Result<QList<ChainTrigger>> existing = list(trigger.chainId);
    if (!existing)
        return existing.error();
    const auto upstreamsOf = [](const ChainTrigger &t) {
        QSet<qint64> ids;
        for (const ChainTrigger::Upstream &upstream : t.upstreams)
            ids.insert(upstream.chainId);
        return ids;
    };
    for (const ChainTrigger &other : existing.value()) {
        if (other.kind != trigger.kind)
            continue;
        // Alike: some event would start a run of each (the same files and an event in
        // common, whatever their other settings; the same ends of the same chains).
        bool same = false;
        if (trigger.kind == TriggerKind::File)
            same = sameFiles(other.file.glob, trigger.file.glob)
                   && std::any_of(trigger.file.events.cbegin(), trigger.file.events.cend(),
                                  [&other](FileEvent e) { return other.file.wants(e); });
        else if (trigger.kind == TriggerKind::Desktop)
            same = other.desktop.toJson() == trigger.desktop.toJson();
        else if (trigger.kind == TriggerKind::Webhook)
            same = false; // each hook has a path of its own: two never share a request
        else if (other.on == trigger.on || other.on == TriggerOn::Finished
                 || trigger.on == TriggerOn::Finished)
            // Each end of any one upstream (no window) starts a run: two such triggers that
            // share an upstream both start one. "All within" ones are alike with the same set.
            same = other.withinMs == 0 && trigger.withinMs == 0
                       ? upstreamsOf(other).intersects(upstreamsOf(trigger))
                       : other.withinMs == trigger.withinMs
                             && upstreamsOf(other) == upstreamsOf(trigger);
        if (same)
            return Error::invalidField(
                QStringLiteral("trigger"), 0,
                other.paused ? tr("%1 already has this trigger, paused (id %2): `hourglass "
                                  "trigger resume %2`")
                                   .arg(trigger.path.left(300))
                                   .arg(other.id)
                             : tr("%1 already has this trigger (id %2); two would start two "
                                  "runs for each event")
                                   .arg(trigger.path.left(300))
                                   .arg(other.id));
    }
    return {};
}

Status ChainTriggerRepository::setWatchNote(qint64 id, const QString &note)
{
    StoreQuery q(m_store, QStringLiteral("UPDATE chain_trigger SET watch_note = ?, "
                                         "watch_note_at = ? WHERE id = ? AND watch_note <> ?"));
    q.bind(note).bind(QDateTime::currentMSecsSinceEpoch()).bind(id).bind(note);
    return q.exec(tr("note how a trigger is watched"));
}

Result<QStringList> ChainTriggerRepository::pathOfTriggers(qint64 from, qint64 target) const
{
    // Every edge upstream -> downstream, read once: a store holds dozens, not millions.
    StoreQuery edges(m_store, QStringLiteral("SELECT u.chain_id, t.chain_id FROM "
                                             "chain_trigger_upstream u JOIN chain_trigger t ON "
                                             "t.id = u.trigger_id"));
    if (Status s = edges.exec(tr("read the triggers")); !s)
        return s.error();
    QHash<qint64, QList<qint64>> next;
    while (edges.next())
        next[edges.int64(0)] << edges.int64(1);
    QHash<qint64, qint64> cameFrom{{from, 0}};
    std::queue<qint64> open;
    open.push(from);
    while (!open.empty()) {
        const qint64 at = open.front();
        open.pop();
        if (at == target)
            break;
        for (const qint64 to : next.value(at))
            if (!cameFrom.contains(to)) {
                cameFrom.insert(to, at);
                open.push(to);
            }
    }
    if (!cameFrom.contains(target))
        return QStringList();
    QList<qint64> chain;
    for (qint64 at = target; at != 0; at = cameFrom.value(at))
        chain.prepend(at);
    StoreQuery names(m_store, QStringLiteral("SELECT c.id, %1 FROM chain c JOIN project p ON p.id "
                                             "= c.project_id WHERE c.id IN (%2)")
                                  .arg(chainPathSql, StoreQuery::idList(chain)));
    if (Status s = names.exec(tr("read the triggers")); !s)
        return s.error();
    QHash<qint64, QString> pathOf;
    while (names.next())
        pathOf.insert(names.int64(0), names.text(1));
    QStringList path;
    for (const qint64 id : chain)
        path << pathOf.value(id);
    return path;
}

Result<QList<ChainTrigger>> ChainTriggerRepository::list(std::optional<qint64> chainId) const
{
    StoreQuery q(m_store, QStringLiteral("SELECT t.id, t.chain_id, %1, t.kind, t.on_state, "
                                         "t.within_ms, t.paused, t.created_at, t.settings, "
                                         "t.watch_note, t.watch_note_at FROM chain_trigger "
                                         "t JOIN chain c ON c.id = t.chain_id JOIN project p ON "
                                         "p.id = c.project_id %2 ORDER BY 3, t.id")
                              .arg(chainPathSql,
                                   chainId ? QStringLiteral("WHERE t.chain_id = ?") : QString()));
    if (chainId)
        q.bind(*chainId);
    if (Status s = q.exec(tr("list triggers")); !s)
        return s.error();
    QList<ChainTrigger> triggers;
    QHash<qint64, qsizetype> indexOf;
    while (q.next()) {
        ChainTrigger t;
        t.id = q.int64(0);
        t.chainId = q.int64(1);
        t.path = q.text(2);
        t.kind = enumFromString<TriggerKind>(q.text(3)).value_or(TriggerKind::After);
        t.on = enumFromString<TriggerOn>(q.text(4)).value_or(TriggerOn::Succeeded);
        t.withinMs = q.int64(5);
        t.paused = q.boolean(6);
        t.createdAt = q.time(7);
        if (t.kind == TriggerKind::File)
            t.file = FileTriggerSpec::fromJson(q.text(8));
        else if (t.kind == TriggerKind::Desktop)
            t.desktop = DesktopTriggerSpec::fromJson(q.text(8));
        else if (t.kind == TriggerKind::Webhook)
            t.webhook = WebhookTriggerSpec::fromJson(q.text(8));
        t.watchNote = q.text(9);
        if (q.int64(10) > 0)
            t.watchNoteAt = q.time(10);
        indexOf.insert(t.id, triggers.size());
        triggers << t;
    }
    if (triggers.isEmpty())
        return triggers;
    StoreQuery u(m_store, QStringLiteral("SELECT u.trigger_id, u.chain_id, %1 FROM "
                                         "chain_trigger_upstream u JOIN chain c ON c.id = "
                                         "u.chain_id JOIN project p ON p.id = c.project_id %2 "
                                         "ORDER BY 3")
                              .arg(chainPathSql,
                                   chainId ? QStringLiteral("WHERE u.trigger_id IN (SELECT id FROM "
                                                            "chain_trigger WHERE chain_id = ?)")
                                           : QString()));
    if (chainId)
        u.bind(*chainId);
    if (Status s = u.exec(tr("list triggers")); !s)
        return s.error();
    while (u.next())
        if (const auto at = indexOf.constFind(u.int64(0)); at != indexOf.constEnd())
            triggers[at.value()].upstreams << ChainTrigger::Upstream{u.int64(1), u.text(2)};
    return triggers;
}

Result<QList<ChainTrigger>> ChainTriggerRepository::waitingFor(qint64 chainId) const
{
    const Result<QList<ChainTrigger>> all = list();
    if (!all)
        return all.error();
    QList<ChainTrigger> waiting;
    for (const ChainTrigger &trigger : all.value())
        if (trigger.chainId != chainId
            && std::any_of(trigger.upstreams.cbegin(), trigger.upstreams.cend(),
                           [chainId](const auto &upstream) { return upstream.chainId == chainId; }))
            waiting << trigger;
    return waiting;
}

Result<ChainTrigger> ChainTriggerRepository::byId(qint64 id) const
{
    StoreQuery q(m_store, QStringLiteral("SELECT chain_id FROM chain_trigger WHERE id = ?"));
    q.bind(id);
    if (Status s = q.execSingle(tr("read a trigger"), tr("no trigger %1").arg(id)); !s)
        return s.error();
    const Result<QList<ChainTrigger>> ofChain = list(q.int64(0));
    if (!ofChain)
        return ofChain.error();
    for (const ChainTrigger &t : ofChain.value())
        if (t.id == id)
            return t;
    return Error::notFound(tr("no trigger %1").arg(id));
}

Status ChainTriggerRepository::remove(qint64 id)
{
    StoreQuery q(m_store, QStringLiteral("DELETE FROM chain_trigger WHERE id = ?"));
    q.bind(id);
    if (Status s = q.exec(tr("remove a trigger")); !s)
        return s;
    if (q.rowsAffected() == 0)
        return Error::notFound(tr("no trigger %1 (`hourglass trigger list` shows them)").arg(id));
    return {};
}

Status ChainTriggerRepository::setSettings(qint64 id, const QString &settings)
{
    StoreQuery q(m_store, QStringLiteral("UPDATE chain_trigger SET settings = ? WHERE id = ?"));
    q.bind(settings).bind(id);
    if (Status s = q.exec(tr("change a trigger")); !s)
        return s;
    if (q.rowsAffected() == 0)
        return Error::notFound(tr("no trigger %1 (`hourglass trigger list` shows them)").arg(id));
    return {};
}

Status ChainTriggerRepository::setPaused(qint64 id, bool paused)
{
    StoreQuery q(m_store, QStringLiteral("UPDATE chain_trigger SET paused = ? WHERE id = ?"));
    q.bind(paused).bind(id);
    if (Status s = q.exec(paused ? tr("pause a trigger") : tr("resume a trigger")); !s)
        return s;
    if (q.rowsAffected() == 0)
        return Error::notFound(tr("no trigger %1 (`hourglass trigger list` shows them)").arg(id));
    return {};
}

} // namespace hg
