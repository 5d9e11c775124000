#include "statepresentation.h"

#include "base/terminaltext.h"
#include "domain/desktoptriggerspec.h"

#include <QGuiApplication>
#include <QPalette>

namespace hg {

QString StatePresentation::label(RunState state)
{
    switch (state) {
    case RunState::Queued:
        return tr("queued");
    case RunState::Waiting:
        return tr("waiting");
    case RunState::Running:
        return tr("running");
    case RunState::Paused:
        return tr("paused");
    case RunState::Succeeded:
        return tr("succeeded");
    case RunState::Failed:
        return tr("failed");
    case RunState::Cancelled:
        return tr("cancelled");
    case RunState::TimedOut:
        return tr("timed out");
    case RunState::Interrupted:
        return tr("interrupted");
    }
    return {};
}

QString StatePresentation::label(std::optional<RunState> state)
{
    return state ? label(*state) : tr("never ran");
}

QString StatePresentation::label(RunTrigger trigger)
{
    switch (trigger) {
    case RunTrigger::Schedule:
        return tr("schedule");
    case RunTrigger::Manual:
        return tr("manual");
    case RunTrigger::Rerun:
        return tr("rerun");
    case RunTrigger::Backfill:
        return tr("backfill");
    case RunTrigger::Subchain:
        return tr("subchain");
    case RunTrigger::Trigger:
        return tr("trigger");
    }
    return {};
}

QString StatePresentation::triggerText(const Run &run)
{
    const QString upstream = run.parameters.value(QLatin1String("trigger.upstream_run")).toString();
    const QString path = run.parameters.value(QLatin1String("trigger.path")).toString();
    if (run.trigger == RunTrigger::Trigger && upstream.isEmpty() && !path.isEmpty())
        return fileTriggerText(run);
    if (run.trigger == RunTrigger::Trigger
        && run.parameters.contains(QLatin1String("trigger.hook")))
        return tr("webhook, delivery %1")
            .arg(terminaltext::escaped(
                run.parameters.value(QLatin1String("trigger.delivery")).toString().left(80)));
    if (run.trigger == RunTrigger::Trigger && upstream.isEmpty())
        if (const std::optional<DesktopEvent> event = enumFromString<DesktopEvent>(
                run.parameters.value(QLatin1String("trigger.event")).toString()))
            return DesktopTriggerSpec::describe(
                *event,
                run.parameters.value(QLatin1String("trigger.idle_ms")).toString().toLongLong());
    if (run.trigger != RunTrigger::Trigger || upstream.isEmpty())
        return label(run.trigger);
    const std::optional<RunState> state = enumFromString<RunState>(
        run.parameters.value(QLatin1String("trigger.upstream_state")).toString());
    return tr("after run %1 of %2 %3")
        .arg(upstream,
             terminaltext::escaped(
                 run.parameters.value(QLatin1String("trigger.upstream_chain")).toString()),
             state ? label(*state) : tr("ended"));
}

QString StatePresentation::fileTriggerText(const Run &run)
{
    const auto parameter = [&run](const char *key) {
        return run.parameters.value(QLatin1String(key)).toString();
    };
    const bool missed = !parameter("trigger.missed").isEmpty();
    const int count = parameter("trigger.count").toInt();
    const int gathered = parameter("trigger.gathered").toInt();
    QString text;
    if (count > 0 && gathered > 0)
        text = tr("%n file(s), %1 gathered by the storm guard", nullptr, count).arg(gathered);
    else if (count > 0)
        text = tr("%n file(s) at once", nullptr, count);
    else
        text = tr("file %1 %2")
                   .arg(terminaltext::escaped(parameter("trigger.path")),
                        parameter("trigger.event") == QLatin1String("moved")
                            ? tr("moved in")
                            : fileEventLabel(parameter("trigger.event")));
    return missed ? tr("%1 (while no engine watched)").arg(text) : text;
}

QString StatePresentation::fileEventLabel(const QString &event)
{
    if (event == QLatin1String("created"))
        return tr("created");
    if (event == QLatin1String("modified"))
        return tr("modified");
    if (event == QLatin1String("deleted"))
        return tr("deleted");
    return terminaltext::escaped(event);
}

QColor StatePresentation::fill(std::optional<RunState> state)
{
    if (!state)
        return QColor(0xe8, 0xea, 0xed); // never ran
    switch (*state) {
    case RunState::Succeeded:
        return QColor(0x9b, 0xd7, 0x9f);
    case RunState::Failed:
    case RunState::TimedOut:
        return QColor(0xf2, 0x8b, 0x82);
    case RunState::Running:
        return QColor(0x8a, 0xb4, 0xf8);
    case RunState::Paused:
    case RunState::Waiting:
    case RunState::Queued:
        return QColor(0xfd, 0xd6, 0x63);
    case RunState::Cancelled:
    case RunState::Interrupted:
        return QColor(0xbd, 0xc1, 0xc6);
    }
    return {};
}

bool StatePresentation::darkPalette()
{
    if (!qobject_cast<QGuiApplication *>(QCoreApplication::instance()))
        return false;
    return QGuiApplication::palette().color(QPalette::Window).lightness() < 128;
}

QColor StatePresentation::text(RunState state)
{
    // Darker tones on a light window, lighter ones on a dark one: both keep a readable contrast.
    const bool dark = darkPalette();
    switch (state) {
    case RunState::Succeeded:
        return dark ? QColor(0x81, 0xc7, 0x84) : QColor(0x2e, 0x7d, 0x32);
    case RunState::Failed:
    case RunState::TimedOut:
    case RunState::Interrupted:
        return errorText();
    case RunState::Running:
        return dark ? QColor(0x90, 0xca, 0xf9) : QColor(0x15, 0x65, 0xc0);
    case RunState::Cancelled:
    case RunState::Paused:
        return dark ? QColor(0xb0, 0xb0, 0xb0) : QColor(0x6d, 0x6d, 0x6d);
    case RunState::Queued:
    case RunState::Waiting:
        break;
    }
    return {};
}

QColor StatePresentation::errorBackground()
{
    return darkPalette() ? QColor(0x5c, 0x1f, 0x1f) : QColor(0xfc, 0xe8, 0xe6);
}

QColor StatePresentation::errorText()
{
    return darkPalette() ? QColor(0xef, 0x9a, 0x9a) : QColor(0xc6, 0x28, 0x28);
}

} // namespace hg
