// How `trigger add` and `trigger list` say a trigger: one line, and its JSON.
#include "triggertext.h"

#include "base/terminaltext.h"
#include "scheduler/clockwatch.h"

#include <QJsonArray>

namespace hg::triggertext {
namespace {

// As ClockWatch says a length, but a settle time of 500 ms is not "1 s".
QString describeMs(qint64 ms)
{
    if (ms % 1000 != 0 && ms < 60'000)
        return QStringLiteral("%1 ms").arg(ms);
    return ClockWatch::describeLength(ms);
}

QString describeFile(const ChainTrigger &t)
{
    const FileTriggerSpec &f = t.file;
    QStringList events;
    for (const FileEvent event : f.events)
        events << (event == FileEvent::Moved ? QStringLiteral("moved in") : enumName(event));
    QString text = QStringLiteral("when files matching %1 are %2 (settled %3")
                       .arg(terminaltext::escaped(f.glob), events.join(QStringLiteral(", ")),
                            describeMs(f.settleMs));
    if (f.batchMs > 0)
        text += QStringLiteral("; one run for every file of %1")
                    .arg(ClockWatch::describeLength(f.batchMs));
    if (f.maxPerMinute > 0)
        text += QStringLiteral("; at most %1 runs a minute").arg(f.maxPerMinute);
    if (f.pollMs > 0)
        text += QStringLiteral("; polled every %1").arg(describeMs(f.pollMs));
    text += QStringLiteral("; arrivals while stopped: %1)").arg(enumName(f.misfire));
    return text;
}

QString describeDesktop(const DesktopTriggerSpec &d)
{
    switch (d.event) {
    case DesktopEvent::Unlock:
        return QStringLiteral("when the session is unlocked");
    case DesktopEvent::Resume:
        return QStringLiteral("when the machine wakes from sleep");
    case DesktopEvent::Network:
        return QStringLiteral("when the network comes up");
    case DesktopEvent::Idle:
        return QStringLiteral("when the session has been idle for %1")
            .arg(ClockWatch::describeLength(d.idleMs));
    case DesktopEvent::AcPower:
        return QStringLiteral("when the machine goes onto AC power");
    }
    return {};
}

} // namespace

QString describe(const ChainTrigger &t)
{
    if (t.kind == TriggerKind::File)
        return describeFile(t);
    if (t.kind == TriggerKind::Desktop)
        return describeDesktop(t.desktop);
    if (t.kind == TriggerKind::Webhook)
        return QStringLiteral("when a signed POST reaches %1").arg(t.webhook.path());
    QStringList upstreams;
    for (const ChainTrigger::Upstream &u : t.upstreams)
        upstreams << terminaltext::escaped(u.path);
    const QString state = enumName(t.on);
    if (t.upstreams.size() == 1)
        return QStringLiteral("when a run of %1 has %2").arg(upstreams.constFirst(), state);
    if (t.withinMs == 0)
        return QStringLiteral("when a run of any of %1 has %2")
            .arg(upstreams.join(QStringLiteral(", ")), state);
    return QStringLiteral("when runs of all of %1 have %2 within %3")
        .arg(upstreams.join(QStringLiteral(", ")), state, ClockWatch::describeLength(t.withinMs));
}

QJsonObject json(const ChainTrigger &t)
{
    if (t.kind == TriggerKind::Desktop) {
        QJsonObject object{{QStringLiteral("id"), t.id},
                           {QStringLiteral("chain"), t.path},
                           {QStringLiteral("kind"), enumName(t.kind)},
                           {QStringLiteral("desktop"), enumName(t.desktop.event)},
                           {QStringLiteral("paused"), t.paused},
                           {QStringLiteral("note"), t.watchNote},
                           {QStringLiteral("explained"), describe(t)}};
        if (t.desktop.event == DesktopEvent::Idle)
            object.insert(QStringLiteral("idleMs"), t.desktop.idleMs);
        return object;
    }
    if (t.kind == TriggerKind::Webhook)
        return {{QStringLiteral("id"), t.id},
                {QStringLiteral("chain"), t.path},
                {QStringLiteral("kind"), enumName(t.kind)},
                {QStringLiteral("hook"), t.webhook.path()},
                {QStringLiteral("headers"), QJsonArray::fromStringList(t.webhook.headers)},
                {QStringLiteral("paused"), t.paused},
                {QStringLiteral("explained"), describe(t)}};
    if (t.kind == TriggerKind::File) {
        QJsonArray events;
        for (const FileEvent event : t.file.events)
            events << enumName(event);
        return {{QStringLiteral("id"), t.id},
                {QStringLiteral("chain"), t.path},
                {QStringLiteral("kind"), enumName(t.kind)},
                {QStringLiteral("file"), t.file.glob},
                {QStringLiteral("events"), events},
                {QStringLiteral("settleMs"), t.file.settleMs},
                {QStringLiteral("batchMs"), t.file.batchMs},
                {QStringLiteral("maxPerMinute"), t.file.maxPerMinute},
                {QStringLiteral("pollMs"), t.file.pollMs},
                {QStringLiteral("misfire"), enumName(t.file.misfire)},
                {QStringLiteral("paused"), t.paused},
                {QStringLiteral("note"), t.watchNote},
                {QStringLiteral("explained"), describe(t)}};
    }
    QJsonArray upstreams;
    for (const ChainTrigger::Upstream &u : t.upstreams)
        upstreams << u.path;
    return {{QStringLiteral("id"), t.id},
            {QStringLiteral("chain"), t.path},
            {QStringLiteral("kind"), enumName(t.kind)},
            {QStringLiteral("after"), upstreams},
            {QStringLiteral("on"), enumName(t.on)},
            {QStringLiteral("withinMs"), t.withinMs},
            {QStringLiteral("paused"), t.paused},
            {QStringLiteral("explained"), describe(t)}};
}

} // namespace hg::triggertext
