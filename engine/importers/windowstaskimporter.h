#pragma once

#include "importeddefinitions.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QSet>

class QDomElement;

namespace hg {

// A Windows Task Scheduler task exported as XML (`schtasks /query /xml`, schema 1.2 to 1.4,
// UTF-16 or UTF-8) as one chain. Calendar triggers (daily, weekly, monthly, monthly on a
// weekday) become Quartz-dialect schedules, the dialect whose day-or-weekday rule and L and #
// say what Windows says; a time trigger fires once; boot and logon triggers run at start-up;
// a session-unlock trigger and an idle trigger become desktop triggers;
// a repetition interval that divides the hour or the day becomes a step. Exec actions are
// program tasks in a line; the execution time limit, restart on failure and the
// multiple-instances policy carry over. Everything else is reported with its element path.
class WindowsTaskImporter final
{
    Q_DECLARE_TR_FUNCTIONS(hg::WindowsTaskImporter)

public:
    struct Options
    {
        QString project = QStringLiteral("windows-task");
        QSet<QString> takenChainNames;
        QString engineName; // set: a chain with desktop triggers is watched by this engine
    };

    // xs:duration ("PT15M", "P1DT2H") in seconds; -1 when it is none.
    static qint64 durationSeconds(const QString &duration);

    // An unreadable document leaves the report with its one reason and no chain.
    ImportedDefinitions convert(const QByteArray &xml, const QString &path, const Options &options);

private:
    struct Fires
    {
        QString second;
        QString minute;
        QString hour;
    };

    // Time triggers into schedules, desktop ones (unlock, idle) into triggers.
    void readTriggers(const QDomElement &triggers, const QDomElement &settings, bool catchUp,
                      QJsonArray &schedules, QJsonArray &desktopTriggers);
    void readDesktopTrigger(const QDomElement &trigger, const QString &where,
                            const QDomElement &settings, QJsonArray &desktopTriggers);
    void readCalendarTrigger(const QDomElement &trigger, const QString &where, bool catchUp,
                             QJsonArray &schedules);
    void readTimeTrigger(const QDomElement &trigger, const QString &where, bool catchUp,
                         QJsonArray &schedules);
    // The time-of-day fields of a trigger, its repetition folded in; false when reported.
    bool firesOf(const QDomElement &trigger, const QString &where, const QDateTime &start,
                 bool daily, Fires &fires);
    QJsonArray readActions(const QDomElement &actions, const QDomElement &settings);
    void readSendEmail(const QString &where, const QDomElement &action);
    void readSettings(const QDomElement &settings, QJsonObject &chain);
    void readPrincipals(const QDomElement &principals);
    QJsonObject schedule(const QString &kind, const QString &expression, const QString &zone,
                         const QDomElement &trigger, bool catchUp) const;

    ImportReport *m_report = nullptr;
    QJsonArray m_routes; // the task's SendEmail actions, as routes of its chain
};

} // namespace hg
