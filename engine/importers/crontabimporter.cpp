#include "crontabimporter.h"

#include "cron/cronparser.h"
#include "store/notifychannelrepository.h"

#include <QRegularExpression>
#include <QTimeZone>

#include <pwd.h>

namespace hg {
namespace {

QString where(int lineNumber)
{
    return QStringLiteral("line %1").arg(lineNumber);
}

// The next blank-separated field of REST, which moves past it and the blanks after it.
QString takeField(QStringView &rest)
{
    qsizetype end = 0;
    while (end < rest.size() && rest.at(end) != QLatin1Char(' ')
           && rest.at(end) != QLatin1Char('\t'))
        ++end;
    const QString field = rest.left(end).toString();
    rest = rest.mid(end);
    while (!rest.isEmpty()
           && (rest.front() == QLatin1Char(' ') || rest.front() == QLatin1Char('\t')))
        rest = rest.mid(1);
    return field;
}

QString homeOf(const QString &user)
{
    // getpwnam: the CLI's own thread, once per line; nothing else here calls it.
    const passwd *entry =
        ::getpwnam(user.toLocal8Bit().constData()); // NOLINT(concurrency-mt-unsafe)
    return entry ? QString::fromLocal8Bit(entry->pw_dir) : QString();
}

QString unquoted(const QString &value)
{
    if (value.size() >= 2
        && ((value.startsWith(QLatin1Char('"')) && value.endsWith(QLatin1Char('"')))
            || (value.startsWith(QLatin1Char('\'')) && value.endsWith(QLatin1Char('\'')))))
        return value.mid(1, value.size() - 2);
    return value;
}

} // namespace

bool CrontabImporter::hasUserColumn(const QString &path)
{
    return path == QLatin1String("/etc/crontab") || path.startsWith(QLatin1String("/etc/cron.d/"));
}

ImportedDefinitions CrontabImporter::convert(const QByteArray &text, const QString &source,
                                             const Options &options)
{
    ImportedDefinitions out{options.project, {}, ImportReport(source)};
    ChainNamer namer(options.takenChainNames);
    Environment env;
    env.home = options.userColumn ? QString() : options.homeDirectory;
    // NAME = VALUE, the name bare or quoted (cronie's load_env()).
    static const QRegularExpression assignment(
        QStringLiteral(R"(^\s*("[^"]*"|'[^']*'|[A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$)"));
    const QList<QByteArray> lines = text.split('\n');
    for (qsizetype i = 0; i < lines.size(); ++i) {
        QString line = QString::fromUtf8(lines.at(i));
        if (line.endsWith(QLatin1Char('\r')))
            line.chop(1);
        const QString trimmed = line.trimmed();
        const int lineNumber = int(i) + 1;
        if (trimmed.isEmpty() || trimmed.startsWith(QLatin1Char('#')))
            continue;
        if (const QRegularExpressionMatch match = assignment.match(line); match.hasMatch()) {
            readAssignment(lineNumber, trimmed, unquoted(match.captured(1)),
                           unquoted(match.captured(2)), env, out);
            continue;
        }
        readJob(lineNumber, line, env, options, namer, out);
    }
    return out;
}

void CrontabImporter::readAssignment(int lineNumber, const QString &line, const QString &name,
                                     const QString &value, Environment &env,
                                     ImportedDefinitions &out)
{
    if (name == QLatin1String("SHELL")) {
        env.shell = value.isEmpty() ? QStringLiteral("/bin/sh") : value;
    } else if (name == QLatin1String("HOME")) {
        env.home = value;
        env.variables.insert(name, value);
    } else if (name == QLatin1String("CRON_TZ")) {
        if (value.isEmpty()) {
            env.zone.clear();
            env.badZone.clear();
        } else if (QTimeZone(value.toUtf8()).isValid()) {
            env.zone = value;
            env.badZone.clear();
        } else {
            env.badZone = tr("CRON_TZ '%1' (line %2) is not a time zone this system knows")
                              .arg(value)
                              .arg(lineNumber);
            out.report.leftOut(where(lineNumber), line, env.badZone);
        }
    } else if (name == QLatin1String("MAILTO")) {
        // cron mails a job's output, whenever it prints anything, to these (MAILTO="": to
        // no one): an `output` route of each job's chain, through the default e-mail channel.
        env.mailTo.clear();
        QStringList local;
        for (const QString &part : value.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
            const QString address = part.trimmed();
            if (NotifyChannelRepository::isMailAddress(address))
                env.mailTo << address;
            else if (!address.isEmpty())
                local << address;
        }
        env.mailTo = NotifyChannelRepository::distinctAddresses(env.mailTo);
        if (env.mailTo.size() > NotifyChannelRepository::maxRecipients) {
            out.report.leftOut(where(lineNumber), line,
                               tr("%1 addresses; %2 at most (a list address reaches more)")
                                   .arg(env.mailTo.size())
                                   .arg(NotifyChannelRepository::maxRecipients));
            env.mailTo.clear();
        }
        if (!local.isEmpty())
            out.report.leftOut(where(lineNumber), line,
                               tr("'%1' is not an e-mail address (a local user's mailbox?): "
                                  "Hourglass mails through an SMTP server; give user@host")
                                   .arg(local.join(QStringLiteral(", "))));
        if (!env.mailTo.isEmpty())
            out.report.note(where(lineNumber), line,
                            tr("the jobs below mail their output to %1 whenever they print "
                               "anything, as cron does, through the default e-mail channel")
                                .arg(env.mailTo.join(QStringLiteral(", "))));
    } else if (name == QLatin1String("MAILFROM")) {
        if (!value.isEmpty())
            out.report.leftOut(where(lineNumber), line,
                               tr("mail comes from the e-mail channel's own sender (channel add "
                                  "--from)"));
    } else if (name == QLatin1String("RANDOM_DELAY")) {
        out.report.leftOut(where(lineNumber), line,
                           tr("cronie's random start delay has no counterpart; jobs start at "
                              "their fire times"));
    } else {
        env.variables.insert(name, value);
    }
}

void CrontabImporter::readJob(int lineNumber, const QString &line, const Environment &env,
                              const Options &options, ChainNamer &namer, ImportedDefinitions &out)
{
    const QString trimmed = line.trimmed();
    QStringView rest = QStringView(line).trimmed();
    QString expression;
    bool atStartup = false;
    if (rest.startsWith(QLatin1Char('@'))) {
        expression = takeField(rest);
        static const QSet<QString> macros{QStringLiteral("@yearly"),  QStringLiteral("@annually"),
                                          QStringLiteral("@monthly"), QStringLiteral("@weekly"),
                                          QStringLiteral("@daily"),   QStringLiteral("@midnight"),
                                          QStringLiteral("@hourly")};
        atStartup = expression == QLatin1String("@reboot");
        if (!atStartup && !macros.contains(expression)) {
            out.report.leftOut(where(lineNumber), trimmed,
                               tr("'%1' is not a cron macro (@reboot, @yearly, @annually, "
                                  "@monthly, @weekly, @daily, @midnight, @hourly)")
                                   .arg(expression));
            return;
        }
    } else {
        QStringList fields;
        while (fields.size() < 5 && !rest.isEmpty())
            fields << takeField(rest);
        expression = fields.join(QLatin1Char(' '));
        if (fields.size() < 5) {
            out.report.leftOut(where(lineNumber), trimmed,
                               tr("neither a job (five time fields and a command) nor a "
                                  "NAME=VALUE line"));
            return;
        }
    }
    const QString user = options.userColumn ? takeField(rest) : QString();
    if (rest.isEmpty()) {
        out.report.leftOut(where(lineNumber), trimmed, tr("the line has no command"));
        return;
    }
    if (!env.badZone.isEmpty()) {
        out.report.leftOut(where(lineNumber), trimmed, env.badZone);
        return;
    }
    if (!atStartup) {
        if (const Result<CronExpression> parsed = CronParser::parse(expression, CronDialect::Unix);
            !parsed) {
            out.report.leftOut(where(lineNumber), trimmed, parsed.error().message);
            return;
        }
    }

    // '%': the first ends the command, the rest is its standard input; '\%' is a plain '%'.
    QString command;
    QString input;
    bool inInput = false;
    for (qsizetype i = 0; i < rest.size(); ++i) {
        QString &into = inInput ? input : command;
        const QChar c = rest.at(i);
        if (c == QLatin1Char('\\') && i + 1 < rest.size() && rest.at(i + 1) == QLatin1Char('%')) {
            into += QLatin1Char('%');
            ++i;
        } else if (c == QLatin1Char('%')) {
            if (inInput)
                input += QLatin1Char('\n');
            inInput = true;
        } else {
            into += c;
        }
    }
    const QString name = namer.fromCommand(command);
    if (inInput) {
        QString delimiter = QStringLiteral("HOURGLASS_CRON_INPUT");
        for (int n = 2; input.split(QLatin1Char('\n')).contains(delimiter); ++n)
            delimiter = QStringLiteral("HOURGLASS_CRON_INPUT_%1").arg(n);
        command = QStringLiteral("{ %1\n} <<'%2'\n%3\n%2").arg(command, delimiter, input);
        out.report.note(where(lineNumber), trimmed,
                        tr("the text after '%' is the command's standard input, as a "
                           "here-document"));
    }

    QJsonObject task{{QStringLiteral("name"), name},
                     {QStringLiteral("environment"), env.variables}};
    const QString home = env.home.isEmpty() && options.userColumn ? homeOf(user) : env.home;
    if (!home.isEmpty())
        task.insert(QStringLiteral("workingDirectory"), home);
    if (env.shell == QLatin1String("/bin/sh") || env.shell == QLatin1String("sh")) {
        task.insert(QStringLiteral("kind"), QStringLiteral("shell"));
        task.insert(QStringLiteral("command"), command);
    } else { // SHELL=/bin/bash: cron runs the line with that shell
        task.insert(QStringLiteral("kind"), QStringLiteral("program"));
        task.insert(QStringLiteral("command"), env.shell);
        task.insert(QStringLiteral("arguments"), QJsonArray{QStringLiteral("-c"), command});
    }
    const QJsonObject schedule{
        {QStringLiteral("kind"), atStartup ? QStringLiteral("startup") : QStringLiteral("cron")},
        {QStringLiteral("expression"), expression},
        {QStringLiteral("dialect"), QStringLiteral("unix")},
        {QStringLiteral("timeZone"), env.zone},
        // cron runs nothing it missed while the machine was off
        {QStringLiteral("misfire"), QStringLiteral("skip")}};
    QJsonObject chain{
        {QStringLiteral("name"), name},
        {QStringLiteral("description"),
         tr("From %1, line %2: %3").arg(out.report.source()).arg(lineNumber).arg(trimmed)},
        {QStringLiteral("tasks"), QJsonArray{task}},
        {QStringLiteral("schedules"), QJsonArray{schedule}}};
    if (!env.mailTo.isEmpty()) // no channel: the default e-mail channel
        chain.insert(QStringLiteral("notifications"),
                     QJsonArray{QJsonObject{
                         {QStringLiteral("on"), QJsonArray{QStringLiteral("output")}},
                         {QStringLiteral("to"), QJsonArray::fromStringList(env.mailTo)}}});
    out.chains << chain;
    out.report.converted(where(lineNumber), trimmed, name,
                         atStartup            ? tr("at start-up")
                         : env.zone.isEmpty() ? expression
                                              : tr("%1 in %2").arg(expression, env.zone));
    if (options.userColumn && !user.isEmpty() && user != options.currentUser)
        out.report.leftOut(where(lineNumber), trimmed,
                           tr("cron runs it as %1; Hourglass runs it as %2, the user of its "
                              "engine")
                               .arg(user, options.currentUser));
}

} // namespace hg
