#pragma once

#include "engine.h"

#include <QObject>
#include <QPointer>
#include <QThread>

#include <memory>

namespace hg {

class Clock;

// Runs an Engine in a thread of its own, for the GUI: the window's thread never waits for a
// store write or a process start. The engine opens its store connection in that thread (Qt
// Sql connections belong to the thread that opened them), so talk to it only through queued
// signals and QMetaObject::invokeMethod. Destroying the host stops the engine (its tasks are
// stopped: TERM, then KILL after the grace period), ends the thread and waits for it.
class EngineHost final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(EngineHost)

public:
    explicit EngineHost(EngineConfig config, std::shared_ptr<Clock> clock = {},
                        QObject *parent = nullptr);
    ~EngineHost() override;

    // Lives in the engine thread: connect to its signals, call its slots queued.
    Engine *engine() const { return m_engine; }
    QThread *thread() { return &m_thread; }

    void start();
    // Asks the engine to stop or to let its runs finish; stopped() follows.
    void shutdown(Engine::ExitPolicy policy);
    // Blocks until the engine thread has ended (after shutdown) or the timeout passes.
    bool waitForStopped(int timeoutMs);

Q_SIGNALS:
    void started();
    void startFailed(const QString &error);
    void stopped();

private:
    QThread m_thread;
    QPointer<Engine> m_engine; // deleted in its own thread when the thread finishes
    int m_graceMs = 0;
};

} // namespace hg
