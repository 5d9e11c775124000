#include "chaintriggerexchange.h"

#include "chainrepository.h"
#include "chaintriggerrepository.h"
#include "domain/jsonfieldreader.h"

#include <QJsonDocument>

#include <cmath>

namespace hg {

QJsonObject ChainTriggerExchange::toJson(const ChainTrigger &trigger)
{
    if (trigger.kind == TriggerKind::File || trigger.kind == TriggerKind::Desktop) {
        const bool file = trigger.kind == TriggerKind::File;
        QJsonObject entry{{file ? QStringLiteral("file") : QStringLiteral("desktop"),
                           QJsonDocument::fromJson(
                               (file ? trigger.file.toJson() : trigger.desktop.toJson()).toUtf8())
                               .object()}};
        if (trigger.paused)
            entry.insert(QStringLiteral("paused"), true);
        return entry;
    }
    QStringList upstreams;
    for (const ChainTrigger::Upstream &upstream : trigger.upstreams)
        upstreams << upstream.path;
    QJsonObject entry{{QStringLiteral("after"), QJsonArray::fromStringList(upstreams)},
                      {QStringLiteral("on"), enumName(trigger.on)}};
    if (trigger.withinMs > 0)
        entry.insert(QStringLiteral("withinMs"), trigger.withinMs);
    if (trigger.paused)
        entry.insert(QStringLiteral("paused"), true);
    return entry;
}

Status ChainTriggerExchange::importAll(Store &store, const QList<Pending> &pending)
{
    constexpr qsizetype mostTriggers = 100; // a chain's own: more is a mistake, not a need
    ChainRepository chains(store);
    ChainTriggerRepository triggers(store);
    for (const Pending &chain : pending) {
        if (chain.triggers.size() > mostTriggers)
            return Error::invalid(tr("import: %1.triggers: %2 triggers; %3 at most")
                                      .arg(chain.fieldPath)
                                      .arg(chain.triggers.size())
                                      .arg(mostTriggers));
        for (qsizetype i = 0; i < chain.triggers.size(); ++i) {
            const QString path = QStringLiteral("%1.triggers[%2]").arg(chain.fieldPath).arg(i);
            QString problem;
            JsonFieldReader field(chain.triggers.at(i).toObject(), path, &problem);
            ChainTrigger trigger;
            trigger.chainId = chain.chainId;
            trigger.path = chain.path;
            const bool file = field.has(QStringLiteral("file"));
            if (file || field.has(QStringLiteral("desktop"))) {
                // A file or desktop trigger's settings as the store keeps them (the spec's
                // JSON); the repository checks them, naming what is wrong.
                const QString key = file ? QStringLiteral("file") : QStringLiteral("desktop");
                field.rejectUnknownKeys({key, QStringLiteral("paused")});
                const QString settings =
                    QString::fromUtf8(QJsonDocument(field.object(key)).toJson());
                trigger.kind = file ? TriggerKind::File : TriggerKind::Desktop;
                if (file)
                    trigger.file = FileTriggerSpec::fromJson(settings);
                else if (!enumFromString<DesktopEvent>(
                             field.object(key).value(QLatin1String("event")).toString()))
                    field.fail(key, tr("event: one of unlock, resume, network, idle, ac-power"));
                else
                    trigger.desktop = DesktopTriggerSpec::fromJson(settings);
                trigger.paused = field.boolean(QStringLiteral("paused"), false);
                if (!problem.isEmpty())
                    return Error::invalid(tr("import: %1").arg(problem));
                if (const Result<ChainTrigger> added = triggers.add(trigger); !added)
                    return Error(added.error().kind,
                                 tr("import: %1: %2").arg(path, added.error().message));
                continue;
            }
            field.rejectUnknownKeys({QStringLiteral("after"), QStringLiteral("on"),
                                     QStringLiteral("withinMs"), QStringLiteral("paused")});
            trigger.on = field.enumeration(QStringLiteral("on"), TriggerOn::Succeeded);
            // A number beyond qint64 has none: checked before the cast (the repository checks
            // the window's range).
            const double within = field.number(QStringLiteral("withinMs"), 0);
            if (!(within >= 0 && within <= 1e13) || within != std::trunc(within))
                field.fail(QStringLiteral("withinMs"),
                           tr("a window in milliseconds, from 1,000 to 30 days"));
            else
                trigger.withinMs = qint64(within);
            trigger.paused = field.boolean(QStringLiteral("paused"), false);
            for (const QString &upstream : field.stringList(QStringLiteral("after"))) {
                const Result<Chain> found = chains.byPath(upstream);
                if (!found) {
                    field.fail(QStringLiteral("after"),
                               tr("no chain %1 in this store or the document").arg(upstream));
                    break;
                }
                trigger.upstreams << ChainTrigger::Upstream{found->id, upstream};
            }
            if (!problem.isEmpty())
                return Error::invalid(tr("import: %1").arg(problem));
            if (const Result<ChainTrigger> added = triggers.add(trigger); !added)
                return Error(added.error().kind,
                             tr("import: %1: %2").arg(path, added.error().message));
        }
    }
    return {};
}

} // namespace hg
