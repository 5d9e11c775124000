#pragma once

#include "base/result.h"

#include <QCoreApplication>

#include <optional>

namespace hg {

class Store;

// Idempotency keys of API requests (and webhook deliveries): the first request with a key
// claims it in the transaction that makes its run; a repeat finds that run. Two engines
// answering one key at once: the second waits for the first's commit (the primary key) and
// then reads its run.
class ApiRequestKeyRepository final
{
    Q_DECLARE_TR_FUNCTIONS(hg::ApiRequestKeyRepository)

public:
    explicit ApiRequestKeyRepository(Store &store)
        : m_store(store)
    {}

    // Keys are kept this long, then forgotten (a repeat after that makes a new run).
    static constexpr qint64 keptMs = 7LL * 24 * 3600 * 1000;

    // nullopt: claimed now (the caller makes the run and calls setRun in the same
    // transaction); a run id: the run an earlier request with this key made.
    Result<std::optional<qint64>> claim(const QString &scope, const QString &key, qint64 nowMs);
    Status setRun(const QString &scope, const QString &key, qint64 runId);
    Result<int> removeBefore(qint64 ms);
    // A key is 1 to 200 printable ASCII characters.
    static Status check(const QString &key);

private:
    Store &m_store;
};

} // namespace hg
