#include "statementrecorder.h"

namespace hg::test {

StatementRecorder::StatementRecorder(const Store &target)
    : m_target(target)
{
    install(this);
}

StatementRecorder::~StatementRecorder()
{
    install(nullptr);
}

QStringList StatementRecorder::statements() const
{
    const QMutexLocker lock(&m_mutex);
    return m_statements;
}

bool StatementRecorder::failStatement(const Store &store, const QString &sql)
{
    if (&store == &m_target) {
        const QMutexLocker lock(&m_mutex);
        m_statements << sql;
    }
    return false;
}

StoreFaultHook::CommitFault StatementRecorder::commitFault(const Store &)
{
    return CommitFault::None;
}

} // namespace hg::test
