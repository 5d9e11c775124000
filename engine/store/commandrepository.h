#pragma once

#include "base/result.h"
#include "domain/command.h"

#include <QCoreApplication>
#include <QList>

#include <optional>

namespace hg {

class Store;

class CommandRepository final
{
    Q_DECLARE_TR_FUNCTIONS(hg::CommandRepository)

public:
    explicit CommandRepository(Store &store)
        : m_store(store)
    {}

    Result<Command> enqueue(const Command &command);
    // Atomically takes the oldest unclaimed command this engine may run; nullopt when none.
    // The oldest command for this engine. With a session id, a command about a run that
    // another session owns is left for that session (it runs the run).
    // ownRunsOnly: only commands about runs this session owns (the engine of one `run --wait`,
    // which must not take other runs' commands and leave them undone).
    Result<std::optional<Command>> claimNext(const QString &engineName, qint64 sessionId = 0,
                                             bool ownRunsOnly = false);
    // Marks a claimed command done; an empty error means it succeeded.
    Status complete(qint64 id, const QString &error = {});
    Result<Command> byId(qint64 id) const;
    Result<QList<Command>> pending() const;

private:
    Store &m_store;
};

} // namespace hg
