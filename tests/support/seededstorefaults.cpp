#include "seededstorefaults.h"

namespace hg::test {

SeededStoreFaults::SeededStoreFaults(quint32 seed, const Rates &rates, const Store *target)
    : m_random(seed)
    , m_rates(rates)
    , m_target(target)
{
    if (m_rates.everyNthStatement > 0)
        m_nextFailure = 1 + int(m_random.bounded(m_rates.everyNthStatement));
    install(this);
}

SeededStoreFaults::~SeededStoreFaults()
{
    if (installed() == this)
        install(nullptr);
}

SeededStoreFaults::Counts SeededStoreFaults::counts() const
{
    const QMutexLocker lock(&m_mutex);
    return m_counts;
}

bool SeededStoreFaults::failStatement(const Store &store, const QString & /*sql*/)
{
    if (&store != m_target)
        return false;
    const QMutexLocker lock(&m_mutex);
    ++m_counts.statements;
    if (m_rates.everyNthStatement <= 0 || m_counts.statements < m_nextFailure)
        return false;
    m_nextFailure += m_rates.everyNthStatement;
    ++m_counts.failedStatements;
    return true;
}

StoreFaultHook::CommitFault SeededStoreFaults::commitFault(const Store &store)
{
    if (&store != m_target)
        return CommitFault::None;
    const QMutexLocker lock(&m_mutex);
    ++m_counts.commits;
    const double draw = m_random.generateDouble();
    if (draw < m_rates.refusedCommits) {
        ++m_counts.refusedCommits;
        return CommitFault::Refuse;
    }
    if (draw < m_rates.refusedCommits + m_rates.ambiguousCommits) {
        ++m_counts.ambiguousCommits;
        return CommitFault::CommitThenReport;
    }
    return CommitFault::None;
}

} // namespace hg::test
