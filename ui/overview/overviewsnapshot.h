#pragma once

#include "base/result.h"
#include "overviewchainsmodel.h"
#include "store/runrepository.h"

#include <QList>
#include <QSet>
#include <QString>

namespace hg {

class Store;

// Everything the Overview shows, read in one go as a value: on the reader's thread, with its
// own connection, so the window never waits for it (see OverviewPage).
struct OverviewSnapshot
{
    struct NextFire
    {
        qint64 chainId = 0;
        QString path;
        qint64 atMs = 0;
    };

    // A chain trigger's edge: the downstream chain starts when a run of the upstream ends in
    // onState (succeeded, failed, finished).
    struct Link
    {
        qint64 upstreamId = 0;
        QString upstreamPath;
        qint64 downstreamId = 0;
        QString downstreamPath;
        QString onState;
        bool paused = false;
    };

    static constexpr int sparklineRuns = 20;
    static constexpr int listedRuns = 10;
    static constexpr int listedFires = 8;

    QString projectName; // empty: every project
    QList<RunListing> running;
    QList<RunListing> failures; // newest first, at most listedRuns
    QList<NextFire> next; // each chain's next, soonest first, within two days (listedFires shown)
    QList<OverviewChainsModel::Row> chains; // by path
    QList<Link> links;                      // with an end among the chains shown, by upstream path

    // projectId 0: every project. With `previous` (read for the same project) and the chains
    // whose runs changed since it was read, each other chain keeps its last runs from it: a
    // refresh while runs end reads their chains alone, not every chain's again.
    static Result<OverviewSnapshot> read(Store &store, qint64 projectId, qint64 nowMs,
                                         const OverviewSnapshot *previous = nullptr,
                                         const QSet<qint64> &runsChangedIn = {});
};

} // namespace hg
