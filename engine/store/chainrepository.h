#pragma once

#include "base/result.h"
#include "domain/chain.h"
#include "domain/chainpath.h"

#include <QCoreApplication>
#include <QList>

#include <optional>

namespace hg {

class Store;

class ChainRepository final
{
    Q_DECLARE_TR_FUNCTIONS(hg::ChainRepository)

public:
    explicit ChainRepository(Store &store)
        : m_store(store)
    {}

    // chain.projectId must be set; the name must be unused within that project.
    Result<Chain> add(const Chain &chain);
    Status update(const Chain &chain);
    Result<Chain> byId(qint64 id) const;
    Result<Chain> byPath(const ChainPath &path) const;
    // "PROJECT/CHAIN" as typed by a user.
    Result<Chain> byPath(const QString &text) const;
    Result<QList<Chain>> list(std::optional<qint64> projectId = std::nullopt) const;
    Status remove(qint64 id);
    // "project/chain" for messages and listings.
    Result<ChainPath> pathOf(qint64 chainId) const;
    // The paths of many chains in one statement; an id not found (removed) is left out.
    Result<QHash<qint64, ChainPath>> pathsOf(const QList<qint64> &chainIds) const;

private:
    Store &m_store;
};

} // namespace hg
