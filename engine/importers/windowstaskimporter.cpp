#include "windowstaskimporter.h"

#include "chainnamer.h"
#include "cron/cronparser.h"
#include "store/notifychannelrepository.h"

#include <QDomDocument>
#include <QFileInfo>
#include <QJsonDocument>
#include <QRegularExpression>

#include <algorithm>

namespace hg {
namespace {

const QStringList weekdayNames{QStringLiteral("Sunday"),   QStringLiteral("Monday"),
                               QStringLiteral("Tuesday"),  QStringLiteral("Wednesday"),
                               QStringLiteral("Thursday"), QStringLiteral("Friday"),
                               QStringLiteral("Saturday")};
const QStringList monthNames{
    QStringLiteral("January"), QStringLiteral("February"), QStringLiteral("March"),
    QStringLiteral("April"),   QStringLiteral("May"),      QStringLiteral("June"),
    QStringLiteral("July"),    QStringLiteral("August"),   QStringLiteral("September"),
    QStringLiteral("October"), QStringLiteral("November"), QStringLiteral("December")};

QString textOf(const QDomElement &parent, const QString &name, const QString &fallback = {})
{
    const QDomElement element = parent.firstChildElement(name);
    return element.isNull() ? fallback : element.text().trimmed();
}

// The first entity reference below `node` that Qt left unresolved.
QString unresolvedReference(const QDomNode &node)
{
    for (QDomNode child = node.firstChild(); !child.isNull(); child = child.nextSibling()) {
        if (child.isEntityReference())
            return child.nodeName();
        if (const QString inside = unresolvedReference(child); !inside.isEmpty())
            return inside;
    }
    return {};
}

// The name of the first entity whose text the document does not hold: one declared as an
// external file (Qt reads none, and drops its references silently) or one referred to but
// left unresolved. Empty when every entity is the document's own.
QString undefinedEntity(const QDomDocument &document)
{
    const QDomNamedNodeMap declared = document.doctype().entities();
    for (int i = 0; i < declared.count(); ++i) {
        const QDomEntity entity = declared.item(i).toEntity();
        if (!entity.systemId().isEmpty() || !entity.publicId().isEmpty())
            return entity.nodeName();
    }
    return unresolvedReference(document);
}

bool isTrue(const QDomElement &parent, const QString &name, bool fallback = false)
{
    const QString value = textOf(parent, name);
    return value.isEmpty() ? fallback
                           : value == QLatin1String("true") || value == QLatin1String("1");
}

QList<QDomElement> childrenOf(const QDomElement &parent)
{
    QList<QDomElement> children;
    for (QDomElement child = parent.firstChildElement(); !child.isNull();
         child = child.nextSiblingElement())
        children << child;
    return children;
}

// Quartz numbers weekdays from Sunday = 1.
QString quartzWeekdays(const QDomElement &daysOfWeek)
{
    QStringList days;
    for (const QDomElement &day : childrenOf(daysOfWeek)) {
        if (const qsizetype index = weekdayNames.indexOf(day.tagName()); index >= 0)
            days << weekdayNames.at(index).left(3).toUpper();
    }
    return days.join(QLatin1Char(','));
}

QString quartzMonths(const QDomElement &months)
{
    QStringList numbers;
    for (const QDomElement &month : childrenOf(months)) {
        if (const qsizetype index = monthNames.indexOf(month.tagName()); index >= 0)
            numbers << QString::number(index + 1);
    }
    return numbers.isEmpty() || numbers.size() == 12 ? QStringLiteral("*")
                                                     : numbers.join(QLatin1Char(','));
}

// CommandLineToArgvW's rules, short of its backslash-before-quote subtleties.
QStringList windowsArguments(const QString &line)
{
    QStringList words;
    QString word;
    bool quoted = false;
    bool inWord = false;
    for (const QChar c : line) {
        if (c == QLatin1Char('"')) {
            quoted = !quoted;
            inWord = true;
        } else if (c.isSpace() && !quoted) {
            if (inWord)
                words << word;
            word.clear();
            inWord = false;
        } else {
            word += c;
            inWord = true;
        }
    }
    if (inWord)
        words << word;
    return words;
}

} // namespace

qint64 WindowsTaskImporter::durationSeconds(const QString &duration)
{
    static const QRegularExpression pattern(QStringLiteral(
        R"(^P(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?)?$)"));
    const QRegularExpressionMatch match = pattern.match(duration.trimmed());
    if (!match.hasMatch() || duration.trimmed() == QLatin1String("P")
        || duration.trimmed().endsWith(QLatin1Char('T')))
        return -1;
    if (!match.captured(1).isEmpty() || !match.captured(2).isEmpty())
        return -1; // years and months have no fixed length
    return match.captured(3).toLongLong() * 604800 + match.captured(4).toLongLong() * 86400
           + match.captured(5).toLongLong() * 3600 + match.captured(6).toLongLong() * 60
           + match.captured(7).toLongLong();
}

ImportedDefinitions WindowsTaskImporter::convert(const QByteArray &xml, const QString &path,
                                                 const Options &options)
{
    ImportedDefinitions out{options.project, {}, ImportReport(QFileInfo(path).fileName())};
    m_report = &out.report;
    m_routes = {};
    QDomDocument document;
    QString problem;
    int line = 0;
    int column = 0;
    if (!document.setContent(xml, &problem, &line, &column)) {
        out.report.unreadable(QStringLiteral("line %1, column %2").arg(line).arg(column),
                              tr("not readable XML: %1").arg(problem));
        return out;
    }
    // An entity the document uses but never defines is kept by Qt as an empty reference:
    // its text (a command's argument) would vanish without a word.
    if (const QString entity = undefinedEntity(document); !entity.isEmpty()) {
        out.report.unreadable(entity, tr("the entity &%1; stands for text this file does not "
                                         "hold (an external or undeclared entity)")
                                          .arg(entity));
        return out;
    }
    const QDomElement task = document.documentElement();
    if (task.tagName() != QLatin1String("Task")) {
        out.report.unreadable(
            task.tagName(),
            tr("not a Task Scheduler task: the document is <%1>, not <Task>").arg(task.tagName()));
        return out;
    }
    const QDomElement registration = task.firstChildElement(QStringLiteral("RegistrationInfo"));
    const QDomElement settings = task.firstChildElement(QStringLiteral("Settings"));
    const QString uri = textOf(registration, QStringLiteral("URI"));
    ChainNamer namer(options.takenChainNames);
    QJsonObject chain{
        {QStringLiteral("name"),
         namer.fromName(uri.isEmpty() ? QFileInfo(path).completeBaseName()
                                      : uri.section(QLatin1Char('\\'), -1))},
        {QStringLiteral("description"),
         textOf(registration, QStringLiteral("Description"),
                tr("From %1").arg(uri.isEmpty() ? QFileInfo(path).fileName() : uri))}};
    readSettings(settings, chain);
    readPrincipals(task.firstChildElement(QStringLiteral("Principals")));
    QJsonArray schedules;
    QJsonArray desktopTriggers;
    readTriggers(task.firstChildElement(QStringLiteral("Triggers")), settings,
                 isTrue(settings, QStringLiteral("StartWhenAvailable")), schedules,
                 desktopTriggers);
    const QJsonArray tasks =
        readActions(task.firstChildElement(QStringLiteral("Actions")), settings);
    if (tasks.isEmpty()) {
        out.report.leftOut(QStringLiteral("Actions"), {},
                           tr("no Exec action: nothing Hourglass could run"));
        return out;
    }
    QJsonArray dependencies;
    for (qsizetype i = 1; i < tasks.size(); ++i)
        dependencies << QJsonObject{
            {QStringLiteral("task"), tasks.at(i)[QStringLiteral("name")]},
            {QStringLiteral("upstream"), tasks.at(i - 1)[QStringLiteral("name")]},
            {QStringLiteral("when"), QStringLiteral("completion")}};
    chain.insert(QStringLiteral("tasks"), tasks);
    chain.insert(QStringLiteral("dependencies"), dependencies);
    chain.insert(QStringLiteral("schedules"), schedules);
    if (!desktopTriggers.isEmpty()) {
        chain.insert(QStringLiteral("triggers"), desktopTriggers);
        if (!options.engineName.isEmpty()) // a shared store: the desktop is this machine's
            chain.insert(QStringLiteral("client"), options.engineName);
    }
    if (!m_routes.isEmpty()) // no channel: the default e-mail channel
        chain.insert(QStringLiteral("notifications"), m_routes);
    out.chains << chain;
    QStringList shown;
    for (const auto &s : std::as_const(schedules))
        shown << s[QStringLiteral("expression")].toString();
    for (const auto &d : std::as_const(desktopTriggers))
        shown << tr("on %1").arg(d[QStringLiteral("desktop")][QStringLiteral("event")].toString());
    out.report.converted(uri.isEmpty() ? QStringLiteral("Task") : uri, {},
                         chain[QStringLiteral("name")].toString(),
                         shown.isEmpty() ? tr("no schedule") : shown.join(QStringLiteral("; ")));
    return out;
}

void WindowsTaskImporter::readSettings(const QDomElement &settings, QJsonObject &chain)
{
    chain.insert(QStringLiteral("enabled"), isTrue(settings, QStringLiteral("Enabled"), true));
    const QString policy =
        textOf(settings, QStringLiteral("MultipleInstancesPolicy"), QStringLiteral("IgnoreNew"));
    if (policy == QLatin1String("Parallel")) {
        chain.insert(QStringLiteral("maxInstances"), 0);
    } else {
        chain.insert(QStringLiteral("maxInstances"), 1);
        chain.insert(QStringLiteral("overlap"), policy == QLatin1String("Queue")
                                                    ? QStringLiteral("queue")
                                                    : QStringLiteral("skip"));
        if (policy == QLatin1String("StopExisting"))
            m_report->leftOut(QStringLiteral("Settings/MultipleInstancesPolicy"), policy,
                              tr("stopping the running instance for a new one has no "
                                 "counterpart: a new run is skipped while one runs"));
    }
    const qint64 limit = durationSeconds(
        textOf(settings, QStringLiteral("ExecutionTimeLimit"), QStringLiteral("PT72H")));
    if (limit > 0)
        chain.insert(QStringLiteral("timeoutSeconds"), int(qMin<qint64>(limit, INT_MAX)));
    const struct
    {
        const char *element;
        bool fallback;
        const char *why;
    } conditions[] = {
        // Both battery conditions are true where the task leaves them out (the task schema's
        // defaults), as the Task Scheduler then applies them.
        {"DisallowStartIfOnBatteries", true, QT_TR_NOOP("runs on battery power too")},
        {"StopIfGoingOnBatteries", true, QT_TR_NOOP("does not stop it on battery power")},
        {"RunOnlyIfIdle", false, QT_TR_NOOP("does not wait for the computer to be idle")},
        {"WakeToRun", false, QT_TR_NOOP("cannot wake the computer to run")},
    };
    // Start only with a network: the chain's own condition (a fire without one is skipped,
    // in its history, as the Task Scheduler does not start the task).
    if (isTrue(settings, QStringLiteral("RunOnlyIfNetworkAvailable"), false)) {
        chain.insert(QStringLiteral("needsNetwork"), true);
        m_report->note(QStringLiteral("Settings/RunOnlyIfNetworkAvailable"), QStringLiteral("true"),
                       tr("the chain starts by its schedules and triggers only while the "
                          "computer has a network"));
    }
    for (const auto &condition : conditions) {
        const QString name = QLatin1String(condition.element);
        if (isTrue(settings, name, condition.fallback))
            m_report->leftOut(QStringLiteral("Settings/") + name,
                              settings.firstChildElement(name).isNull()
                                  ? tr("true (the default of a task that leaves it out)")
                                  : QStringLiteral("true"),
                              tr("Hourglass %1").arg(tr(condition.why)));
    }
}

void WindowsTaskImporter::readPrincipals(const QDomElement &principals)
{
    const QDomElement principal = principals.firstChildElement(QStringLiteral("Principal"));
    if (textOf(principal, QStringLiteral("RunLevel")) == QLatin1String("HighestAvailable"))
        m_report->leftOut(QStringLiteral("Principals/Principal/RunLevel"),
                          QStringLiteral("HighestAvailable"),
                          tr("Hourglass runs tasks with its engine's rights, never raised"));
    const QString user = textOf(principal, QStringLiteral("UserId"));
    if (!user.isEmpty())
        m_report->note(QStringLiteral("Principals/Principal/UserId"), user,
                       tr("Hourglass runs it as the user of its engine"));
}

void WindowsTaskImporter::readTriggers(const QDomElement &triggers, const QDomElement &settings,
                                       bool catchUp, QJsonArray &schedules,
                                       QJsonArray &desktopTriggers)
{
    QHash<QString, int> seen;
    bool startup = false;
    for (const QDomElement &trigger : childrenOf(triggers)) {
        const QString kind = trigger.tagName();
        const QString where = QStringLiteral("Triggers/%1[%2]").arg(kind).arg(++seen[kind]);
        if (kind == QLatin1String("CalendarTrigger")) {
            readCalendarTrigger(trigger, where, catchUp, schedules);
        } else if (kind == QLatin1String("TimeTrigger")) {
            readTimeTrigger(trigger, where, catchUp, schedules);
        } else if (kind == QLatin1String("BootTrigger") || kind == QLatin1String("LogonTrigger")) {
            if (!startup)
                schedules << schedule(QStringLiteral("startup"), QStringLiteral("@reboot"), {},
                                      trigger, catchUp);
            startup = true;
            if (durationSeconds(textOf(trigger, QStringLiteral("Delay"), QStringLiteral("PT0S")))
                > 0)
                m_report->leftOut(where + QStringLiteral("/Delay"),
                                  textOf(trigger, QStringLiteral("Delay")),
                                  tr("runs when the engine starts: the delay is not kept"));
            if (kind == QLatin1String("LogonTrigger"))
                m_report->note(where, {}, tr("a logon is taken as the engine's start"));
        } else if (kind == QLatin1String("SessionStateChangeTrigger")
                   || kind == QLatin1String("IdleTrigger")) {
            readDesktopTrigger(trigger, where, settings, desktopTriggers);
        } else {
            m_report->leftOut(where, {},
                              tr("<%1> has no counterpart: Hourglass starts runs by time, at "
                                 "start-up, after other chains, on files, on desktop events "
                                 "or by hand")
                                  .arg(kind));
        }
        if (!textOf(trigger, QStringLiteral("RandomDelay")).isEmpty())
            m_report->leftOut(where + QStringLiteral("/RandomDelay"),
                              textOf(trigger, QStringLiteral("RandomDelay")),
                              tr("a random start delay has no counterpart"));
    }
}

void WindowsTaskImporter::readDesktopTrigger(const QDomElement &trigger, const QString &where,
                                             const QDomElement &settings,
                                             QJsonArray &desktopTriggers)
{
    QJsonObject desktop;
    if (trigger.tagName() == QLatin1String("SessionStateChangeTrigger")) {
        const QString change = textOf(trigger, QStringLiteral("StateChange"));
        if (change != QLatin1String("SessionUnlock")) {
            m_report->leftOut(where + QStringLiteral("/StateChange"), change,
                              tr("only SessionUnlock has a counterpart (a trigger on unlock)"));
            return;
        }
        desktop.insert(QStringLiteral("event"), QStringLiteral("unlock"));
        if (!textOf(trigger, QStringLiteral("UserId")).isEmpty())
            m_report->note(where + QStringLiteral("/UserId"),
                           textOf(trigger, QStringLiteral("UserId")),
                           tr("the session the engine runs in is the one watched"));
    } else {
        // The idle time is the task's IdleSettings/Duration (10 minutes where it is left
        // out, as the Task Scheduler has it), in whole minutes as the desktop's idle hint.
        const QDomElement idle = settings.firstChildElement(QStringLiteral("IdleSettings"));
        const qint64 seconds =
            durationSeconds(textOf(idle, QStringLiteral("Duration"), QStringLiteral("PT10M")));
        const qint64 minutes = std::clamp<qint64>((seconds + 30) / 60, 1, qint64(7) * 24 * 60);
        if (seconds < 0) {
            m_report->leftOut(where, textOf(idle, QStringLiteral("Duration")),
                              tr("the idle time is not a duration"));
            return;
        }
        if (minutes * 60 != seconds)
            m_report->note(QStringLiteral("Settings/IdleSettings/Duration"),
                           textOf(idle, QStringLiteral("Duration")),
                           tr("idle for %n minute(s): the desktop's idle hint counts minutes",
                              nullptr, int(minutes)));
        desktop.insert(QStringLiteral("event"), QStringLiteral("idle"));
        desktop.insert(QStringLiteral("idle_ms"), minutes * 60'000);
    }
    QJsonObject entry{{QStringLiteral("desktop"), desktop}};
    if (!isTrue(trigger, QStringLiteral("Enabled"), true))
        entry.insert(QStringLiteral("paused"), true);
    desktopTriggers << entry;
}

QJsonObject WindowsTaskImporter::schedule(const QString &kind, const QString &expression,
                                          const QString &zone, const QDomElement &trigger,
                                          bool catchUp) const
{
    QJsonObject s{
        {QStringLiteral("kind"), kind},
        {QStringLiteral("expression"), expression},
        {QStringLiteral("dialect"),
         kind == QLatin1String("cron") ? QStringLiteral("quartz") : QStringLiteral("auto")},
        {QStringLiteral("timeZone"), zone},
        {QStringLiteral("misfire"), catchUp ? QStringLiteral("once") : QStringLiteral("skip")},
        {QStringLiteral("enabled"), isTrue(trigger, QStringLiteral("Enabled"), true)}};
    const auto bound = [&](const QString &element) {
        const QDateTime at = QDateTime::fromString(textOf(trigger, element), Qt::ISODate);
        return at.isValid() ? at.toString(Qt::ISODateWithMs) : QString();
    };
    if (kind == QLatin1String("cron")) {
        s.insert(QStringLiteral("activeFrom"), bound(QStringLiteral("StartBoundary")));
        s.insert(QStringLiteral("activeUntil"), bound(QStringLiteral("EndBoundary")));
    }
    return s;
}

bool WindowsTaskImporter::firesOf(const QDomElement &trigger, const QString &where,
                                  const QDateTime &start, bool daily, Fires &fires)
{
    const QTime time = start.time();
    fires = {QString::number(time.second()), QString::number(time.minute()),
             QString::number(time.hour())};
    const QDomElement repetition = trigger.firstChildElement(QStringLiteral("Repetition"));
    if (repetition.isNull())
        return true;
    const QString intervalText = textOf(repetition, QStringLiteral("Interval"));
    const qint64 interval = durationSeconds(intervalText);
    const QString durationText = textOf(repetition, QStringLiteral("Duration"));
    const qint64 duration = durationText.isEmpty() ? -1 : durationSeconds(durationText);
    const bool allDay = duration < 0 || duration >= 86400;
    const auto refuse = [&](const QString &why) {
        m_report->leftOut(
            where + QStringLiteral("/Repetition"),
            QStringLiteral("Interval=%1 Duration=%2")
                .arg(intervalText, durationText.isEmpty() ? QStringLiteral("-") : durationText),
            why);
        return false;
    };
    if (interval <= 0 || interval % 60 != 0)
        return refuse(tr("an interval of '%1' is not whole minutes").arg(intervalText));
    if (!allDay && !daily)
        return refuse(tr("a repetition for part of the day on chosen days has no cron form"));
    if (interval < 3600 && 3600 % interval == 0) {
        const int step = int(interval / 60);
        if (time.minute() >= step)
            return refuse(tr("repeating every %1 min from minute %2 of the hour has no cron "
                             "form")
                              .arg(step)
                              .arg(time.minute()));
        fires.minute = QStringLiteral("%1-59/%2").arg(time.minute()).arg(step);
        if (allDay) {
            fires.hour = QStringLiteral("*");
            return true;
        }
        if (duration % 3600 != 0 || time.hour() + duration / 3600 > 24)
            return refuse(tr("a duration of '%1' from %2 does not end on a whole hour of the "
                             "same day")
                              .arg(durationText, time.toString(QStringLiteral("HH:mm"))));
        fires.hour =
            QStringLiteral("%1-%2").arg(time.hour()).arg(time.hour() + duration / 3600 - 1);
        return true;
    }
    if (interval % 3600 == 0 && 86400 % interval == 0) {
        const int step = int(interval / 3600);
        QStringList hours;
        const qint64 span = allDay ? 86400 : duration;
        for (qint64 offset = 0; offset < span && time.hour() + offset / 3600 < 24;
             offset += interval)
            hours << QString::number(time.hour() + offset / 3600);
        if (allDay) // the hours before the start are the previous day's repetitions
            for (int hour = time.hour() - step; hour >= 0; hour -= step)
                hours.prepend(QString::number(hour));
        fires.hour = hours.size() == 24 ? QStringLiteral("*") : hours.join(QLatin1Char(','));
        return true;
    }
    return refuse(tr("an interval of '%1' divides neither the hour nor the day").arg(intervalText));
}

void WindowsTaskImporter::readCalendarTrigger(const QDomElement &trigger, const QString &where,
                                              bool catchUp, QJsonArray &schedules)
{
    const QString startText = textOf(trigger, QStringLiteral("StartBoundary"));
    QDateTime start = QDateTime::fromString(startText, Qt::ISODate);
    if (!start.isValid()) {
        m_report->leftOut(where + QStringLiteral("/StartBoundary"), startText,
                          tr("a calendar trigger needs a start time"));
        return;
    }
    // With an offset the task is "synchronized across time zones": it fires at that instant.
    QString zone;
    if (start.timeSpec() != Qt::LocalTime) {
        start = start.toUTC();
        zone = QStringLiteral("UTC");
    }
    const QDomElement byDay = trigger.firstChildElement(QStringLiteral("ScheduleByDay"));
    const QDomElement byWeek = trigger.firstChildElement(QStringLiteral("ScheduleByWeek"));
    const QDomElement byMonth = trigger.firstChildElement(QStringLiteral("ScheduleByMonth"));
    const QDomElement byMonthDay =
        trigger.firstChildElement(QStringLiteral("ScheduleByMonthDayOfWeek"));
    Fires fires;
    if (!firesOf(trigger, where, start, !byDay.isNull(), fires))
        return;
    const QString time = QStringList{fires.second, fires.minute, fires.hour}.join(QLatin1Char(' '));
    QStringList expressions;
    if (!byDay.isNull()) {
        const QString interval = textOf(byDay, QStringLiteral("DaysInterval"), QStringLiteral("1"));
        if (interval != QLatin1String("1")) {
            m_report->leftOut(where + QStringLiteral("/ScheduleByDay/DaysInterval"), interval,
                              tr("every %1 days counts from the start date; cron has no such "
                                 "cadence")
                                  .arg(interval));
            return;
        }
        expressions << time + QStringLiteral(" * * ?");
    } else if (!byWeek.isNull()) {
        const QString interval =
            textOf(byWeek, QStringLiteral("WeeksInterval"), QStringLiteral("1"));
        if (interval != QLatin1String("1")) {
            m_report->leftOut(where + QStringLiteral("/ScheduleByWeek/WeeksInterval"), interval,
                              tr("every %1 weeks counts from the start date; cron has no such "
                                 "cadence")
                                  .arg(interval));
            return;
        }
        expressions << time + QStringLiteral(" ? * ")
                           + quartzWeekdays(byWeek.firstChildElement(QStringLiteral("DaysOfWeek")));
    } else if (!byMonth.isNull()) {
        const QString months = quartzMonths(byMonth.firstChildElement(QStringLiteral("Months")));
        QStringList days;
        bool last = false;
        for (const QDomElement &day :
             childrenOf(byMonth.firstChildElement(QStringLiteral("DaysOfMonth")))) {
            if (day.text().trimmed() == QLatin1String("Last"))
                last = true;
            else
                days << day.text().trimmed();
        }
        if (!days.isEmpty())
            expressions
                << QStringLiteral("%1 %2 %3 ?").arg(time, days.join(QLatin1Char(',')), months);
        if (last) // Quartz's L stands alone in its field
            expressions << QStringLiteral("%1 L %2 ?").arg(time, months);
    } else if (!byMonthDay.isNull()) {
        const QString months = quartzMonths(byMonthDay.firstChildElement(QStringLiteral("Months")));
        for (const QDomElement &week :
             childrenOf(byMonthDay.firstChildElement(QStringLiteral("Weeks")))) {
            for (const QDomElement &day :
                 childrenOf(byMonthDay.firstChildElement(QStringLiteral("DaysOfWeek")))) {
                const qsizetype number = weekdayNames.indexOf(day.tagName()) + 1;
                const QString which =
                    week.text().trimmed() == QLatin1String("Last")
                        ? QStringLiteral("%1L").arg(number)
                        : QStringLiteral("%1#%2").arg(number).arg(week.text().trimmed());
                expressions << QStringLiteral("%1 ? %2 %3").arg(time, months, which); // one each
            }
        }
    }
    if (expressions.isEmpty()) {
        m_report->leftOut(where, {}, tr("no days to fire on"));
        return;
    }
    for (const QString &expression : std::as_const(expressions)) {
        if (const Result<CronExpression> parsed =
                CronParser::parse(expression, CronDialect::Quartz);
            !parsed) {
            m_report->leftOut(where, expression, parsed.error().message);
            continue;
        }
        schedules << schedule(QStringLiteral("cron"), expression, zone, trigger, catchUp);
    }
}

void WindowsTaskImporter::readTimeTrigger(const QDomElement &trigger, const QString &where,
                                          bool catchUp, QJsonArray &schedules)
{
    const QString startText = textOf(trigger, QStringLiteral("StartBoundary"));
    QDateTime start = QDateTime::fromString(startText, Qt::ISODate);
    if (!start.isValid()) {
        m_report->leftOut(where + QStringLiteral("/StartBoundary"), startText,
                          tr("a time trigger needs a start time"));
        return;
    }
    if (trigger.firstChildElement(QStringLiteral("Repetition")).isNull()) {
        schedules << schedule(QStringLiteral("once"), start.toString(Qt::ISODate), {}, trigger,
                              catchUp);
        return;
    }
    // Repeated from the start on: the steps of a daily pattern, active from the start.
    QString zone;
    if (start.timeSpec() != Qt::LocalTime) {
        start = start.toUTC();
        zone = QStringLiteral("UTC");
    }
    const QDomElement repetition = trigger.firstChildElement(QStringLiteral("Repetition"));
    const QString duration = textOf(repetition, QStringLiteral("Duration"));
    if (!duration.isEmpty() && durationSeconds(duration) < 86400) {
        m_report->leftOut(where + QStringLiteral("/Repetition/Duration"), duration,
                          tr("repeating for part of one day only has no cron form"));
        return;
    }
    Fires fires;
    if (!firesOf(trigger, where, start, true, fires))
        return;
    schedules << schedule(
        QStringLiteral("cron"),
        QStringList{fires.second, fires.minute, fires.hour, QStringLiteral("* * ?")}.join(
            QLatin1Char(' ')),
        zone, trigger, catchUp);
}

void WindowsTaskImporter::readSendEmail(const QString &where, const QDomElement &action)
{
    // The deprecated e-mail action: each run that gets this far mails its recipients. A
    // route of the chain does it, through the default e-mail channel, with Hourglass's own
    // message (the run, why and its output) rather than the action's fixed text.
    QStringList recipients;
    QStringList refused;
    for (const char *field : {"To", "Cc", "Bcc"})
        for (const QString &part :
             textOf(action, QLatin1String(field))
                 .split(QRegularExpression(QStringLiteral("[,;]")), Qt::SkipEmptyParts)) {
            const QString address = part.trimmed();
            (NotifyChannelRepository::isMailAddress(address) ? recipients : refused) << address;
        }
    recipients = NotifyChannelRepository::distinctAddresses(recipients);
    if (!refused.isEmpty())
        m_report->leftOut(
            where, {}, tr("'%1' is not an e-mail address").arg(refused.join(QStringLiteral(", "))));
    if (recipients.isEmpty() || recipients.size() > NotifyChannelRepository::maxRecipients) {
        m_report->leftOut(where, {},
                          tr("the e-mail action names no recipient Hourglass can mail (1 to %1)")
                              .arg(NotifyChannelRepository::maxRecipients));
        return;
    }
    m_routes << QJsonObject{{QStringLiteral("on"), QJsonArray{QStringLiteral("success")}},
                            {QStringLiteral("to"), QJsonArray::fromStringList(recipients)}};
    m_report->note(where, {},
                   tr("each run that succeeds mails %1 through the default e-mail channel, with "
                      "Hourglass's message (the action's subject and body are not kept)")
                       .arg(recipients.join(QStringLiteral(", "))));
}

QJsonArray WindowsTaskImporter::readActions(const QDomElement &actions, const QDomElement &settings)
{
    const QDomElement restart = settings.firstChildElement(QStringLiteral("RestartOnFailure"));
    const int retries = textOf(restart, QStringLiteral("Count"), QStringLiteral("0")).toInt();
    const qint64 retryDelay = durationSeconds(textOf(restart, QStringLiteral("Interval")));
    ChainNamer names;
    QJsonArray tasks;
    QHash<QString, int> seen;
    for (const QDomElement &action : childrenOf(actions)) {
        const QString where =
            QStringLiteral("Actions/%1[%2]").arg(action.tagName()).arg(++seen[action.tagName()]);
        if (action.tagName() == QLatin1String("ShowMessage")) {
            // The deprecated message box: a desktop notification, the Notify builtin.
            const QJsonObject message{
                {QStringLiteral("title"), textOf(action, QStringLiteral("Title"))},
                {QStringLiteral("message"), textOf(action, QStringLiteral("Body"))}};
            tasks << QJsonObject{
                {QStringLiteral("name"), names.fromName(QStringLiteral("message"))},
                {QStringLiteral("kind"), QStringLiteral("builtin")},
                {QStringLiteral("command"), QStringLiteral("Notify")},
                {QStringLiteral("arguments"),
                 QJsonArray{
                     QString::fromUtf8(QJsonDocument(message).toJson(QJsonDocument::Compact))}}};
            m_report->note(where, {}, tr("a desktop notification (the Notify builtin)"));
            continue;
        }
        if (action.tagName() == QLatin1String("SendEmail")) {
            readSendEmail(where, action);
            continue;
        }
        if (action.tagName() != QLatin1String("Exec")) {
            m_report->leftOut(
                where, {},
                tr("<%1> has no counterpart; only <Exec> actions run").arg(action.tagName()));
            continue;
        }
        const QString command = textOf(action, QStringLiteral("Command"));
        const QString arguments = textOf(action, QStringLiteral("Arguments"));
        QJsonObject task{
            {QStringLiteral("name"), names.fromName(command.section(QLatin1Char('\\'), -1))},
            {QStringLiteral("kind"), QStringLiteral("program")},
            {QStringLiteral("command"), command},
            {QStringLiteral("arguments"), QJsonArray::fromStringList(windowsArguments(arguments))},
            {QStringLiteral("workingDirectory"),
             textOf(action, QStringLiteral("WorkingDirectory"))},
            {QStringLiteral("maxRetries"), retries},
            {QStringLiteral("retryDelaySeconds"), int(qMax<qint64>(retryDelay, 0))},
            {QStringLiteral("retryBackoff"), 1.0}};
        static const QRegularExpression windowsPath(QStringLiteral(R"(^[A-Za-z]:\\|\.exe$|%\w+%)"),
                                                    QRegularExpression::CaseInsensitiveOption);
        if (windowsPath.match(command).hasMatch())
            m_report->note(where + QStringLiteral("/Command"), command,
                           tr("a Windows program: point the task at what runs here"));
        tasks << task;
    }
    return tasks;
}

} // namespace hg
