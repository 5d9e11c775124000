#pragma once

#include "store/storefaulthook.h"

#include <QMutex>
#include <QRandomGenerator>

namespace hg::test {

// The store fails on purpose, reproducibly from a seed, and only the one store it targets (the
// engine's), so the test's own connection reads the truth. Installed from construction to
// destruction.
class SeededStoreFaults final : public StoreFaultHook
{
public:
    struct Rates
    {
        int everyNthStatement = 0;   // 0: none; else one statement in N, from a seeded offset
        double refusedCommits = 0;   // share of commits rolled back and reported as failed
        double ambiguousCommits = 0; // share of commits made and yet reported as failed
    };
    struct Counts
    {
        int statements = 0;
        int failedStatements = 0;
        int commits = 0;
        int refusedCommits = 0;
        int ambiguousCommits = 0;
    };

    SeededStoreFaults(quint32 seed, const Rates &rates, const Store *target);
    ~SeededStoreFaults() override;
    Q_DISABLE_COPY_MOVE(SeededStoreFaults)

    Counts counts() const;

    bool failStatement(const Store &store, const QString &sql) override;
    CommitFault commitFault(const Store &store) override;

private:
    mutable QMutex m_mutex;
    QRandomGenerator m_random;
    Rates m_rates;
    const Store *m_target;
    int m_nextFailure = 0;
    Counts m_counts;
};

} // namespace hg::test
