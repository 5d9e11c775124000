#pragma once

#include "base/result.h"
#include "domain/connectionprofile.h"

class QString;

namespace hg {

class RemoteDatabase;

// The calling thread's open connections to remotes, kept for the next job on that thread
// (the GUI's remote pages read through QtConcurrent's pool). Opening one costs a connect, its
// authentication (and TLS on a real network) and a backend's cold caches every time: on
// loopback a workflow page's sorted read took 110-165 ms on a fresh connection and 50-60 ms on
// a warm one. A kept connection is checked before it is handed out: alive, and outside any
// transaction (a job that left one open would otherwise lend it to the next); one that fails
// the check is closed and a new one opened. They close when their thread ends (QThreadPool
// retires idle threads after 30 s), in that thread, as Qt Sql connections must.
class RemoteConnectionCache final
{
public:
    // A connection for PROFILE with PASSWORD, owned by the cache; valid in this thread until
    // its next acquire() for the same profile.
    static Result<RemoteDatabase *> acquire(const ConnectionProfile &profile,
                                            const QString &password);
};

} // namespace hg
