#pragma once

#include "domain/chaintrigger.h"

#include <QList>
#include <QObject>
#include <QSet>
#include <QTimer>

#include <functional>
#include <memory>

namespace hg {

class DesktopSignals;
class Store;

// The desktop triggers an engine watches: as file triggers (FileTriggerWatch), those of its
// enabled chains, not paused, on a shared store those whose chain names this engine. An
// event starts a run of each trigger that waits for it; an idle trigger fires once per idle
// period, when the session has been idle for its time. A run the store could not take (it
// was away) is tried again until it is written: an event is not lost to a store restart.
class DesktopTriggerWatch final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DesktopTriggerWatch)

public:
    DesktopTriggerWatch(Store &store, QString engineName, std::function<qint64()> wallMs,
                        QObject *parent = nullptr);
    ~DesktopTriggerWatch() override;

    void reload();
    // The engine saw a sleep in its clocks.
    void noteResumed(qint64 atMs);
    int watching() const { return int(m_triggers.size()); }

Q_SIGNALS:
    void runsStarted(int count);
    void noted(const QString &message);

private:
    struct Pending
    {
        ChainTrigger trigger;
        qint64 atMs = 0;
    };

    void happened(DesktopEvent event, qint64 atMs);
    void armIdle();
    void idleDue();
    void writePending();
    void updateNotes();

    Store &m_store;
    QString m_engineName;
    std::function<qint64()> m_wallMs;
    std::unique_ptr<DesktopSignals> m_signals; // made with the first trigger
    QList<ChainTrigger> m_triggers;
    QSet<qint64> m_idleFired; // idle triggers fired in this idle period
    QList<Pending> m_pending;
    QTimer m_idleTimer;
    QTimer m_retryTimer;
};

} // namespace hg
