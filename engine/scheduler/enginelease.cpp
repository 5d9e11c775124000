#include "enginelease.h"

#include "base/epochtime.h"
#include "base/processinfo.h"
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
    if (m_store.backend() != StoreBackend::Sqlite) {
        const Result<EngineSession> acquired = registerSession(nowMs);
        if (!acquired)
            return acquired.error();
        m_fence = Fence{acquired->id, acquired->epoch};
        return {};
    }
    // One engine per file, whatever its name (the GUI's and serve's engines are both named
    // after the host unless told otherwise). The check and the registration are one write
    // transaction: read before it, two engines starting at once both found the file free and
    // both served it, and the engine of a `run --wait` waited for good for a run `serve` had
    // claimed.
    Result<EngineSession> acquired = Error::runtime(QString());
    const Status done = m_store.transaction([&]() -> Status {
        const Result<QList<EngineSession>> live = sessions.live(utcFromMs(nowMs));
        if (!live)
            return live.error();
        if (!live->isEmpty())
            return Error::exists(tr("another engine already serves %1: %2")
                                     .arg(m_store.location().displayName(),
                                          EngineSessionRepository::describe(live->constFirst())));
        acquired = registerSession(nowMs);
        return acquired ? Status{} : Status(acquired.error());
    });
    if (!done)
        return done;
    m_fence = Fence{acquired->id, acquired->epoch};
    return {};
}

Result<EngineSession> EngineLease::registerSession(qint64 nowMs)
{
    EngineSession session;
    session.name = m_options.name;
    session.host = QSysInfo::machineHostName();
    session.pid = QCoreApplication::applicationPid();
    session.process = processinfo::identity(session.pid);
    session.capacity = m_options.capacity;
    session.leaseUntil = utcFromMs(nowMs + m_options.leaseMs);
    return EngineSessionRepository(m_store).acquire(session, utcFromMs(nowMs));
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
