#pragma once

#include "base/result.h"
#include "domain/enums.h"
#include "domain/fence.h"
#include "domain/taskrun.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QJsonArray>
#include <QList>
#include <QSet>
#include <QStringList>

#include <optional>

namespace hg {

class Store;
class StoreQuery;

// What many claimed runs' state changes and attempts' updates write, one statement for each
// kind instead of one per row (PostgreSQL only). RunRecorder gathers the writes of one
// transaction and sends them here before anything else reads the tables: with 64 slots a
// statement per row cost the server more than everything else about a run together.
//
// Each write is fenced as RunRepository::setStateFenced() and TaskRunRepository::
// updateFenced() are: a row is written only while its run names this claim. The ids written
// come back; any other was taken over or is gone, which RunOwnership::check() tells apart.
class RunWriteBatch final
{
    Q_DECLARE_TR_FUNCTIONS(hg::RunWriteBatch)

public:
    // A run's new state, this engine's claim on it, or both: a claim kept back from
    // RunOwnership::lockQueued() is written with the run's start, one row update for two.
    struct RunChange
    {
        qint64 runId = 0;
        bool claim = false;
        std::optional<RunState> state;
        QDateTime at;
        QString engineName;
    };

    explicit RunWriteBatch(Store &store)
        : m_store(store)
    {}

    // Every run at most once: a run's started_at keeps its first "running". A claim is
    // written only while the run is queued and nobody else's (its row locked by the claim's
    // transaction), a state only while the run names the claim.
    Result<QSet<qint64>> writeRuns(const QList<RunChange> &changes, const Fence &fence);
    // New attempts whose ids reserveTaskRunIds() gave: those stored come back. Any other was
    // stored before (an ambiguous commit) or its run was taken over.
    Result<QSet<qint64>> insertTaskRuns(const QList<TaskRun> &attempts, const Fence &fence);
    // Every attempt at most once; returns the attempts' ids written.
    Result<QSet<qint64>> updateTaskRuns(const QList<TaskRun> &attempts, const Fence &fence);
    // Ids for attempts not inserted yet, from task_run's own sequence: an attempt kept back
    // to the end of its transaction has its id at once.
    Result<QList<qint64>> reserveTaskRunIds(int count);

private:
    // Binds the rows, their runs, the claim and (when given) the rows' own ids; the ids the
    // statement returned.
    Result<QSet<qint64>> writeRows(StoreQuery &q, const QJsonArray &rows,
                                   const QList<qint64> &runIds, const Fence &fence,
                                   const QString &whatFor, const QList<qint64> &rowIds = {});

    Store &m_store;
};

} // namespace hg
