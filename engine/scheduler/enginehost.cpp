#include "enginehost.h"

#include "clock.h"

namespace hg {

EngineHost::EngineHost(EngineConfig config, std::shared_ptr<Clock> clock, QObject *parent)
    : QObject(parent)
    , m_graceMs(config.graceMs)
{
    m_thread.setObjectName(QStringLiteral("hourglass-engine"));
    m_engine = new Engine(std::move(config), std::move(clock));
    m_engine->moveToThread(&m_thread);
    // QThread deletes deferred objects as it finishes, so the engine (its timers, its store
    // connection, its processes) goes away in the thread that owns it.
    connect(&m_thread, &QThread::finished, m_engine, &QObject::deleteLater);
    connect(m_engine, &Engine::started, this, &EngineHost::started);
    connect(m_engine, &Engine::startFailed, this, &EngineHost::startFailed);
    connect(m_engine, &Engine::stopped, this, &EngineHost::stopped);
    // Direct: quit() from the engine thread the moment the engine is done.
    connect(m_engine, &Engine::stopped, &m_thread, &QThread::quit, Qt::DirectConnection);
    connect(m_engine, &Engine::startFailed, &m_thread, &QThread::quit, Qt::DirectConnection);
    m_thread.start();
}

EngineHost::~EngineHost()
{
    if (m_thread.isRunning()) {
        shutdown(Engine::ExitPolicy::Stop);
        // Stopping sends TERM and, after the grace period, KILL: allow for both and a margin.
        if (!waitForStopped(m_graceMs + 5000)) {
            m_thread.quit(); // the engine's destructor kills what still runs
            m_thread.wait();
        }
    }
}

void EngineHost::start()
{
    QMetaObject::invokeMethod(m_engine, &Engine::start, Qt::QueuedConnection);
}

void EngineHost::shutdown(Engine::ExitPolicy policy)
{
    Engine *engine = m_engine;
    QThread *thread = &m_thread;
    QMetaObject::invokeMethod(
        engine,
        [engine, thread, policy] {
            if (engine->isRunning())
                engine->shutdown(policy);
            else
                thread->quit(); // never started (or failed to): nothing to stop
        },
        Qt::QueuedConnection);
}

bool EngineHost::waitForStopped(int timeoutMs)
{
    return m_thread.wait(QDeadlineTimer(timeoutMs));
}

} // namespace hg
