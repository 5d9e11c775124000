#include "offeredtaskexecutor.h"

#include "offerboard.h"

namespace hg {

OfferedTaskExecutor::OfferedTaskExecutor(OfferBoard &board, TaskRun row, QObject *parent)
    : TaskExecutor(parent)
    , m_board(&board)
    , m_row(std::move(row))
{}

OfferedTaskExecutor::~OfferedTaskExecutor()
{
    if (m_board)
        m_board->forget(m_row.id);
}

void OfferedTaskExecutor::start()
{
    if (m_board)
        m_board->watch(this);
}

void OfferedTaskExecutor::stop(RunState reason)
{
    if (outcomeDelivered() || m_stop)
        return;
    m_stop = reason;
    if (m_board)
        m_board->stop(this);
}

void OfferedTaskExecutor::abandon()
{
    if (m_board)
        m_board->forget(m_row.id);
    deliverOutcome(TaskOutcome{RunState::Interrupted, std::nullopt,
                               QStringLiteral("the run was taken over by another engine")});
}

void OfferedTaskExecutor::seen(const TaskRun &row)
{
    if (outcomeDelivered())
        return;
    const bool changed =
        row.state != m_row.state || row.pid != m_row.pid || row.workerName != m_row.workerName;
    m_row = row;
    if (isTerminal(row.state) || row.state == RunState::Interrupted) {
        m_endWritten = true;
        if (m_board)
            m_board->forget(row.id);
        deliverOutcome(TaskOutcome{row.state, row.exitCode, row.error});
        return;
    }
    if (changed)
        Q_EMIT rowChanged(m_row);
}

} // namespace hg
