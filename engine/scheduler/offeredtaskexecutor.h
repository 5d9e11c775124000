#pragma once

#include "domain/taskrun.h"
#include "executors/taskexecutor.h"

#include <QPointer>

#include <optional>

namespace hg {

class OfferBoard;

// An attempt its run's engine offered to the engines of a shared store (TaskRunOffers): it
// runs wherever a slot was free, and this stands in for it in the run's DAG. Its end is what
// the attempt's row says once a worker (or recovery, or a withdrawal) ended it, as the
// OfferBoard reads it.
class OfferedTaskExecutor final : public TaskExecutor
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(OfferedTaskExecutor)

public:
    OfferedTaskExecutor(OfferBoard &board, TaskRun row, QObject *parent = nullptr);
    ~OfferedTaskExecutor() override;

    qint64 taskRunId() const { return m_row.id; }
    const TaskRun &row() const { return m_row; }

    void start() override;
    // Withdrawn while no engine has claimed it, else its worker is asked to stop it.
    void stop(RunState reason) override;
    // The run is another engine's now: ends here without a word to the store.
    void abandon();
    // A stop asked for but not yet written (the store was away): the board asks again.
    std::optional<RunState> unsentStop() const { return m_stopSent ? std::nullopt : m_stop; }
    void stopSent() { m_stopSent = true; }

    // What the board read of the attempt's row: a worker claimed it (rowChanged), or it ended.
    void seen(const TaskRun &row);
    // The end came from the row (written by the worker, recovery or a withdrawal): the run's
    // engine records nothing more about the attempt.
    bool endWritten() const { return m_endWritten; }

Q_SIGNALS:
    void rowChanged(const hg::TaskRun &row);

private:
    QPointer<OfferBoard> m_board; // deleted later than its engine, possibly
    TaskRun m_row;
    std::optional<RunState> m_stop;
    bool m_stopSent = false;
    bool m_endWritten = false;
};

} // namespace hg
