#pragma once

#include "importers/importeddefinitions.h"
#include "pgagenttypes.h"

#include <QCoreApplication>
#include <QSet>
#include <QTimeZone>

namespace hg {

struct ConnectionProfile;

// A pgAgent job as a local chain: enabled steps in the agent's order become tasks, each after
// the one before (SQL steps on the remote's own database run on that connection; batch steps
// are shell tasks); a step that fails the job is a success dependency, one whose failure
// pgAgent ignores or counts as success has ignore-error. Schedules become cron where they
// can, in the server's zone with their start and end; otherwise the report lists their next
// fire times.
class PgAgentConverter final
{
    Q_DECLARE_TR_FUNCTIONS(hg::PgAgentConverter)

public:
    static ImportedDefinitions toChain(const PgAgentJob &job, const ConnectionProfile &remote,
                                       const QTimeZone &serverZone, const QString &project,
                                       const QSet<QString> &takenChainNames);
};

} // namespace hg
