#include "subchainlineage.h"

#include "domain/chainpath.h"
#include "store/chainrepository.h"
#include "store/runrepository.h"
#include "store/store.h"

namespace hg {

Result<Run> SubchainLineage::childRun(const QString &path, const Run &parentRun) const
{
    ChainRepository chains(m_store);
    const Result<Chain> chain = chains.byPath(path);
    if (!chain)
        return Error::invalid(tr("subchain %1: %2").arg(path, chain.error().message));
    QStringList lineage{path};
    RunRepository runs(m_store);
    for (Run ancestor = parentRun; ancestor.id > 0;) {
        const Result<ChainPath> ancestorPath = chains.pathOf(ancestor.chainId);
        lineage.prepend(ancestorPath ? ancestorPath->toString()
                                     : QString::number(ancestor.chainId));
        if (ancestor.chainId == chain->id)
            return Error::invalid(
                tr("subchain cycle: %1").arg(lineage.join(QStringLiteral(" → "))));
        if (ancestor.parentRunId == 0)
            break;
        const Result<Run> up = runs.byId(ancestor.parentRunId);
        if (!up)
            break;
        ancestor = up.value();
    }
    Run child;
    child.chainId = chain->id;
    child.parentRunId = parentRun.id;
    child.trigger = RunTrigger::Subchain;
    child.scheduledFor = parentRun.scheduledFor;
    child.parameters = parentRun.parameters;
    return child;
}

} // namespace hg
