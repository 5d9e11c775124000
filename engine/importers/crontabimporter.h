#pragma once

#include "chainnamer.h"
#include "importeddefinitions.h"

#include <QCoreApplication>
#include <QSet>

namespace hg {

// A user crontab (`crontab -l`) or a system one (/etc/crontab, /etc/cron.d/*, with a user
// column), read as cronie reads it: comments, NAME=VALUE lines (SHELL, PATH, HOME, MAILTO,
// CRON_TZ for the lines after it; the rest become the tasks' environment; MAILTO becomes an
// `output` route to its addresses through the default e-mail channel), @reboot and the
// @daily-style macros, '%' in commands (the first ends the command, the rest is its
// standard input, each further '%' a newline, '\%' a plain '%'), and the unix dialect's
// day-of-month/day-of-week rule. One chain per job line, one task running the line's
// command the way cron does (SHELL -c, in HOME), schedule misfire "skip" as cron has it.
class CrontabImporter final
{
    Q_DECLARE_TR_FUNCTIONS(hg::CrontabImporter)

public:
    struct Options
    {
        QString project = QStringLiteral("crontab");
        bool userColumn = false;
        QSet<QString> takenChainNames; // in the project already
        QString currentUser;           // whose engine runs the jobs
        QString homeDirectory;         // cron's working directory for a user crontab
    };

    // True for /etc/crontab and files in /etc/cron.d, which name a user on each line.
    static bool hasUserColumn(const QString &path);

    ImportedDefinitions convert(const QByteArray &text, const QString &source,
                                const Options &options);

private:
    struct Environment
    {
        QString shell = QStringLiteral("/bin/sh");
        QString home;
        QString zone;          // CRON_TZ; empty: the engine's zone
        QString badZone;       // a CRON_TZ that names no zone, and its line
        QJsonObject variables; // PATH and the rest
        QStringList mailTo;    // MAILTO's addresses: each job's output is mailed to them
    };

    void readAssignment(int lineNumber, const QString &line, const QString &name,
                        const QString &value, Environment &env, ImportedDefinitions &out);
    void readJob(int lineNumber, const QString &line, const Environment &env,
                 const Options &options, ChainNamer &namer, ImportedDefinitions &out);
};

} // namespace hg
