#include "overviewsnapshot.h"

#include "domain/chainpath.h"
#include "scheduler/scheduleplan.h"
#include "store/chainrepository.h"
#include "store/projectrepository.h"
#include "store/schedulerepository.h"
#include "store/storequery.h"

#include <QCoreApplication>
#include <QTimeZone>

#include <algorithm>

namespace hg {
namespace {

Result<QList<RunListing>> runsIn(Store &store, RunState state, const QHash<qint64, QString> &paths)
{
    RunPageQuery query;
    query.state = state;
    query.limit = 50;
    const Result<QList<RunListing>> page = RunRepository(store).page(query);
    if (!page)
        return page.error();
    QList<RunListing> shown;
    for (const RunListing &row : page.value()) {
        if (paths.contains(row.run.chainId))
            shown << row;
    }
    return shown;
}

// The next fire of each chain (the soonest of its schedules), not every fire of two days:
// 10,000 hourly schedules would be 480,000 fire times for the eight listed, and an
// every-second chain would fill the list so that a nightly one never shows.
QList<OverviewSnapshot::NextFire> nextFires(const QList<Schedule> &schedules,
                                            const QHash<qint64, Chain> &chains,
                                            const QHash<qint64, QString> &paths, qint64 nowMs)
{
    QHash<qint64, OverviewSnapshot::NextFire> soonestOfChain;
    const qint64 endMs = nowMs + qint64(2) * 86400000;
    SchedulePlan::Cache cache;
    const QTimeZone zone = QTimeZone::systemTimeZone();
    for (const Schedule &schedule : schedules) {
        const auto chain = chains.constFind(schedule.chainId);
        if (!schedule.enabled || chain == chains.cend() || !chain->enabled
            || !paths.contains(schedule.chainId))
            continue;
        const Result<SchedulePlan> plan = SchedulePlan::create(schedule, zone, &cache);
        if (!plan)
            continue;
        const std::optional<qint64> at = plan->nextFireMs(nowMs);
        if (!at || *at >= endMs)
            continue;
        const auto known = soonestOfChain.constFind(schedule.chainId);
        if (known == soonestOfChain.cend() || *at < known->atMs)
            soonestOfChain.insert(schedule.chainId,
                                  {schedule.chainId, paths.value(schedule.chainId), *at});
    }
    QList<OverviewSnapshot::NextFire> next = soonestOfChain.values();
    const auto soonest = [](const OverviewSnapshot::NextFire &a,
                            const OverviewSnapshot::NextFire &b) {
        return a.atMs != b.atMs ? a.atMs < b.atMs : a.path < b.path;
    };
    // Every chain's, not the eight soonest only: the page lists the first eight the tree's
    // filter shows (a chain found by name was "not among the next fires"; helper-1).
    std::sort(next.begin(), next.end(), soonest);
    return next;
}

} // namespace

Result<OverviewSnapshot> OverviewSnapshot::read(Store &store, qint64 projectId, qint64 nowMs,
                                                const OverviewSnapshot *previous,
                                                const QSet<qint64> &runsChangedIn)
{
    const Result<QList<Project>> projects = ProjectRepository(store).list();
    const Result<QList<Chain>> chains = ChainRepository(store).list();
    const Result<QList<Schedule>> schedules = ScheduleRepository(store).list();
    if (!projects)
        return projects.error();
    if (!chains)
        return chains.error();
    if (!schedules)
        return schedules.error();
    OverviewSnapshot snapshot;
    QHash<qint64, QString> projectNames;
    for (const Project &project : projects.value()) {
        projectNames.insert(project.id, project.name);
        if (project.id == projectId)
            snapshot.projectName = project.name;
    }
    QHash<qint64, QString> paths; // the chains shown: the project's, or all
    QHash<qint64, Chain> chainById;
    for (const Chain &chain : chains.value()) {
        chainById.insert(chain.id, chain);
        if (projectId > 0 && chain.projectId != projectId)
            continue;
        paths.insert(chain.id,
                     ChainPath{projectNames.value(chain.projectId), chain.name}.toString());
    }

    Result<QList<RunListing>> running = runsIn(store, RunState::Running, paths);
    if (!running)
        return running.error();
    snapshot.running = std::move(running.value());
    for (RunState state : {RunState::Failed, RunState::TimedOut, RunState::Interrupted}) {
        const Result<QList<RunListing>> some = runsIn(store, state, paths);
        if (!some)
            return some.error();
        snapshot.failures += some.value();
    }
    std::sort(snapshot.failures.begin(), snapshot.failures.end(),
              [](const RunListing &a, const RunListing &b) { return a.run.id > b.run.id; });
    snapshot.failures.resize(std::min<qsizetype>(listedRuns, snapshot.failures.size()));
    snapshot.next = nextFires(schedules.value(), chainById, paths, nowMs);

    // Every chain's last runs in one statement (not one per chain); on a refresh, only those of
    // the chains whose runs changed and of chains new since.
    QHash<qint64, const QList<RunSummary> *> kept;
    std::optional<QList<qint64>> toRead;
    if (previous) {
        toRead.emplace();
        for (const OverviewChainsModel::Row &row : previous->chains) {
            if (!runsChangedIn.contains(row.chainId))
                kept.insert(row.chainId, &row.runs);
        }
        for (auto it = paths.cbegin(); it != paths.cend(); ++it) {
            if (!kept.contains(it.key()))
                toRead->append(it.key());
        }
    }
    const Result<QHash<qint64, QList<RunSummary>>> recent =
        RunRepository(store).recentPerChain(sparklineRuns, toRead);
    if (!recent)
        return recent.error();
    for (auto it = paths.cbegin(); it != paths.cend(); ++it) {
        const QList<RunSummary> *before = kept.value(it.key());
        snapshot.chains << OverviewChainsModel::Row{it.key(), it.value(),
                                                    before ? *before : recent->value(it.key())};
    }
    std::sort(snapshot.chains.begin(), snapshot.chains.end(),
              [](const OverviewChainsModel::Row &a, const OverviewChainsModel::Row &b) {
                  return a.path < b.path;
              });

    // The chain triggers between chains, an end of each among those shown.
    StoreQuery links(store, QStringLiteral("SELECT u.chain_id, t.chain_id, t.on_state, t.paused "
                                           "FROM chain_trigger_upstream u JOIN chain_trigger t "
                                           "ON t.id = u.trigger_id WHERE t.kind = 'after'"));
    if (Status s = links.exec(QCoreApplication::translate("hg::OverviewSnapshot",
                                                          "read the triggers between chains"));
        !s)
        return s.error();
    const auto pathOf = [&](qint64 chainId) {
        const Chain chain = chainById.value(chainId);
        return ChainPath{projectNames.value(chain.projectId), chain.name}.toString();
    };
    while (links.next()) {
        const qint64 up = links.int64(0);
        const qint64 down = links.int64(1);
        if (!paths.contains(up) && !paths.contains(down))
            continue;
        snapshot.links << Link{up, pathOf(up), down, pathOf(down), links.text(2), links.boolean(3)};
    }
    std::sort(snapshot.links.begin(), snapshot.links.end(), [](const Link &a, const Link &b) {
        return a.upstreamPath != b.upstreamPath ? a.upstreamPath < b.upstreamPath
                                                : a.downstreamPath < b.downstreamPath;
    });
    return snapshot;
}

} // namespace hg
