#pragma once

#include "domain/run.h"
#include "runcounts.h"

#include <QObject>
#include <QSet>

namespace hg {

class EngineHost;

// The one count of active, queued and failed runs, kept from the engine's run events. The
// status bar and the tray both show it, so they can never disagree. Lives in the GUI thread;
// the engine's events arrive queued.
class RunCounter final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RunCounter)

public:
    explicit RunCounter(QObject *parent = nullptr);

    RunCounts counts() const { return m_counts; }
    // Counts the runs of this host's engine from now on.
    void follow(const EngineHost *host);

public Q_SLOTS:
    void applyRun(const hg::Run &run);

Q_SIGNALS:
    // Only when a count changed, not on every event.
    void countsChanged(const hg::RunCounts &counts);

private:
    QSet<qint64> m_active;
    QSet<qint64> m_queued;
    RunCounts m_counts;
};

} // namespace hg
