#pragma once

#include "base/result.h"
#include "domain/run.h"

#include <QCoreApplication>
#include <QString>

namespace hg {

class Store;

// The child run a SUBCHAIN task starts: a run of the chain at PROJECT/CHAIN, with its
// parent's logical time and parameters. Refused when the chain is one of the parent run's
// ancestors (including the parent's own chain), since such a chain would start itself
// forever; the error names the whole lineage, oldest first ("subchain cycle: p/a → p/b → p/a").
class SubchainLineage final
{
    Q_DECLARE_TR_FUNCTIONS(hg::SubchainLineage)

public:
    explicit SubchainLineage(Store &store)
        : m_store(store)
    {}

    // The run to insert (no id yet).
    Result<Run> childRun(const QString &path, const Run &parentRun) const;

private:
    Store &m_store;
};

} // namespace hg
