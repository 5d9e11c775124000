#pragma once

#include "base/result.h"
#include "domain/enums.h"
#include "domain/run.h"

#include <QCoreApplication>
#include <QJsonObject>

namespace hg {

class Store;

// What the command line and the GUI ask of an engine, written to the store: a run and the
// command that starts it, or a control command for a run. Any engine serving the store (in
// this process or another) consumes the commands.
class RunControl final
{
    Q_DECLARE_TR_FUNCTIONS(hg::RunControl)

public:
    explicit RunControl(Store &store)
        : m_store(store)
    {}

    // A manual run of the chain, queued with a start command.
    Result<Run> start(qint64 chainId, const QJsonObject &parameters = {});
    // The run row only (for a caller that runs it itself, as `run --wait` without an engine).
    Result<Run> createManual(qint64 chainId, const QJsonObject &parameters = {});
    // Stop, pause or resume an active run.
    Status control(CommandKind kind, qint64 runId);
    // A new run of an ended one; failedOnly: only the tasks that did not succeed (like
    // DolphinScheduler's start from the failed node).
    Result<Run> rerun(qint64 runId, bool failedOnly);
    Status enqueue(CommandKind kind, qint64 runId, const QJsonObject &payload = {});

private:
    Store &m_store;
};

} // namespace hg
