#include "filetriggerspec.h"

#include "globpattern.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace hg {
namespace {

constexpr qint64 longestSettleMs = qint64(24) * 3600 * 1000;
constexpr qint64 longestBatchMs = qint64(24) * 3600 * 1000;
constexpr qint64 shortestPollMs = 100;
constexpr qint64 longestPollMs = qint64(24) * 3600 * 1000;
constexpr int mostPerMinute = 6000;

} // namespace

QString FileTriggerSpec::problem() const
{
    if (const QString wrong = GlobPattern::problemWith(glob); !wrong.isEmpty())
        return QStringLiteral("--file: ") + wrong;
    if (events.isEmpty())
        return tr("--events: name at least one of created, modified, deleted, moved");
    if (settleMs < 0 || settleMs > longestSettleMs)
        return tr("--settle: from 0 s to 24 h");
    if (batchMs < 0 || batchMs > longestBatchMs || (batchMs > 0 && batchMs < 1000))
        return tr("--batch: a window from 1 s to 24 h");
    if (maxPerMinute < 0 || maxPerMinute > mostPerMinute)
        return tr("--max-per-minute: from 1 to %1 (0: no limit)").arg(mostPerMinute);
    if (pollMs != 0 && (pollMs < shortestPollMs || pollMs > longestPollMs))
        return tr("--poll: an interval from 100 ms to 24 h");
    return {};
}

QString FileTriggerSpec::toJson() const
{
    QJsonArray names;
    for (const FileEvent event : events)
        names << enumName(event);
    const QJsonObject object{{QStringLiteral("glob"), glob},
                             {QStringLiteral("events"), names},
                             {QStringLiteral("settle_ms"), settleMs},
                             {QStringLiteral("batch_ms"), batchMs},
                             {QStringLiteral("max_per_minute"), maxPerMinute},
                             {QStringLiteral("poll_ms"), pollMs},
                             {QStringLiteral("misfire"), enumName(misfire)}};
    return QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Compact));
}

FileTriggerSpec FileTriggerSpec::fromJson(const QString &json)
{
    const QJsonObject object = QJsonDocument::fromJson(json.toUtf8()).object();
    FileTriggerSpec spec;
    spec.glob = object.value(QLatin1String("glob")).toString();
    if (const QJsonValue names = object.value(QLatin1String("events")); names.isArray()) {
        spec.events.clear();
        for (const auto &name : names.toArray())
            if (const std::optional<FileEvent> event = enumFromString<FileEvent>(name.toString());
                event && !spec.events.contains(*event))
                spec.events << *event;
    }
    const auto number = [&](const char *key, qint64 fallback) {
        const QJsonValue value = object.value(QLatin1String(key));
        return value.isDouble() ? qint64(value.toDouble()) : fallback;
    };
    spec.settleMs = number("settle_ms", defaultSettleMs);
    spec.batchMs = number("batch_ms", 0);
    spec.maxPerMinute = int(number("max_per_minute", defaultMaxPerMinute));
    spec.pollMs = number("poll_ms", 0);
    spec.misfire = enumFromString<MisfirePolicy>(object.value(QLatin1String("misfire")).toString())
                       .value_or(MisfirePolicy::All);
    return spec;
}

} // namespace hg
