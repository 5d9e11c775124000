#include "concurrencyrule.h"

namespace hg {

ConcurrencyRule ConcurrencyRule::normalized() const
{
    return maxInstances <= 0 ? ConcurrencyRule{0, OverlapPolicy::Queue} : *this;
}

QString ConcurrencyRule::label() const
{
    const ConcurrencyRule rule = normalized();
    if (rule.maxInstances == 0)
        return tr("run beside it");
    if (rule.maxInstances == 1)
        return rule.overlap == OverlapPolicy::Queue ? tr("wait for it, then run")
                                                    : tr("skip this one");
    return rule.overlap == OverlapPolicy::Queue
               ? tr("run up to %n at once, then wait", nullptr, rule.maxInstances)
               : tr("run up to %n at once, then skip", nullptr, rule.maxInstances);
}

int ConcurrencyRule::key() const
{
    const ConcurrencyRule rule = normalized();
    return rule.maxInstances * 2 + (rule.overlap == OverlapPolicy::Skip ? 1 : 0);
}

ConcurrencyRule ConcurrencyRule::fromKey(int key)
{
    return ConcurrencyRule{key / 2, key % 2 == 1 ? OverlapPolicy::Skip : OverlapPolicy::Queue}
        .normalized();
}

} // namespace hg
