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

Status EngineLease::acquire(qint64 nowMs)
{
    EngineSessionRepository sessions(m_store);
    if (m_store.backend() == StoreBackend::Sqlite) {
        const Result<QList<EngineSession>> live = sessions.live(utcFromMs(nowMs));
        if (!live)
            return live.error();
        for (const EngineSession &session : live.value()) {
            if (session.name != m_options.name)
                return Error::exists(tr("another engine ('%1', pid %2 on %3) is "
                                        "already serving %4")
                                         .arg(session.name)
                                         .arg(session.pid)
                                         .arg(session.host, m_store.location().displayName()));
        }
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
    m_sessionId = acquired->id;
    return {};
}

bool EngineLease::heartbeat(qint64 nowMs, int load)
{
    const Status beat = EngineSessionRepository(m_store).heartbeat(
        m_sessionId, utcFromMs(nowMs), utcFromMs(nowMs + m_options.leaseMs), load);
    return beat || beat.error().kind != ErrorKind::NotFound;
}

void EngineLease::release()
{
    if (m_sessionId > 0)
        (void)EngineSessionRepository(m_store).release(m_sessionId);
    m_sessionId = 0;
}

} // namespace hg
