#pragma once

#include "connectioncheck.h"
#include "domain/enums.h"

#include <QIcon>

#include <optional>

namespace hg {

// Small status icons drawn in the state palette (StatePresentation), for the tree and the
// tables: a chain's last result (a check, a cross, a running dot, a hollow ring for never
// ran), switched off (a slashed ring), and a project holding failed chains (a badge).
class StateIcon final
{
public:
    StateIcon() = delete;

    static QIcon forChain(std::optional<RunState> lastState, bool enabled);
    static QIcon forState(RunState state);
    static QIcon failureBadge();
    // A connection in the tree: being checked, connected, read-only, or failing.
    static QIcon forConnection(ConnectionCheck::State state);
};

} // namespace hg
