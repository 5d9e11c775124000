#include "digestmessage.h"

#include "base/terminaltext.h"
#include "domain/version.h"
#include "store/chainrepository.h"
#include "store/outboxrepository.h"
#include "store/projectrepository.h"
#include "store/runrepository.h"
#include "store/store.h"

#include <QJsonArray>
#include <QMap>

namespace hg {
namespace {

// How much a digest lists: it must stay one readable message however long the flood was.
constexpr int listedChains = 30;
constexpr int reasonsPerChain = 3;

struct ChainCount
{
    QString project;
    QString chain;
    QMap<QString, int> events;
    QJsonArray runs; // the first few, with their reasons
    QStringList lines;
};

QString singleLine(const QString &text)
{
    QString line = text.left(500);
    line.replace(QLatin1Char('\r'), QLatin1Char(' ')).replace(QLatin1Char('\n'), QLatin1Char(' '));
    return terminaltext::escaped(line).trimmed();
}

} // namespace

NotificationMessage DigestMessage::capReached(const NotifyChannel &channel, const Delivery &row,
                                              const QString &host)
{
    NotificationMessage message;
    // Subjects are spelled out for one and many: no "(s)" in a mail's subject line.
    message.subject =
        QStringLiteral("[Hourglass] ")
        + (channel.dailyCap == 1
               ? tr("channel '%1' reached its daily cap of 1 message").arg(singleLine(channel.name))
               : tr("channel '%1' reached its daily cap of %2 messages")
                     .arg(singleLine(channel.name))
                     .arg(channel.dailyCap));
    message.text = tr("Channel '%1' has sent %n message(s) today, its daily cap. Until midnight "
                      "(the time zone of the engine on %2) its messages are held back; one "
                      "digest then tells of them. `hourglass deliveries --state held` lists "
                      "them.",
                      nullptr, channel.dailyCap)
                       .arg(singleLine(channel.name), host);
    message.json = QJsonObject{{QStringLiteral("event"), QLatin1String(capEvent)},
                               {QStringLiteral("delivery"), row.deliveryId},
                               {QStringLiteral("channel"), channel.name},
                               {QStringLiteral("cap"), channel.dailyCap},
                               {QStringLiteral("host"), host},
                               {QStringLiteral("hourglass"), versionString()},
                               {QStringLiteral("subject"), message.subject},
                               {QStringLiteral("text"), message.text}};
    return message;
}

Result<NotificationMessage> DigestMessage::compose(Store &store, const NotifyChannel &channel,
                                                   const Delivery &row, const QString &host)
{
    if (row.event == QLatin1String(capEvent))
        return capReached(channel, row, host);
    const Result<QList<Delivery>> held = OutboxRepository(store).takeHeld(channel.id, row.id);
    if (!held)
        return held.error();
    NotificationMessage message;
    if (held->isEmpty()) {
        message.empty = true;
        return message;
    }
    QList<qint64> order;
    QHash<qint64, ChainCount> chains;
    for (const Delivery &d : held.value()) {
        ChainCount &count = chains[d.chainId];
        if (!order.contains(d.chainId)) {
            order << d.chainId;
            if (const Result<Chain> chain = ChainRepository(store).byId(d.chainId)) {
                count.chain = chain->name;
                if (const Result<Project> project = ProjectRepository(store).byId(chain->projectId))
                    count.project = project->name;
            }
        }
        ++count.events[d.event];
        if (count.runs.size() >= reasonsPerChain)
            continue;
        QString reason;
        if (d.runId > 0 && d.event != QLatin1String("alert")) {
            if (const Result<QString> why = RunRepository(store).failureReason(d.runId))
                reason = why.value();
        }
        count.runs.append(QJsonObject{{QStringLiteral("event"), d.event},
                                      {QStringLiteral("run"), d.runId},
                                      {QStringLiteral("reason"), reason}});
        QString line = d.runId > 0 ? tr("    run %1 (%2)").arg(d.runId).arg(d.event)
                                   : QStringLiteral("    ") + d.event;
        if (!reason.isEmpty())
            line += QStringLiteral(": ") + singleLine(reason);
        count.lines << line;
    }
    QStringList lines;
    QJsonArray listed;
    for (int i = 0; i < order.size() && i < listedChains; ++i) {
        const ChainCount &count = chains.value(order.at(i));
        const QString path = count.chain.isEmpty() ? tr("chain %1 (removed)").arg(order.at(i))
                                                   : singleLine(count.project) + QLatin1Char('/')
                                                         + singleLine(count.chain);
        QStringList counts;
        QJsonObject events;
        for (auto e = count.events.cbegin(); e != count.events.cend(); ++e) {
            counts << QStringLiteral("%1 × %2").arg(e.value()).arg(e.key());
            events.insert(e.key(), e.value());
        }
        lines << QStringLiteral("  %1: %2").arg(path, counts.join(QStringLiteral(", ")))
              << count.lines;
        listed.append(QJsonObject{{QStringLiteral("project"), count.project},
                                  {QStringLiteral("chain"), count.chain},
                                  {QStringLiteral("counts"), events},
                                  {QStringLiteral("first"), count.runs}});
    }
    if (order.size() > listedChains)
        lines << tr("  … and %n more chain(s)", nullptr, int(order.size() - listedChains));
    const int total = int(held->size());
    message.subject =
        QStringLiteral("[Hourglass] ")
        + (total == 1 ? tr("1 message held back on channel '%1'").arg(singleLine(channel.name))
                      : tr("%1 messages held back on channel '%2'")
                            .arg(total)
                            .arg(singleLine(channel.name)));
    QStringList limits;
    if (channel.floodLimit > 0)
        limits << tr("at most %1 in %2 s").arg(channel.floodLimit).arg(channel.floodWindowSeconds);
    if (channel.dailyCap > 0)
        limits << tr("at most %1 a day").arg(channel.dailyCap);
    const QString rule =
        limits.isEmpty() ? tr("limits since changed") : limits.join(QStringLiteral(", "));
    message.text =
        (QStringList{
             tr("Flood control (%1) held back %n message(s) for channel "
                "'%2' from %3 to %4; this digest tells of them once:",
                nullptr, total)
                 .arg(rule, singleLine(channel.name),
                      held->first().createdAt.toLocalTime().toString(
                          QStringLiteral("yyyy-MM-dd HH:mm:ss")),
                      held->last().createdAt.toLocalTime().toString(QStringLiteral("HH:mm:ss")))}
         + lines
         + QStringList{QString(), tr("Engine host: %1. `hourglass deliveries --state "
                                     "held` lists them.")
                                      .arg(host)})
            .join(QLatin1Char('\n'));
    message.json = QJsonObject{{QStringLiteral("event"), QLatin1String(digestEvent)},
                               {QStringLiteral("delivery"), row.deliveryId},
                               {QStringLiteral("channel"), channel.name},
                               {QStringLiteral("held"), total},
                               {QStringLiteral("chains"), listed},
                               {QStringLiteral("host"), host},
                               {QStringLiteral("hourglass"), versionString()},
                               {QStringLiteral("subject"), message.subject},
                               {QStringLiteral("text"), message.text}};
    return message;
}

} // namespace hg
