#include "dsteffect.h"

#include "cronexpression.h"
#include "zonerules.h"

#include <QDateTime>
#include <QLocale>
#include <QStringList>
#include <QTimeZone>

namespace hg {
namespace {

// A naive local time (seconds as if local time were UTC) as the wall clock shows it.
QString wallClock(qint64 naive)
{
    const QDateTime at = QDateTime::fromSecsSinceEpoch(naive, QTimeZone::utc());
    return at.time().second() == 0 ? at.toString(QStringLiteral("HH:mm"))
                                   : at.toString(QStringLiteral("HH:mm:ss"));
}

QString wallDay(qint64 naive)
{
    return QLocale().toString(QDateTime::fromSecsSinceEpoch(naive, QTimeZone::utc()).date(),
                              QStringLiteral("ddd d MMM yyyy"));
}

} // namespace

QList<DstEffect::Change> DstEffect::between(const CronExpression &expression, const ZoneRules &zone,
                                            DstPolicy policy, qint64 fromUtc, qint64 toUtc)
{
    QList<Change> changes;
    if (expression.kind() != CronExpression::Kind::Cron || toUtc <= fromUtc)
        return changes;
    for (qsizetype i = std::max<qsizetype>(1, zone.periodIndexAt(fromUtc)); i < zone.periodCount();
         ++i) {
        const ZoneRules::Period &p = zone.period(i);
        if (p.start > toUtc)
            break;
        const int before = zone.period(i - 1).offset;
        if (p.start <= fromUtc || p.offset == before)
            continue;
        Change change;
        change.atUtc = p.start;
        change.springForward = p.offset > before;
        // Spring forward: [start + before, start + offset) never happens. Fall back:
        // [start + offset, start + before) happens twice.
        const qint64 fromLocal = p.start + std::min(before, p.offset);
        const qint64 toLocal = p.start + std::max(before, p.offset);
        for (auto match = expression.nextNaive(fromLocal - 1); match && *match < toLocal;
             match = expression.nextNaive(*match))
            change.wallTimes << *match;
        if (change.wallTimes.isEmpty())
            continue;
        change.description = describe(expression, policy, change, fromLocal, toLocal);
        changes << change;
    }
    return changes;
}

QString DstEffect::describe(const CronExpression &expression, DstPolicy policy,
                            const Change &change, qint64 fromLocal, qint64 toLocal)
{
    QStringList shown;
    for (qsizetype i = 0; i < std::min<qsizetype>(4, change.wallTimes.size()); ++i)
        shown << wallClock(change.wallTimes.at(i));
    QString times = shown.join(QStringLiteral(", "));
    if (change.wallTimes.size() > shown.size())
        times =
            tr("%1 and %n more", nullptr, int(change.wallTimes.size() - shown.size())).arg(times);
    if (change.springForward) {
        const QString head = tr("%1: the clocks go forward from %2 to %3")
                                 .arg(wallDay(fromLocal), wallClock(fromLocal), wallClock(toLocal));
        switch (expression.gapRule(policy)) {
        case CronExpression::GapRule::RunAfter:
            return tr("%1; the gap takes %2: the schedule runs once at %3 instead")
                .arg(head, times, wallClock(toLocal));
        case CronExpression::GapRule::Skip:
            return policy.isCronie()
                       ? tr("%1; the gap takes %2: skipped, as cronie skips a wildcard job's "
                            "times")
                             .arg(head, times)
                       : tr("%1; the gap takes %2: skipped").arg(head, times);
        case CronExpression::GapRule::Slots:
            return tr("%1; the gap takes %2: each runs right after it, from %3, as cronie runs a "
                      "fixed-time job's times")
                .arg(head, times, wallClock(toLocal));
        }
    }
    const QString head = tr("%1: the clocks go back from %2 to %3")
                             .arg(wallDay(fromLocal), wallClock(toLocal), wallClock(fromLocal));
    return expression.repeatsInOverlap(policy)
               ? tr("%1; these times come twice: %2; the schedule runs both times").arg(head, times)
               : tr("%1; these times come twice: %2; the schedule runs the first time only")
                     .arg(head, times);
}

} // namespace hg
