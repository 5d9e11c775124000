#include "systemdtimerimporter.h"

#include "chainnamer.h"
#include "cron/cronparser.h"
#include "systemdcalendar.h"
#include "systemdpathunit.h"
#include "systemdunitfile.h"

#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>

namespace hg {
namespace {

QString singleQuoted(const QString &literal)
{
    QString quoted = literal;
    quoted.replace(QLatin1Char('\''), QStringLiteral("'\\''"));
    return QLatin1Char('\'') + quoted + QLatin1Char('\'');
}

// One systemd word as shell text that means exactly what systemd made of it: literal text in
// single quotes (nothing in it is ever run or expanded: not $(...), not `...`, not $$, which
// systemd reads as one '$'), each ${NAME} and $NAME a quoted expansion. A word that is only
// "$NAME" is split at whitespace by systemd: there the expansion stays unquoted (the caller
// turns globbing off).
QString shellWord(const QString &word, bool *splits)
{
    static const QRegularExpression variable(
        QStringLiteral(R"(\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*)))"));
    static const QRegularExpression alone(QStringLiteral(R"(^\$([A-Za-z_][A-Za-z0-9_]*)$)"));
    if (const QRegularExpressionMatch whole = alone.match(word); whole.hasMatch()) {
        *splits = true;
        return QStringLiteral("${%1}").arg(whole.captured(1));
    }
    QString out;
    QString literal;
    const auto flush = [&] {
        if (!literal.isEmpty())
            out += singleQuoted(literal);
        literal.clear();
    };
    for (qsizetype i = 0; i < word.size();) {
        if (word.at(i) != QLatin1Char('$')) {
            literal += word.at(i++);
            continue;
        }
        if (i + 1 < word.size() && word.at(i + 1) == QLatin1Char('$')) {
            literal += QLatin1Char('$');
            i += 2;
            continue;
        }
        const QRegularExpressionMatch match =
            variable.match(word, i, QRegularExpression::NormalMatch,
                           QRegularExpression::AnchorAtOffsetMatchOption);
        if (!match.hasMatch()) {
            literal += word.at(i++);
            continue;
        }
        flush();
        const QString name = match.captured(1).isEmpty() ? match.captured(2) : match.captured(1);
        out += QStringLiteral("\"${%1}\"").arg(name);
        i += match.capturedLength();
    }
    flush();
    return out.isEmpty() ? QStringLiteral("''") : out;
}

} // namespace

QString SystemdTimerImporter::servicePathFor(const QByteArray &timer, const QString &timerPath)
{
    const QFileInfo info(timerPath);
    // A .path unit names its service in [Path], a timer in [Timer].
    const QString section = timerPath.endsWith(QLatin1String(".path")) ? QStringLiteral("Path")
                                                                       : QStringLiteral("Timer");
    const QString unit = SystemdUnitFile::parse(timer).value(
        section, QStringLiteral("Unit"), info.completeBaseName() + QStringLiteral(".service"));
    return info.dir().filePath(unit);
}

qint64 SystemdTimerImporter::spanSeconds(const QString &span)
{
    // systemd.time(7): a number alone is seconds; units may be written together or apart.
    static const QRegularExpression part(QStringLiteral(R"(\s*(\d+)\s*([a-z]*))"));
    static const QHash<QString, qint64> units{{QString(), 1},
                                              {QStringLiteral("s"), 1},
                                              {QStringLiteral("sec"), 1},
                                              {QStringLiteral("second"), 1},
                                              {QStringLiteral("seconds"), 1},
                                              {QStringLiteral("m"), 60},
                                              {QStringLiteral("min"), 60},
                                              {QStringLiteral("minute"), 60},
                                              {QStringLiteral("minutes"), 60},
                                              {QStringLiteral("h"), 3600},
                                              {QStringLiteral("hr"), 3600},
                                              {QStringLiteral("hour"), 3600},
                                              {QStringLiteral("hours"), 3600},
                                              {QStringLiteral("d"), 86400},
                                              {QStringLiteral("day"), 86400},
                                              {QStringLiteral("days"), 86400},
                                              {QStringLiteral("w"), 604800},
                                              {QStringLiteral("week"), 604800},
                                              {QStringLiteral("weeks"), 604800}};
    qint64 seconds = 0;
    qsizetype at = 0;
    const QString trimmed = span.trimmed();
    while (at < trimmed.size()) {
        const QRegularExpressionMatch match =
            part.match(trimmed, at, QRegularExpression::NormalMatch,
                       QRegularExpression::AnchorAtOffsetMatchOption);
        if (!match.hasMatch() || match.capturedLength() == 0 || !units.contains(match.captured(2)))
            return -1;
        seconds += match.captured(1).toLongLong() * units.value(match.captured(2));
        at += match.capturedLength();
    }
    return trimmed.isEmpty() ? -1 : seconds;
}

ImportedDefinitions SystemdTimerImporter::convert(const QByteArray &timerText,
                                                  const QString &timerPath,
                                                  const QByteArray &serviceText,
                                                  const QString &servicePath,
                                                  const Options &options)
{
    ImportedDefinitions out{options.project, {}, ImportReport(QFileInfo(timerPath).fileName())};
    const SystemdUnitFile timer = SystemdUnitFile::parse(timerText);
    const SystemdUnitFile service = SystemdUnitFile::parse(serviceText);
    if (serviceText.isEmpty()) {
        out.report.unreadable(
            QFileInfo(servicePath).fileName(),
            tr("the service this timer starts cannot be read: %1").arg(servicePath));
        return out;
    }
    ChainNamer namer(options.takenChainNames);
    QJsonObject chain{
        {QStringLiteral("name"), namer.fromName(QFileInfo(timerPath).completeBaseName())}};
    const QString description =
        service.value(QStringLiteral("Unit"), QStringLiteral("Description"),
                      timer.value(QStringLiteral("Unit"), QStringLiteral("Description")));
    chain.insert(QStringLiteral("description"),
                 description.isEmpty() ? tr("From %1").arg(QFileInfo(timerPath).fileName())
                                       : description);
    // A .service imported alone: no timer, so no schedule, and nothing of it left out.
    const bool serviceAlone = timerText.isEmpty() && timerPath == servicePath;
    if (serviceAlone)
        out.report.note(QFileInfo(servicePath).fileName(), {},
                        tr("a service without a timer: the chain runs when started (add a "
                           "schedule to run it on a calendar)"));
    // A .path unit starts the service on files: file triggers, no schedule.
    const bool pathUnit = !serviceAlone && timerPath.endsWith(QLatin1String(".path"));
    const QJsonArray triggerArray =
        pathUnit ? SystemdPathUnit::triggers(timer, timerPath, out.report) : QJsonArray();
    const QJsonArray scheduleArray =
        serviceAlone || pathUnit ? QJsonArray() : schedules(timer, timerPath, out.report);
    const QJsonArray taskArray = tasks(service, servicePath, options, chain, out.report);
    if (taskArray.isEmpty())
        return out; // the reason is reported
    chain.insert(QStringLiteral("schedules"), scheduleArray);
    if (!triggerArray.isEmpty()) {
        chain.insert(QStringLiteral("triggers"), triggerArray);
        if (!options.engineName.isEmpty()) {
            chain.insert(QStringLiteral("client"), options.engineName);
            out.report.note(QFileInfo(timerPath).fileName(), {},
                            tr("its files are watched by the engine %1 (this machine's)")
                                .arg(options.engineName));
        }
    }
    chain.insert(QStringLiteral("tasks"), taskArray);
    QJsonArray dependencies;
    for (qsizetype i = 1; i < taskArray.size(); ++i)
        dependencies << QJsonObject{
            {QStringLiteral("task"), taskArray.at(i)[QStringLiteral("name")]},
            {QStringLiteral("upstream"), taskArray.at(i - 1)[QStringLiteral("name")]},
            {QStringLiteral("when"), QStringLiteral("success")}};
    chain.insert(QStringLiteral("dependencies"), dependencies);
    out.chains << chain;
    QStringList shown;
    for (const auto &schedule : scheduleArray)
        shown << schedule[QStringLiteral("expression")].toString()
                     + (schedule[QStringLiteral("timeZone")].toString().isEmpty()
                            ? QString()
                            : QStringLiteral(" in ")
                                  + schedule[QStringLiteral("timeZone")].toString());
    for (const auto &trigger : triggerArray)
        shown << tr("files %1")
                     .arg(trigger[QStringLiteral("file")][QStringLiteral("glob")].toString());
    out.report.converted(QFileInfo(timerPath).fileName(), {},
                         chain[QStringLiteral("name")].toString(),
                         shown.isEmpty() ? tr("no schedule") : shown.join(QStringLiteral("; ")));
    return out;
}

QJsonArray SystemdTimerImporter::schedules(const SystemdUnitFile &timer, const QString &timerPath,
                                           ImportReport &report)
{
    const bool persistent =
        QStringList{QStringLiteral("true"), QStringLiteral("yes"), QStringLiteral("1"),
                    QStringLiteral("on")}
            .contains(timer.value(QStringLiteral("Timer"), QStringLiteral("Persistent")).toLower());
    const QString misfire = persistent ? QStringLiteral("once") : QStringLiteral("skip");
    QJsonArray schedules;
    const auto add = [&](const QString &kind, const QString &expression, const QString &dialect,
                         const QString &zone) {
        schedules << QJsonObject{{QStringLiteral("kind"), kind},
                                 {QStringLiteral("expression"), expression},
                                 {QStringLiteral("dialect"), dialect},
                                 {QStringLiteral("timeZone"), zone},
                                 {QStringLiteral("misfire"), misfire}};
    };
    bool startup = false;
    for (const SystemdUnitFile::Entry &entry : timer.entries()) {
        const QString at = entry.where(timerPath);
        if (entry.section == QLatin1String("Unit") || entry.section == QLatin1String("Install"))
            continue; // the description is the chain's; [Install] only enables the timer
        if (entry.section != QLatin1String("Timer")) {
            report.leftOut(at, entry.text(),
                           tr("section [%1] has no counterpart").arg(entry.section));
            continue;
        }
        const QString &key = entry.key;
        if (key == QLatin1String("OnCalendar")) {
            const Result<SystemdCalendar::Cron> cron = SystemdCalendar::toCron(entry.value);
            if (!cron) {
                report.leftOut(at, entry.text(), cron.error().message);
                continue;
            }
            if (const Result<CronExpression> parsed =
                    CronParser::parse(cron->expression, CronDialect::Seconds);
                !parsed) {
                report.leftOut(at, entry.text(), parsed.error().message);
                continue;
            }
            add(QStringLiteral("cron"), cron->expression, QStringLiteral("seconds"),
                cron->timeZone);
        } else if (key == QLatin1String("OnBootSec") || key == QLatin1String("OnStartupSec")) {
            const qint64 delay = spanSeconds(entry.value);
            if (!startup)
                add(QStringLiteral("startup"), QStringLiteral("@reboot"), QStringLiteral("auto"),
                    {});
            startup = true;
            if (delay != 0)
                report.leftOut(at, entry.text(),
                               tr("runs when the engine starts: the delay of %1 is not kept")
                                   .arg(entry.value));
        } else if (key == QLatin1String("OnUnitActiveSec")
                   || key == QLatin1String("OnUnitInactiveSec")) {
            const qint64 seconds = spanSeconds(entry.value);
            if (seconds <= 0) {
                report.leftOut(at, entry.text(), tr("'%1' is not a time span").arg(entry.value));
                continue;
            }
            const bool afterEnd = key == QLatin1String("OnUnitInactiveSec");
            add(afterEnd ? QStringLiteral("after") : QStringLiteral("every"),
                QStringLiteral("%1 %2 seconds")
                    .arg(afterEnd ? QStringLiteral("@after") : QStringLiteral("@every"))
                    .arg(seconds),
                QStringLiteral("pgtimetable"), {});
        } else if (key == QLatin1String("Persistent") || key == QLatin1String("Unit")) {
            continue; // the misfire policy; the service read
        } else if (key == QLatin1String("AccuracySec")) {
            report.note(at, entry.text(), tr("Hourglass fires at the second; no accuracy window"));
        } else if (key == QLatin1String("RandomizedDelaySec")
                   || key == QLatin1String("FixedRandomDelay")) {
            report.leftOut(at, entry.text(),
                           tr("a random start delay has no counterpart; runs start at their "
                              "fire times"));
        } else {
            report.leftOut(at, entry.text(), tr("%1= has no counterpart").arg(key));
        }
    }
    if (schedules.isEmpty())
        report.leftOut(QFileInfo(timerPath).fileName(), {},
                       tr("no trigger could be imported: the chain runs only when started"));
    return schedules;
}

QJsonArray SystemdTimerImporter::tasks(const SystemdUnitFile &service, const QString &servicePath,
                                       const Options &options, QJsonObject &chain,
                                       ImportReport &report)
{
    QJsonObject environment;
    QString workingDirectory;
    QList<SystemdUnitFile::Entry> commands;
    const QStringList harmless{QStringLiteral("Type"), QStringLiteral("StandardOutput"),
                               QStringLiteral("StandardError"), QStringLiteral("SyslogIdentifier")};
    for (const SystemdUnitFile::Entry &entry : service.entries()) {
        const QString at = entry.where(servicePath);
        const QString &key = entry.key;
        if (entry.section == QLatin1String("Unit")) {
            if (key.startsWith(QLatin1String("Condition"))
                || key.startsWith(QLatin1String("Assert")))
                report.leftOut(at, entry.text(),
                               tr("a condition systemd checks before each run; Hourglass runs "
                                  "the chain without it"));
            else if (key != QLatin1String("Description") && key != QLatin1String("Documentation"))
                report.leftOut(
                    at, entry.text(),
                    tr("%1= relates this unit to others; Hourglass knows no units").arg(key));
            continue;
        }
        if (entry.section == QLatin1String("Install"))
            continue;
        if (key == QLatin1String("ExecStartPre") || key == QLatin1String("ExecStart")
            || key == QLatin1String("ExecStartPost")) {
            commands << entry;
        } else if (key == QLatin1String("WorkingDirectory")) {
            workingDirectory =
                entry.value.startsWith(QLatin1Char('-')) ? entry.value.mid(1) : entry.value;
            if (workingDirectory == QLatin1String("~"))
                workingDirectory = options.homeDirectory;
        } else if (key == QLatin1String("Environment")) {
            QStringList assignments;
            SystemdUnitFile::splitCommandLine(entry.value, assignments);
            for (const QString &assignment : std::as_const(assignments)) {
                const qsizetype equals = assignment.indexOf(QLatin1Char('='));
                if (equals > 0)
                    environment.insert(assignment.left(equals), assignment.mid(equals + 1));
            }
        } else if (key == QLatin1String("User")) {
            if (entry.value != options.currentUser)
                report.leftOut(at, entry.text(),
                               tr("systemd runs it as %1; Hourglass runs it as %2, the user of "
                                  "its engine")
                                   .arg(entry.value, options.currentUser));
        } else if (key == QLatin1String("TimeoutStartSec")) {
            const qint64 seconds = spanSeconds(entry.value);
            if (seconds > 0)
                chain.insert(QStringLiteral("timeoutSeconds"), int(seconds));
            else if (entry.value != QLatin1String("infinity"))
                report.leftOut(at, entry.text(), tr("'%1' is not a time span").arg(entry.value));
        } else if (!harmless.contains(key)) {
            report.leftOut(at, entry.text(), tr("%1= has no counterpart").arg(key));
        }
    }
    if (commands.isEmpty()) {
        report.leftOut(QFileInfo(servicePath).fileName(), {},
                       tr("the service has no ExecStart= line: nothing to run"));
        return {};
    }
    // ExecStartPre=, then ExecStart=, then ExecStartPost=, each group in its order.
    std::stable_sort(commands.begin(), commands.end(), [](const auto &a, const auto &b) {
        const auto rank = [](const QString &key) {
            return key == QLatin1String("ExecStartPre") ? 0
                   : key == QLatin1String("ExecStart")  ? 1
                                                        : 2;
        };
        return rank(a.key) < rank(b.key);
    });
    ChainNamer taskNames;
    QJsonArray tasks;
    for (const SystemdUnitFile::Entry &entry : std::as_const(commands)) {
        const QString at = entry.where(servicePath);
        QString line = entry.value;
        bool ignoreError = false;
        while (!line.isEmpty() && QStringLiteral("-@:+!").contains(line.front())) {
            if (line.front() == QLatin1Char('-'))
                ignoreError = true;
            else if (line.front() != QLatin1Char(':'))
                report.leftOut(at, entry.text(),
                               tr("the '%1' prefix (another argv[0] or more privileges) has no "
                                  "counterpart")
                                   .arg(line.front()));
            line.remove(0, 1);
        }
        // The specifiers a user's timer uses most; any other stays as written, and is said.
        // One pass, left to right, as systemd reads them: "%%h" is "%h", not "%" + home.
        QString expanded;
        QString unknown;
        for (qsizetype i = 0; i < line.size(); ++i) {
            const QChar next = i + 1 < line.size() ? line.at(i + 1) : QChar();
            if (line.at(i) != QLatin1Char('%') || next.isNull()) {
                expanded += line.at(i);
                continue;
            }
            ++i;
            if (next == QLatin1Char('h'))
                expanded += options.homeDirectory;
            else if (next == QLatin1Char('u'))
                expanded += options.currentUser;
            else if (next == QLatin1Char('%'))
                expanded += QLatin1Char('%');
            else {
                if (unknown.isEmpty() && next.isLetter())
                    unknown = QLatin1Char('%') + next;
                expanded += QLatin1Char('%') + next;
            }
        }
        line = expanded;
        if (!unknown.isEmpty())
            report.leftOut(at, entry.text(), tr("the specifier %1 is not replaced").arg(unknown));
        QStringList words;
        if (!SystemdUnitFile::splitCommandLine(line, words) || words.isEmpty()) {
            report.leftOut(at, entry.text(), tr("a quote is not closed"));
            return {};
        }
        QJsonObject task{{QStringLiteral("name"), taskNames.fromName(words.constFirst())},
                         {QStringLiteral("environment"), environment},
                         {QStringLiteral("ignoreError"), ignoreError}};
        if (!workingDirectory.isEmpty())
            task.insert(QStringLiteral("workingDirectory"), workingDirectory);
        static const QRegularExpression anyVariable(
            QStringLiteral(R"((?<!\$)(?:\$\$)*\$(?:\{[A-Za-z_]|[A-Za-z_]))"));
        if (line.contains(anyVariable)) { // systemd expands $VAR: a shell does it here
            QStringList quoted;
            bool splits = false;
            for (const QString &word : std::as_const(words))
                quoted << shellWord(word, &splits);
            task.insert(QStringLiteral("kind"), QStringLiteral("shell"));
            const QString command = quoted.join(QLatin1Char(' '));
            task.insert(QStringLiteral("command"),
                        splits ? QStringLiteral("set -f; ") + command : command);
            report.note(at, entry.text(),
                        tr("runs through /bin/sh, which expands its variables as systemd did"));
        } else {
            // No variable: the words as systemd made them, "$$" being one '$'.
            for (QString &word : words)
                word.replace(QStringLiteral("$$"), QStringLiteral("$"));
            task.insert(QStringLiteral("kind"), QStringLiteral("program"));
            task.insert(QStringLiteral("command"), words.constFirst());
            task.insert(QStringLiteral("arguments"), QJsonArray::fromStringList(words.mid(1)));
        }
        tasks << task;
    }
    return tasks;
}

} // namespace hg
