#pragma once

#include "domain/enums.h"

#include <QCoreApplication>
#include <QString>

namespace hg {

// What a chain does when it is due while a run of it is still going: its max_instances with
// its overlap policy, as one choice in the chain editor. 0 instances means no limit (runs go
// side by side), where the overlap policy has no effect.
struct ConcurrencyRule
{
    Q_DECLARE_TR_FUNCTIONS(hg::ConcurrencyRule)

public:
    int maxInstances = 1;
    OverlapPolicy overlap = OverlapPolicy::Queue;

    // Unlimited rules compare equal whatever their (unused) overlap policy.
    ConcurrencyRule normalized() const;
    QString label() const;
    // A combo box key that round-trips through fromKey().
    int key() const;
    static ConcurrencyRule fromKey(int key);

    friend bool operator==(const ConcurrencyRule &a, const ConcurrencyRule &b)
    {
        return a.maxInstances == b.maxInstances && a.overlap == b.overlap;
    }
};

} // namespace hg
