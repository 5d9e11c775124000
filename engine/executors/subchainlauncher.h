#pragma once

#include "base/result.h"
#include "domain/enums.h"
#include "domain/run.h"

#include <QObject>

#include <functional>

namespace hg {

// What a SUBCHAIN task needs from the engine: start a child run, stop it, and hear when it
// ends. The engine fills in the functions and emits runEnded for every run that ends.
class SubchainLauncher final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SubchainLauncher)

public:
    using QObject::QObject;

    // Queues a run of the chain at `path` (PROJECT/CHAIN) as a child of `parent`; its id.
    std::function<Result<qint64>(const QString &path, const Run &parent)> launch;
    std::function<void(qint64 runId)> stop;

Q_SIGNALS:
    void runEnded(qint64 runId, hg::RunState state);
};

} // namespace hg
