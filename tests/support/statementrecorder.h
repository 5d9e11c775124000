#pragma once

#include "store/storefaulthook.h"

#include <QMutex>
#include <QStringList>

namespace hg::test {

// Records the statements one store sends, failing none: what a repository asked for, to count
// its round trips or ask the database how it plans them. Installed from construction to
// destruction.
class StatementRecorder final : public StoreFaultHook
{
public:
    explicit StatementRecorder(const Store &target);
    ~StatementRecorder() override;
    Q_DISABLE_COPY_MOVE(StatementRecorder)

    QStringList statements() const;

    bool failStatement(const Store &store, const QString &sql) override;
    CommitFault commitFault(const Store &store) override;

private:
    const Store &m_target;
    mutable QMutex m_mutex;
    QStringList m_statements;
};

} // namespace hg::test
