#include "occurrencepresentation.h"

#include "displayformat.h"
#include "statepresentation.h"

#include <QStringList>

#include <algorithm>
#include <limits>

namespace hg {

QString OccurrencePresentation::label(OccurrenceOutcome outcome)
{
    switch (outcome) {
    case OccurrenceOutcome::Ran:
        return tr("ran");
    case OccurrenceOutcome::SkippedOverlap:
        return tr("skipped (still running)");
    case OccurrenceOutcome::SkippedMisfire:
        return tr("skipped (too late)");
    case OccurrenceOutcome::Coalesced:
        return tr("coalesced");
    case OccurrenceOutcome::Missed:
        return tr("missed");
    case OccurrenceOutcome::Excluded:
        return tr("excluded");
    case OccurrenceOutcome::Paused:
        return tr("paused");
    case OccurrenceOutcome::SkippedOffline:
        return tr("skipped (no network)");
    }
    return {};
}

QString OccurrencePresentation::label(OccurrenceCause cause)
{
    switch (cause) {
    case OccurrenceCause::None:
        break;
    case OccurrenceCause::Down:
        return tr("while the engine was not running");
    case OccurrenceCause::Asleep:
        return tr("while the computer slept");
    case OccurrenceCause::ClockStep:
        return tr("when the clock was set");
    case OccurrenceCause::StoreLost:
        return tr("while the store could not be reached");
    case OccurrenceCause::Late:
        return tr("because the engine was late");
    case OccurrenceCause::Paused:
        return tr("while schedules or the trigger were paused");
    case OccurrenceCause::Batch:
        return tr("by the trigger's batch window");
    case OccurrenceCause::StormGuard:
        return tr("by the trigger's limit of runs a minute");
    }
    return {};
}

QString OccurrencePresentation::detail(const Occurrence &o)
{
    const QString when = DisplayFormat::dateTime(QDateTime::fromMSecsSinceEpoch(o.firstFireMs));
    const QString span =
        o.count > 1
            ? tr("%n fire times from %1 to %2", nullptr,
                 int(std::min<qint64>(o.count, std::numeric_limits<int>::max())))
                  .arg(when, DisplayFormat::dateTime(QDateTime::fromMSecsSinceEpoch(o.lastFireMs)))
            : when;
    if (o.triggerId > 0 && o.outcome != OccurrenceOutcome::Ran)
        return triggerDetail(o);
    switch (o.outcome) {
    case OccurrenceOutcome::Ran: {
        QString text =
            tr("%1: run %2, %3").arg(span).arg(o.runId).arg(StatePresentation::label(o.runState));
        if (o.latenessMs >= 0)
            text += tr(", started %1 late").arg(DisplayFormat::duration(o.latenessMs));
        if (o.durationMs >= 0)
            text += tr(", took %1").arg(DisplayFormat::duration(o.durationMs));
        return text;
    }
    case OccurrenceOutcome::SkippedOverlap:
        return tr("%1: skipped, the previous run still ran").arg(span);
    case OccurrenceOutcome::SkippedMisfire:
        return tr("%1: skipped by the misfire policy %2").arg(span, label(o.cause));
    case OccurrenceOutcome::Coalesced:
        return tr("%1: folded into run %2 (misfire policy once) %3")
            .arg(span)
            .arg(o.runId)
            .arg(label(o.cause));
    case OccurrenceOutcome::Missed:
        return tr("%1: missed %2").arg(span, label(o.cause)) + inboxText(o.inbox);
    case OccurrenceOutcome::Excluded:
        return tr("%1: excluded by the schedule's calendar").arg(span);
    case OccurrenceOutcome::Paused:
        return tr("%1: not run, schedules were paused").arg(span);
    case OccurrenceOutcome::SkippedOffline:
        return tr("%1: not run, the computer had no network (the chain needs one)").arg(span);
    }
    return span;
}

QString OccurrencePresentation::inboxText(InboxState inbox)
{
    switch (inbox) {
    case InboxState::Pending:
        return tr("; waiting in the missed-runs inbox");
    case InboxState::Run:
        return tr("; run from the inbox");
    case InboxState::Dismissed:
        return tr("; dismissed from the inbox");
    case InboxState::None:
        break;
    }
    return {};
}

QString OccurrencePresentation::triggerDetail(const Occurrence &o)
{
    // A trigger's row counts files; its times are when they were written.
    QString when = DisplayFormat::dateTime(QDateTime::fromMSecsSinceEpoch(o.firstFireMs));
    if (o.lastFireMs != o.firstFireMs)
        when =
            tr("%1 to %2")
                .arg(when, DisplayFormat::dateTime(QDateTime::fromMSecsSinceEpoch(o.lastFireMs)));
    const int files = int(std::min<qint64>(o.count, std::numeric_limits<int>::max()));
    const QString what =
        o.detail.isEmpty() ? tr("%n file(s), written %1", nullptr, files).arg(when)
                           : tr("%n file(s) (%1), written %2", nullptr, files).arg(o.detail, when);
    switch (o.outcome) {
    case OccurrenceOutcome::SkippedMisfire:
        return tr("%1: skipped by the misfire policy, arrived %2").arg(what, label(o.cause));
    case OccurrenceOutcome::Coalesced:
        return tr("%1: gathered into run %2 %3").arg(what).arg(o.runId).arg(label(o.cause));
    case OccurrenceOutcome::Missed:
        return tr("%1: arrived %2").arg(what, label(o.cause)) + inboxText(o.inbox);
    case OccurrenceOutcome::Ran:
    case OccurrenceOutcome::SkippedOverlap:
    case OccurrenceOutcome::Excluded:
    case OccurrenceOutcome::Paused:
    case OccurrenceOutcome::SkippedOffline:
        break;
    }
    return what;
}

QColor OccurrencePresentation::fill(const Occurrence &o)
{
    switch (o.outcome) {
    case OccurrenceOutcome::Ran:
        return StatePresentation::fill(o.runState);
    case OccurrenceOutcome::SkippedOverlap:
        return QColor(0xf6, 0xae, 0x2d); // amber: the chain cannot keep up
    case OccurrenceOutcome::SkippedMisfire:
        return QColor(0xe3, 0x74, 0x00);
    case OccurrenceOutcome::Coalesced:
        return QColor(0xa8, 0xc7, 0xfa);
    case OccurrenceOutcome::Missed:
        return o.inbox == InboxState::Pending ? QColor(0xc5, 0x22, 0x1f) : QColor(0x8c, 0x1d, 0x18);
    case OccurrenceOutcome::Excluded:
        return QColor(0xda, 0xdc, 0xe0);
    case OccurrenceOutcome::Paused:
        return QColor(0x9a, 0xa0, 0xa6);
    case OccurrenceOutcome::SkippedOffline:
        return QColor(0x6f, 0x86, 0x9c); // slate: the computer, not the chain
    }
    return {};
}

QHash<qint64, QString>
OccurrencePresentation::alertTexts(const QHash<qint64, QList<Alert>> &alertsByRun)
{
    QHash<qint64, QString> texts;
    for (auto it = alertsByRun.cbegin(); it != alertsByRun.cend(); ++it) {
        QStringList lines;
        for (const Alert &alert : it.value())
            lines << tr("Alert: %1").arg(alert.detail);
        texts.insert(it.key(), lines.join(QLatin1Char('\n')));
    }
    return texts;
}

} // namespace hg
