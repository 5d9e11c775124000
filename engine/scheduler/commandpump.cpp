#include "commandpump.h"

#include "store/commandrepository.h"

#include <QJsonArray>

namespace hg {

int CommandPump::pump()
{
    CommandRepository commands(m_store);
    int applied = 0;
    while (applied < batchLimit) {
        const Result<std::optional<Command>> next =
            commands.claimNext(m_engineName, m_sessionId, m_ownRunsOnly);
        if (!next || !next.value())
            break;
        (void)commands.complete(next.value()->id, apply(*next.value()));
        ++applied;
    }
    return applied;
}

QString CommandPump::apply(const Command &command) const
{
    switch (command.kind) {
    case CommandKind::Start:
    case CommandKind::Rerun:
    case CommandKind::Backfill:
        m_handlers.admit(command.runId, std::nullopt);
        return {};
    case CommandKind::RerunFailed: {
        QSet<qint64> only;
        for (const QJsonValue id : command.payload.value(QStringLiteral("tasks")).toArray())
            only.insert(id.toInteger());
        m_handlers.admit(command.runId, only);
        return {};
    }
    case CommandKind::Stop:
        if (!m_handlers.stop(command.runId))
            return QStringLiteral("run %1 is not active").arg(command.runId);
        return {};
    case CommandKind::Pause:
        if (!m_handlers.pause(command.runId))
            return QStringLiteral("run %1 is not running").arg(command.runId);
        return {};
    case CommandKind::Resume:
        if (!m_handlers.resume(command.runId))
            return QStringLiteral("run %1 is not running").arg(command.runId);
        return {};
    }
    return {};
}

} // namespace hg
