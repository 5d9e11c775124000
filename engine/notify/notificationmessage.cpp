#include "notificationmessage.h"

#include "base/terminaltext.h"
#include "domain/version.h"
#include "store/chainrepository.h"
#include "store/logrepository.h"
#include "store/projectrepository.h"
#include "store/runrepository.h"
#include "store/schedulerepository.h"
#include "store/store.h"
#include "store/storequery.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTimeZone>

namespace hg {
namespace {

// A name or a reason on one line: control characters shown, line breaks as spaces.
QString oneLine(const QString &text)
{
    QString line = text;
    line.replace(QLatin1Char('\r'), QLatin1Char(' ')).replace(QLatin1Char('\n'), QLatin1Char(' '));
    return terminaltext::escaped(line).trimmed();
}

QString isoText(const QDateTime &time)
{
    return time.isValid() ? time.toUTC().toString(Qt::ISODateWithMs) : QString();
}

QString zonedText(const QDateTime &time, const QTimeZone &zone)
{
    if (!time.isValid())
        return QStringLiteral("-");
    const QDateTime there = time.toTimeZone(zone);
    return there.toString(QStringLiteral("yyyy-MM-dd HH:mm:ss ")) + there.timeZoneAbbreviation();
}

QString headline(const QString &event, const QString &path, qint64 runId, const QString &detail)
{
    if (event == QLatin1String("failure"))
        return NotificationMessage::tr("%1 failed (run %2)").arg(path).arg(runId);
    if (event == QLatin1String("recovery"))
        return NotificationMessage::tr("%1 recovered (run %2)").arg(path).arg(runId);
    if (event == QLatin1String("success"))
        return NotificationMessage::tr("%1 succeeded (run %2)").arg(path).arg(runId);
    if (event == QLatin1String("output"))
        return NotificationMessage::tr("%1 printed output (run %2)").arg(path).arg(runId);
    if (event == QLatin1String("alert"))
        return NotificationMessage::tr("%1: %2").arg(path, detail);
    return NotificationMessage::tr("%1: %2").arg(path, detail);
}

} // namespace

Result<NotificationMessage> NotificationMessage::compose(Store &store, const Delivery &delivery,
                                                         int outputLines, const QString &host)
{
    NotificationMessage message;
    QString projectName;
    QString chainName;
    if (const Result<Chain> chain = ChainRepository(store).byId(delivery.chainId)) {
        chainName = chain->name;
        if (const Result<Project> project = ProjectRepository(store).byId(chain->projectId))
            projectName = project->name;
    }
    const QString path = chainName.isEmpty()
                             ? tr("chain %1 (removed)").arg(delivery.chainId)
                             : oneLine(projectName) + QLatin1Char('/') + oneLine(chainName);
    QJsonObject json{{QStringLiteral("event"), delivery.event},
                     {QStringLiteral("delivery"), delivery.deliveryId},
                     {QStringLiteral("project"), projectName},
                     {QStringLiteral("chain"), chainName},
                     {QStringLiteral("host"), host},
                     {QStringLiteral("hourglass"), versionString()}};
    QStringList lines;
    QString detail;
    if (delivery.event == QLatin1String("alert")) {
        StoreQuery q(store, QStringLiteral("SELECT kind, detail, at FROM alert WHERE id = ?"));
        q.bind(delivery.subjectId);
        if (q.exec(tr("read an alert")) && q.next()) {
            detail = tr("alert (%1)").arg(q.text(0));
            json.insert(QStringLiteral("alert"), q.text(0));
            json.insert(QStringLiteral("reason"), q.text(1));
            lines << tr("Why: %1").arg(oneLine(q.text(1)));
        }
    } else if (delivery.event == QLatin1String("missed")) {
        StoreQuery q(store, QStringLiteral("SELECT fire_count, first_fire, last_fire, cause, "
                                           "trigger_id, detail FROM occurrence WHERE id = ?"));
        q.bind(delivery.subjectId);
        if (q.exec(tr("read a missed fire")) && q.next()) {
            // A file trigger's row counts files that arrived while no engine watched.
            const bool files = q.int64(4) > 0;
            detail = files ? tr("%n file(s) arrived unwatched", nullptr, q.integer(0))
                           : tr("%n fire time(s) missed", nullptr, q.integer(0));
            json.insert(QStringLiteral("missed"), q.int64(0));
            json.insert(QStringLiteral("first"), isoText(q.time(1)));
            json.insert(QStringLiteral("last"), isoText(q.time(2)));
            json.insert(QStringLiteral("reason"), q.text(3));
            if (files) {
                json.insert(QStringLiteral("trigger"), q.int64(4));
                json.insert(QStringLiteral("files"), q.text(5));
                lines << tr("Files: %1").arg(oneLine(q.text(5)));
            }
            lines << tr("They wait in the missed-runs inbox: `hourglass missed`.");
        }
    }
    if (delivery.runId > 0) {
        const Result<Run> run = RunRepository(store).byId(delivery.runId);
        if (!run && run.error().kind != ErrorKind::NotFound)
            return run.error();
        if (run) {
            QTimeZone zone = QTimeZone::systemTimeZone();
            if (run->scheduleId > 0)
                if (const Result<Schedule> schedule =
                        ScheduleRepository(store).byId(run->scheduleId);
                    schedule && !schedule->timeZone.isEmpty())
                    zone = QTimeZone(schedule->timeZone.toUtf8());
            if (!zone.isValid())
                zone = QTimeZone::systemTimeZone();
            if (!zone.isValid()) // a TZ the system does not know: UTC, said as such
                zone = QTimeZone::utc();
            const Result<QString> reason = RunRepository(store).failureReason(run->id);
            json.insert(QStringLiteral("run"), run->id);
            json.insert(QStringLiteral("state"), enumName(run->state));
            json.insert(QStringLiteral("reason"), reason ? reason.value() : QString());
            json.insert(QStringLiteral("scheduled"), isoText(run->scheduledFor));
            json.insert(QStringLiteral("started"), isoText(run->startedAt));
            json.insert(QStringLiteral("ended"), isoText(run->finishedAt));
            json.insert(QStringLiteral("engine"), run->engineName);
            if (reason && !reason->isEmpty() && delivery.event != QLatin1String("alert"))
                lines << tr("Why: %1").arg(oneLine(reason.value()));
            lines << tr("Scheduled: %1").arg(zonedText(run->scheduledFor, zone))
                  << tr("Started:   %1").arg(zonedText(run->startedAt, zone))
                  << tr("Ended:     %1").arg(zonedText(run->finishedAt, zone))
                  << tr("Engine:    %1 on %2").arg(oneLine(run->engineName), host);
            // The last lines the tasks printed (the engine's own lines are read, then left):
            // each cut at 1,000 characters and 32 KB in all, so a task printing 300 KB lines
            // sends no 20 MB message (nor keeps one per channel in the outbox).
            const int wanted = std::max(1, outputLines);
            const Result<QList<LogLine>> tail = LogRepository(store).readTail(run->id, wanted * 4);
            QStringList kept;
            if (tail) {
                for (const LogLine &line : tail.value())
                    if (line.stream == LogStream::Stdout || line.stream == LogStream::Stderr)
                        kept << (line.text.size() > 1000 ? line.text.left(1000) + QChar(0x2026)
                                                         : line.text);
            }
            if (kept.size() > wanted)
                kept = kept.mid(kept.size() - wanted);
            qsizetype total = 0;
            qsizetype first = kept.size();
            while (first > 0 && total + kept.at(first - 1).size() <= qsizetype(32) * 1024)
                total += kept.at(--first).size();
            kept = kept.mid(first);
            QJsonArray output;
            QStringList printed;
            for (const QString &line : std::as_const(kept)) {
                output << line;
                printed << terminaltext::escaped(line);
            }
            if (delivery.event == QLatin1String("output") && printed.isEmpty())
                message.empty = true;
            json.insert(QStringLiteral("output"), output);
            if (!printed.isEmpty())
                lines << QString() << tr("Last %n line(s) of output:", nullptr, int(printed.size()))
                      << printed;
        }
    }
    message.subject =
        QStringLiteral("[Hourglass] ") + headline(delivery.event, path, delivery.runId, detail);
    message.text =
        (QStringList{message.subject.mid(12) + QLatin1Char('.')} + lines).join(QLatin1Char('\n'));
    json.insert(QStringLiteral("subject"), message.subject);
    json.insert(QStringLiteral("text"), message.text);
    message.json = json;
    return message;
}

NotificationMessage NotificationMessage::test(const NotifyChannel &channel, const QString &host)
{
    NotificationMessage message;
    message.subject = QStringLiteral("[Hourglass] ") + tr("test of channel '%1'").arg(channel.name);
    message.text = tr("This is a test message from Hourglass %1 on %2, a test of channel '%3'.")
                       .arg(versionString(), host, channel.name);
    message.json = QJsonObject{{QStringLiteral("event"), QStringLiteral("test")},
                               {QStringLiteral("channel"), channel.name},
                               {QStringLiteral("host"), host},
                               {QStringLiteral("hourglass"), versionString()},
                               {QStringLiteral("subject"), message.subject},
                               {QStringLiteral("text"), message.text}};
    return message;
}

QString NotificationMessage::bodyForStore() const
{
    return QString::fromUtf8(QJsonDocument(json).toJson(QJsonDocument::Compact));
}

NotificationMessage NotificationMessage::fromStore(const QString &subject, const QString &body)
{
    NotificationMessage message;
    message.subject = subject;
    message.json = QJsonDocument::fromJson(body.toUtf8()).object();
    message.text = message.json.value(QLatin1String("text")).toString();
    return message;
}

} // namespace hg
