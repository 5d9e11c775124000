#include "enginelease.h"

#include "base/epochtime.h"
#include "store/enginesessionrepository.h"
#include "store/store.h"

#include <QCoreApplication>
#include <QSysInfo>

namespace hg {

EngineLease::~EngineLease()
{
    release();
}

Status EngineLease::acquire(qint64 engineNowMs)
{
    EngineSessionRepository sessions(m_store);
    const Result<qint64> clock = sessions.clockMs(engineNowMs);
    if (!clock)
        return clock.error();
    const qint64 nowMs = clock.value();
    if (m_store.backend() == StoreBackend::Sqlite) {
        const Result<QList<EngineSession>> live = sessions.live(utcFromMs(nowMs));
        if (!live)
            return live.error();
        // Whatever its name: one engine per file. (The GUI's and serve's engines are both
        // named after the host unless told otherwise.)
        if (!live->isEmpty())
            return Error::exists(tr("another engine already serves %1: %2")
                                     .arg(m_store.location().displayName(),
                                          EngineSessionRepository::describe(live->constFirst())));
    }
    EngineSession session;
    session.name = m_options.name;
    session.host = QSysInfo::machineHostName();
    session.pid = QCoreApplication::applicationPid();
    session.capacity = m_options.capacity;
    session.leaseUntil = utcFromMs(nowMs + m_options.leaseMs);
    const Result<EngineSession> acquired = sessions.acquire(session, utcFromMs(nowMs));
    if (!acquired)
        return acquired.error();
    m_fence = Fence{acquired->id, acquired->epoch};
    return {};
}

Status EngineLease::heartbeat(qint64 engineNowMs, int load)
{
    EngineSessionRepository sessions(m_store);
    const Result<qint64> clock = sessions.clockMs(engineNowMs);
    if (!clock)
        return clock.error();
    const qint64 nowMs = clock.value();
    const Status beat = sessions.heartbeat(m_fence.sessionId, utcFromMs(nowMs),
                                           utcFromMs(nowMs + m_options.leaseMs), load);
    if (!beat && beat.error().kind == ErrorKind::NotFound)
        return Error::fenced(beat.error().message);
    return beat;
}

void EngineLease::release()
{
    if (m_fence.isHeld() && m_store.isReachable())
        (void)EngineSessionRepository(m_store).release(m_fence.sessionId);
    m_fence = {};
}

} // namespace hg
