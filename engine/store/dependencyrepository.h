#pragma once

#include "base/result.h"
#include "domain/dependency.h"

#include <QCoreApplication>
#include <QList>

namespace hg {

class Store;

class DependencyRepository final
{
    Q_DECLARE_TR_FUNCTIONS(hg::DependencyRepository)

public:
    explicit DependencyRepository(Store &store)
        : m_store(store)
    {}

    // Both tasks must belong to the chain; an edge that would close a cycle is refused with
    // the cycle named ("a → b → c → a").
    Status add(qint64 chainId, qint64 taskId, qint64 upstreamId, DependencyCondition condition);
    Status remove(qint64 taskId, qint64 upstreamId);
    Result<QList<Dependency>> list(qint64 chainId) const;

private:
    Store &m_store;
};

} // namespace hg
