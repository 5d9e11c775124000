#pragma once

#include "dstpolicy.h"

#include <QCoreApplication>
#include <QList>
#include <QString>

namespace hg {

class CronExpression;
class ZoneRules;

// What the DST changes in a stretch of time do to one cron expression under its policy, said
// in a sentence per change, for the schedule dialog's preview and `hourglass schedule next`.
// A change whose skipped or repeated wall times the expression never matches is left out.
class DstEffect final
{
    Q_DECLARE_TR_FUNCTIONS(hg::DstEffect)

public:
    struct Change
    {
        qint64 atUtc = 0; // the instant the clocks change, seconds since the epoch
        bool springForward = false;
        QList<qint64> wallTimes; // the matches the change skips or repeats (local, naive s)
        QString description;     // "Sun 29 Mar 2026: the clocks go forward from 02:00 to ..."
    };

    // Changes in (fromUtc, toUtc].
    static QList<Change> between(const CronExpression &expression, const ZoneRules &zone,
                                 DstPolicy policy, qint64 fromUtc, qint64 toUtc);

private:
    static QString describe(const CronExpression &expression, DstPolicy policy,
                            const Change &change, qint64 fromLocal, qint64 toLocal);
};

} // namespace hg
