#pragma once

#include "base/result.h"
#include "domain/enginesession.h"
#include "store/storelocation.h"

#include <QCoreApplication>
#include <QList>

namespace hg {

class Store;

class EngineSessionRepository final
{
    Q_DECLARE_TR_FUNCTIONS(hg::EngineSessionRepository)

public:
    explicit EngineSessionRepository(Store &store)
        : m_store(store)
    {}

    // Takes the name for this engine. Refused (AlreadyExists) while another session of that
    // name still holds an unexpired lease; an expired one is replaced.
    Result<EngineSession> acquire(const EngineSession &session, const QDateTime &now);
    Status heartbeat(qint64 id, const QDateTime &now, const QDateTime &leaseUntil, int load);
    Status release(qint64 id);
    // The clock leases are judged by: the database's on PostgreSQL, where engines on several
    // machines (with clocks of their own) share the store; the engine's own on SQLite.
    Result<qint64> clockMs(qint64 engineNowMs) const;
    Result<QList<EngineSession>> list() const;
    // Sessions that still serve: an unexpired lease, and (on this host) a living process.
    // An engine killed with SIGKILL leaves its lease behind; it must not block a restart.
    Result<QList<EngineSession>> live(const QDateTime &now) const;
    // Live by the clock the leases were written by: the database's on PostgreSQL (a command
    // whose clock runs ahead took every engine for gone), this machine's on SQLite.
    Result<QList<EngineSession>> liveNow() const;
    // Some engine serves the store now (false too when that cannot be read).
    bool anyServes() const;
    // Whether a session still serves at `now` (by the clock its lease was written by). A
    // session of this machine whose process is gone does not. On SQLite one whose very process
    // still lives does, whatever its lease says: every engine of a SQLite file runs on the
    // file's machine and writes its lease by its own wall clock, so a clock stepped forward,
    // or a full disk that held up the renewal, made a live engine look gone and another took
    // its runs over. On PostgreSQL the lease decides (by the database's clock): an engine
    // stopped past its lease is fenced out, as engines on other machines are.
    static bool serves(const EngineSession &session, const QDateTime &now, StoreBackend backend);
    // A session of this machine whose process no longer runs (killed, crashed, its pid reused).
    static bool processGone(const EngineSession &session);
    // Who holds a session, for messages that must let a person find it: "'vm', pid 4242 on
    // vm (hourglass --db x.db serve), serving since 2024-05-01 12:03:04" -- the command line
    // only when the process runs on this machine.
    static QString describe(const EngineSession &session);
    // Sessions whose lease ran out before now: their engines are presumed dead.
    Result<QList<EngineSession>> expired(const QDateTime &now) const;

private:
    Store &m_store;
};

} // namespace hg
