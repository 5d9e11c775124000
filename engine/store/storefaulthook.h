#pragma once

#include <QString>

namespace hg {

class Store;

// Where a test makes the store fail on purpose (tests/support/SeededStoreFaults): asked before
// every statement and at every commit. Nothing in the product installs one; with none
// installed, the cost is one atomic load per statement.
//
// An injected failure looks like a write refusal SQLite or a server really gives (a full disk,
// a busy file, a dropped connection): ErrorKind::Unavailable, which the engine holds and
// retries, so a test exercises the same paths a real fault takes.
class StoreFaultHook
{
public:
    enum class CommitFault {
        None,
        Refuse,           // rolled back, reported as failed
        CommitThenReport, // committed, yet reported as failed (the ambiguous commit)
    };

    virtual ~StoreFaultHook() = default;
    // True: the statement is not run and fails as refused (one without a savepoint of its own
    // takes its PostgreSQL transaction with it, as the server's refusal would).
    virtual bool failStatement(const Store &store, const QString &sql) = 0;
    virtual CommitFault commitFault(const Store &store) = 0;

    // Process-wide (the engine's store lives on another thread than a test's): nullptr
    // removes it. The hook must outlive its installation and be safe to call from any thread.
    static void install(StoreFaultHook *hook);
    static StoreFaultHook *installed();
};

} // namespace hg
