#pragma once

#include "domain/occurrence.h"

#include <QCoreApplication>
#include <QList>
#include <QMap>

namespace hg {

class SchedulePlan;

// How often a schedule really ran over a span of time beside how often it is configured to,
// and the outcome that made the difference: "configured every 20 s; effective every 1 min
// over the last hour: runs take 45 s and the overlap policy skips".
class EffectiveCadence final
{
    Q_DECLARE_TR_FUNCTIONS(hg::EffectiveCadence)

public:
    qint64 configuredMs = -1; // the median gap between fire times in the span; -1: under two
    qint64 effectiveMs = -1;  // the median gap between the runs made; -1: under two runs
    qint64 runs = 0;
    qint64 medianDurationMs = -1;
    QMap<OccurrenceOutcome, qint64> unrun; // fire times per outcome that made no run

    // occurrences: the schedule's ledger rows and runs in [fromMs, toMs], oldest first.
    static EffectiveCadence measure(const SchedulePlan &plan, const QList<Occurrence> &occurrences,
                                    qint64 fromMs, qint64 toMs);
    // spanText names the span: "over the last hour".
    QString describe(const QString &spanText) const;
};

} // namespace hg
