#pragma once

#include "base/result.h"

#include <QCoreApplication>
#include <QSet>

namespace hg {

class Store;

// The change feed (table definition_change, written by store triggers): which chains a
// change to chains, tasks, dependencies or schedules touched, by definition revision. An
// engine that has seen revision R reads what came after and reloads those chains alone.
class DefinitionChangeRepository final
{
    Q_DECLARE_TR_FUNCTIONS(hg::DefinitionChangeRepository)

public:
    explicit DefinitionChangeRepository(Store &store)
        : m_store(store)
    {}

    struct Changes
    {
        qint64 revision = 0;   // the store's revision these changes bring a reader to
        bool complete = true;  // false: the feed was pruned past the reader; reload everything
        QSet<qint64> chainIds; // the chains whose definitions changed
    };

    // What changed after revision `after`, read in one statement (one snapshot).
    Result<Changes> since(qint64 after) const;
    Result<qint64> revision() const;
    // Drops what changed more than keepMs ago; a reader that far behind reloads everything.
    Result<int> prune(qint64 keepMs);

private:
    Store &m_store;
};

} // namespace hg
