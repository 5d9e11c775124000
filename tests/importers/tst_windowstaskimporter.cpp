#include "cron/cronparser.h"
#include "importers/windowstaskimporter.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStringDecoder>
#include <QStringEncoder>
#include <QTest>

using namespace hg;

// The converter alone, on a task as `schtasks /query /xml` writes it (UTF-16).
class TestWindowsTaskImporter final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void exportedTask_becomesOneChain();
    void desktopTriggers_becomeTriggers();
    void eachTriggerKind_data();
    void eachTriggerKind();
    void triggers_becomeQuartzSchedules();
    void settings_carryOverOrAreReported();
    void repetition_onlyWhatCronCanSay_data();
    void repetition_onlyWhatCronCanSay();
    void timeTrigger_firesOnceAtItsStart();
    void unreadable_reportedAndNothingImported();
    void undefinedEntity_refusedRatherThanAnArgumentLost();
    void batteryConditions_defaultToTrueWhenLeftOut();
    void durationSeconds_readsXsDuration();

private:
    static ImportedDefinitions convert(const QByteArray &xml);
    static QByteArray exported(const QString &path);
    static QByteArray task(const QString &triggers, const QString &settings = {});
    static QStringList leftOut(const ImportedDefinitions &imported);
    static QStringList expressions(const ImportedDefinitions &imported);
};

ImportedDefinitions TestWindowsTaskImporter::convert(const QByteArray &xml)
{
    return WindowsTaskImporter().convert(xml, QStringLiteral("task.xml"), {});
}

QByteArray TestWindowsTaskImporter::exported(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    // schtasks writes UTF-16 with a byte-order mark; the files here are kept in UTF-8.
    QStringEncoder utf16(QStringEncoder::Utf16LE, QStringEncoder::Flag::WriteBom);
    return utf16.encode(QString::fromUtf8(file.readAll()));
}

QByteArray TestWindowsTaskImporter::task(const QString &triggers, const QString &settings)
{
    return QStringLiteral(
               "<?xml version=\"1.0\"?><Task version=\"1.2\" "
               "xmlns=\"http://schemas.microsoft.com/windows/2004/02/mit/task\">"
               "<Triggers>%1</Triggers><Settings>%2"
               "<DisallowStartIfOnBatteries>false</DisallowStartIfOnBatteries>"
               "<StopIfGoingOnBatteries>false</StopIfGoingOnBatteries></Settings><Actions><Exec>"
               "<Command>/usr/bin/report</Command><Arguments>--all \"two words\"</Arguments>"
               "</Exec></Actions></Task>")
        .arg(triggers, settings)
        .toUtf8();
}

QStringList TestWindowsTaskImporter::leftOut(const ImportedDefinitions &imported)
{
    QStringList items;
    for (const ImportReport::Item &item : imported.report.items()) {
        if (item.kind == ImportReport::Kind::LeftOut)
            items << item.where + QStringLiteral(": ") + item.message;
    }
    return items;
}

QStringList TestWindowsTaskImporter::expressions(const ImportedDefinitions &imported)
{
    QStringList found;
    if (imported.chains.isEmpty())
        return found;
    for (const QJsonValue &schedule : imported.chains.at(0)[QStringLiteral("schedules")].toArray())
        found << schedule[QStringLiteral("expression")].toString();
    return found;
}

void TestWindowsTaskImporter::exportedTask_becomesOneChain()
{
    const QByteArray xml = exported(QStringLiteral(TEST_DATA_DIR "/windows-task.xml"));
    QVERIFY(!xml.isEmpty());
    const ImportedDefinitions imported = convert(xml);
    QCOMPARE(imported.chains.size(), 1);
    const QJsonObject chain = imported.chains.at(0).toObject();
    QCOMPARE(chain[QStringLiteral("name")].toString(), QStringLiteral("Nightly-copy"));
    QCOMPARE(chain[QStringLiteral("description")].toString(),
             QStringLiteral("Copies the day's reports"));
    const QJsonArray tasks = chain[QStringLiteral("tasks")].toArray();
    QCOMPARE(tasks.size(), 1); // SendEmail is a route of the chain, not a task
    const QJsonArray routes = chain[QStringLiteral("notifications")].toArray();
    QCOMPARE(routes.size(), 1);
    QVERIFY(!routes.at(0).toObject().contains(QLatin1String("channel"))); // the default one
    QCOMPARE(routes.at(0)[QStringLiteral("on")].toArray(), QJsonArray{QStringLiteral("success")});
    QCOMPARE(routes.at(0)[QStringLiteral("to")].toArray(),
             (QJsonArray{QStringLiteral("ops@example.org"), QStringLiteral("audit@example.org")}));
    QCOMPARE(tasks.at(0)[QStringLiteral("command")].toString(),
             QStringLiteral("C:\\Windows\\System32\\robocopy.exe"));
    QCOMPARE(
        tasks.at(0)[QStringLiteral("arguments")].toArray(),
        (QJsonArray{QStringLiteral("C:\\Reports\\Daily"), QStringLiteral("\\\\backup\\reports"),
                    QStringLiteral("/MIR"), QStringLiteral("/R:2")}));
    QCOMPARE(tasks.at(0)[QStringLiteral("workingDirectory")].toString(),
             QStringLiteral("C:\\Reports"));
    QCOMPARE(tasks.at(0)[QStringLiteral("maxRetries")].toInt(), 3);
    QCOMPARE(tasks.at(0)[QStringLiteral("retryDelaySeconds")].toInt(), 300);
    QCOMPARE(
        expressions(imported),
        (QStringList{QStringLiteral("0 30 2 ? * MON,WED,FRI"),
                     QStringLiteral("0 0-59/15 8-17 * * ?"), QStringLiteral("0 0 23 ? 1,7 6#1"),
                     QStringLiteral("0 0 23 ? 1,7 6L"), QStringLiteral("0 0 6 1,15 * ?"),
                     QStringLiteral("0 0 6 L * ?"), QStringLiteral("@reboot")}));
    QCOMPARE(leftOut(imported),
             (QStringList{
                 QStringLiteral("Settings/DisallowStartIfOnBatteries: Hourglass runs on battery "
                                "power too"),
                 QStringLiteral("Settings/StopIfGoingOnBatteries: Hourglass does not stop it on "
                                "battery power"),
                 QStringLiteral("Principals/Principal/RunLevel: Hourglass runs tasks with its "
                                "engine's rights, never raised"),
                 QStringLiteral("Triggers/BootTrigger[1]/Delay: runs when the engine starts: the "
                                "delay is not kept")}));
    // The idle trigger is a desktop trigger: idle for the Task Scheduler's default 10 minutes.
    QCOMPARE(chain[QStringLiteral("triggers")].toArray(),
             (QJsonArray{QJsonObject{{QStringLiteral("desktop"),
                                      QJsonObject{{QStringLiteral("event"), QStringLiteral("idle")},
                                                  {QStringLiteral("idle_ms"), 600'000}}}}}));
}

void TestWindowsTaskImporter::desktopTriggers_becomeTriggers()
{
    const ImportedDefinitions imported = convert(
        task(QStringLiteral(
                 "<SessionStateChangeTrigger><StateChange>SessionUnlock</StateChange>"
                 "<UserId>DOMAIN\\ada</UserId></SessionStateChangeTrigger>"
                 "<SessionStateChangeTrigger><StateChange>SessionLock</StateChange>"
                 "</SessionStateChangeTrigger>"
                 "<SessionStateChangeTrigger><Enabled>false</Enabled><StateChange>SessionUnlock"
                 "</StateChange></SessionStateChangeTrigger>"
                 "<IdleTrigger />"),
             QStringLiteral("<IdleSettings><Duration>PT90S</Duration></IdleSettings>")));
    QCOMPARE(imported.chains.size(), 1);
    const QJsonArray triggers = imported.chains.at(0)[QStringLiteral("triggers")].toArray();
    QCOMPARE(triggers.size(), 3);
    QCOMPARE(triggers.at(0)[QStringLiteral("desktop")][QStringLiteral("event")].toString(),
             QStringLiteral("unlock"));
    QVERIFY(!triggers.at(0).toObject().contains(QLatin1String("paused")));
    QCOMPARE(triggers.at(1)[QStringLiteral("paused")].toBool(), true); // Enabled false
    // 90 s is rounded to the minute the desktop's idle hint counts, and said.
    QCOMPARE(triggers.at(2)[QStringLiteral("desktop")][QStringLiteral("idle_ms")].toInteger(),
             120'000);
    QCOMPARE(leftOut(imported),
             QStringList{QStringLiteral("Triggers/SessionStateChangeTrigger[2]/StateChange: only "
                                        "SessionUnlock has a counterpart (a trigger on unlock)")});
    QStringList notes;
    for (const ImportReport::Item &item : imported.report.items())
        if (item.kind == ImportReport::Kind::Note)
            notes << item.where + QStringLiteral(": ") + item.message;
    QVERIFY2(notes.contains(QStringLiteral("Settings/IdleSettings/Duration: idle for 2 minute(s): "
                                           "the desktop's idle hint counts minutes")),
             qPrintable(notes.join(QLatin1Char('\n'))));
}

void TestWindowsTaskImporter::eachTriggerKind_data()
{
    // One exported task per trigger kind of the Task Scheduler schema, each as Windows writes
    // it: the whole task with its principal and default settings.
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QStringList>("expressions");
    const auto row = [](const char *trigger, const char *file, const char *kind,
                        std::initializer_list<const char *> expressions) {
        QStringList expected;
        for (const char *expression : expressions)
            expected << QString::fromLatin1(expression);
        QTest::newRow(trigger) << QString::fromLatin1(file) << QString::fromLatin1(kind)
                               << expected;
    };
    row("TimeTrigger", "time", "once", {"2027-03-14T09:30:00"});
    row("ScheduleByDay", "daily", "cron", {"0 0 6 * * ?"});
    row("ScheduleByWeek", "weekly", "cron", {"0 45 18 ? * TUE,THU"});
    row("ScheduleByMonth", "monthly", "cron", {"0 0 7 10 3,6,9,12 ?", "0 0 7 L 3,6,9,12 ?"});
    row("ScheduleByMonthDayOfWeek", "monthly-day-of-week", "cron", {"0 0 12 ? * 2#2"});
    row("BootTrigger", "boot", "startup", {"@reboot"});
    row("LogonTrigger", "logon", "startup", {"@reboot"});
}

void TestWindowsTaskImporter::eachTriggerKind()
{
    QFETCH(QString, file);
    QFETCH(QString, kind);
    QFETCH(QStringList, expressions);
    const QByteArray xml =
        exported(QStringLiteral(TEST_DATA_DIR "/windows-task-triggers/%1.xml").arg(file));
    QVERIFY(!xml.isEmpty());
    const ImportedDefinitions imported = convert(xml);
    QCOMPARE(imported.chains.size(), 1);
    QCOMPARE(this->expressions(imported), expressions);
    const QJsonArray schedules = imported.chains.at(0)[QStringLiteral("schedules")].toArray();
    for (const QJsonValue &schedule : schedules) {
        QCOMPARE(schedule[QStringLiteral("kind")].toString(), kind);
        if (kind == QLatin1String("cron"))
            QVERIFY(CronParser::parse(schedule[QStringLiteral("expression")].toString(),
                                      CronDialect::Quartz));
    }
    // IgnoreNew: one run at a time, a fire while it runs is skipped; 72 hours at most.
    const QJsonObject chain = imported.chains.at(0).toObject();
    QCOMPARE(chain[QStringLiteral("maxInstances")].toInt(), 1);
    QCOMPARE(chain[QStringLiteral("timeoutSeconds")].toInt(), 72 * 3600);
    QCOMPARE(chain[QStringLiteral("tasks")].toArray().at(0)[QStringLiteral("command")].toString(),
             QStringLiteral("C:\\Tools\\%1.cmd").arg(file));
    // Default settings of a task made in the Task Scheduler's dialog leave nothing out.
    QCOMPARE(leftOut(imported), QStringList());
}

void TestWindowsTaskImporter::triggers_becomeQuartzSchedules()
{
    const ImportedDefinitions imported = convert(task(QStringLiteral(
        "<CalendarTrigger><StartBoundary>2024-03-01T02:30:15</StartBoundary>"
        "<EndBoundary>2025-03-01T00:00:00</EndBoundary>"
        "<ScheduleByDay><DaysInterval>1</DaysInterval></ScheduleByDay></CalendarTrigger>"
        "<CalendarTrigger><StartBoundary>2024-03-01T09:00:00+02:00</StartBoundary><Enabled>false</"
        "Enabled>"
        "<ScheduleByWeek><WeeksInterval>1</WeeksInterval><DaysOfWeek><Sunday/><Saturday/>"
        "</DaysOfWeek></ScheduleByWeek></CalendarTrigger>")));
    QCOMPARE(expressions(imported),
             (QStringList{QStringLiteral("15 30 2 * * ?"), QStringLiteral("0 0 7 ? * SUN,SAT")}));
    const QJsonArray schedules = imported.chains.at(0)[QStringLiteral("schedules")].toArray();
    for (const QJsonValue &schedule : schedules) {
        QCOMPARE(schedule[QStringLiteral("dialect")].toString(), QStringLiteral("quartz"));
        QVERIFY(CronParser::parse(schedule[QStringLiteral("expression")].toString(),
                                  CronDialect::Quartz));
    }
    QCOMPARE(schedules.at(0)[QStringLiteral("timeZone")].toString(), QString());
    QVERIFY(schedules.at(0)[QStringLiteral("activeUntil")].toString().startsWith(
        QStringLiteral("2025-03-01T00:00:00")));
    // An offset means "synchronize across time zones": the instant, in UTC.
    QCOMPARE(schedules.at(1)[QStringLiteral("timeZone")].toString(), QStringLiteral("UTC"));
    QCOMPARE(schedules.at(1)[QStringLiteral("enabled")].toBool(), false);
    QCOMPARE(schedules.at(1)[QStringLiteral("misfire")].toString(), QStringLiteral("skip"));

    const ImportedDefinitions everyOther = convert(task(QStringLiteral(
        "<CalendarTrigger><StartBoundary>2024-03-01T02:30:00</StartBoundary>"
        "<ScheduleByWeek><WeeksInterval>2</WeeksInterval><DaysOfWeek><Monday/></DaysOfWeek>"
        "</ScheduleByWeek></CalendarTrigger>")));
    QCOMPARE(leftOut(everyOther),
             QStringList{QStringLiteral("Triggers/CalendarTrigger[1]/ScheduleByWeek/WeeksInterval: "
                                        "every 2 weeks counts from the start date; cron has no "
                                        "such cadence")});
}

void TestWindowsTaskImporter::settings_carryOverOrAreReported()
{
    const ImportedDefinitions parallel = convert(task(
        {}, QStringLiteral("<MultipleInstancesPolicy>Parallel</MultipleInstancesPolicy>"
                           "<ExecutionTimeLimit>PT0S</ExecutionTimeLimit><Enabled>false</Enabled>"
                           "<StartWhenAvailable>true</StartWhenAvailable>")));
    const QJsonObject chain = parallel.chains.at(0).toObject();
    QCOMPARE(chain[QStringLiteral("maxInstances")].toInt(), 0);
    QVERIFY(!chain.contains(QStringLiteral("timeoutSeconds"))); // PT0S: no limit
    QCOMPARE(chain[QStringLiteral("enabled")].toBool(), false);
    // No trigger: the chain comes along, to be run by hand, and the report says so.
    QCOMPARE(expressions(parallel), QStringList());

    const ImportedDefinitions defaults = convert(task({}));
    const QJsonObject ignoreNew = defaults.chains.at(0).toObject();
    QCOMPARE(ignoreNew[QStringLiteral("maxInstances")].toInt(), 1);
    QCOMPARE(ignoreNew[QStringLiteral("overlap")].toString(), QStringLiteral("skip"));
    QCOMPARE(ignoreNew[QStringLiteral("timeoutSeconds")].toInt(), 72 * 3600);
    QCOMPARE(convert(task({}, QStringLiteral(
                                  "<MultipleInstancesPolicy>Queue</MultipleInstancesPolicy>")))
                 .chains.at(0)[QStringLiteral("overlap")]
                 .toString(),
             QStringLiteral("queue"));
    QCOMPARE(leftOut(convert(task(
                         {}, QStringLiteral(
                                 "<MultipleInstancesPolicy>StopExisting</MultipleInstancesPolicy>"
                                 "<RunOnlyIfIdle>true</RunOnlyIfIdle>"))))
                 .size(),
             2);
    // Start only with a network: the chain's own condition, not left out.
    const ImportedDefinitions online = convert(
        task({}, QStringLiteral("<RunOnlyIfNetworkAvailable>true</RunOnlyIfNetworkAvailable>")));
    QVERIFY(online.chains.at(0)[QStringLiteral("needsNetwork")].toBool());
    QCOMPARE(leftOut(online).size(), 0);
    QVERIFY(!defaults.chains.at(0).toObject().contains(QStringLiteral("needsNetwork")));
}

void TestWindowsTaskImporter::repetition_onlyWhatCronCanSay_data()
{
    QTest::addColumn<QString>("start");
    QTest::addColumn<QString>("repetition");
    QTest::addColumn<QString>("expression"); // empty: left out
    QTest::newRow("every 15 min all day") << "08:05:00"
                                          << "<Interval>PT15M</Interval>"
                                          << "0 5-59/15 * * * ?";
    QTest::newRow("every 15 min for 10 h") << "08:00:00"
                                           << "<Interval>PT15M</Interval><Duration>PT10H</Duration>"
                                           << "0 0-59/15 8-17 * * ?";
    QTest::newRow("every 6 h all day") << "03:00:00"
                                       << "<Interval>PT6H</Interval><Duration>P1D</Duration>"
                                       << "0 0 3,9,15,21 * * ?";
    QTest::newRow("every 2 h for 6 h") << "08:30:00"
                                       << "<Interval>PT2H</Interval><Duration>PT6H</Duration>"
                                       << "0 30 8,10,12 * * ?";
    QTest::newRow("from a late minute") << "08:40:00"
                                        << "<Interval>PT15M</Interval>"
                                        << "";
    QTest::newRow("7 min") << "08:00:00"
                           << "<Interval>PT7M</Interval>"
                           << "";
    QTest::newRow("seconds") << "08:00:00"
                             << "<Interval>PT90S</Interval>"
                             << "";
    QTest::newRow("past midnight") << "22:00:00"
                                   << "<Interval>PT30M</Interval><Duration>PT4H</Duration>"
                                   << "";
}

void TestWindowsTaskImporter::repetition_onlyWhatCronCanSay()
{
    QFETCH(QString, start);
    QFETCH(QString, repetition);
    QFETCH(QString, expression);
    const ImportedDefinitions imported = convert(task(
        QStringLiteral("<CalendarTrigger><StartBoundary>2024-03-01T%1</StartBoundary>"
                       "<Repetition>%2</Repetition><ScheduleByDay><DaysInterval>1</DaysInterval>"
                       "</ScheduleByDay></CalendarTrigger>")
            .arg(start, repetition)));
    if (expression.isEmpty()) {
        QCOMPARE(expressions(imported), QStringList());
        QCOMPARE(leftOut(imported).size(), 1);
        QVERIFY(leftOut(imported).constFirst().startsWith(
            QStringLiteral("Triggers/CalendarTrigger[1]/Repetition: ")));
    } else {
        QCOMPARE(expressions(imported), QStringList{expression});
        QVERIFY(CronParser::parse(expression, CronDialect::Quartz));
    }
}

void TestWindowsTaskImporter::timeTrigger_firesOnceAtItsStart()
{
    const ImportedDefinitions imported = convert(task(QStringLiteral(
        "<TimeTrigger><StartBoundary>2027-01-10T14:00:00</StartBoundary></TimeTrigger>"
        "<TimeTrigger><StartBoundary>2027-01-10T14:00:00</StartBoundary><Repetition>"
        "<Interval>PT1H</Interval></Repetition></TimeTrigger>")));
    const QJsonArray schedules = imported.chains.at(0)[QStringLiteral("schedules")].toArray();
    QCOMPARE(schedules.size(), 2);
    QCOMPARE(schedules.at(0)[QStringLiteral("kind")].toString(), QStringLiteral("once"));
    QCOMPARE(schedules.at(0)[QStringLiteral("expression")].toString(),
             QStringLiteral("2027-01-10T14:00:00"));
    QCOMPARE(schedules.at(1)[QStringLiteral("expression")].toString(),
             QStringLiteral("0 0 * * * ?"));
    QVERIFY(schedules.at(1)[QStringLiteral("activeFrom")].toString().startsWith(
        QStringLiteral("2027-01-10T14:00:00")));
}

void TestWindowsTaskImporter::unreadable_reportedAndNothingImported()
{
    const ImportedDefinitions broken = convert("<Task><Triggers>");
    QVERIFY(broken.chains.isEmpty());
    QVERIFY(leftOut(broken).constFirst().contains(QStringLiteral("not readable XML")));
    const ImportedDefinitions other = convert("<project/>");
    QVERIFY(other.chains.isEmpty());
    QVERIFY(leftOut(other).constFirst().contains(QStringLiteral("not <Task>")));
    const ImportedDefinitions noExec =
        convert("<Task><Actions><SendEmail><Server>x</Server></SendEmail></Actions></Task>");
    QVERIFY(noExec.chains.isEmpty());
    QCOMPARE(leftOut(noExec).size(), 4); // no recipient, no Exec, the two battery defaults

    // The deprecated message box: a desktop notification of its own, the Notify builtin.
    const ImportedDefinitions message =
        convert("<Task><Actions><ShowMessage><Title>Backup</Title><Body>done &amp; dusted</Body>"
                "</ShowMessage></Actions></Task>");
    QCOMPARE(message.chains.size(), 1);
    const QJsonObject notify = message.chains.at(0)[QStringLiteral("tasks")][0].toObject();
    QCOMPARE(notify[QStringLiteral("kind")].toString(), QStringLiteral("builtin"));
    QCOMPARE(notify[QStringLiteral("command")].toString(), QStringLiteral("Notify"));
    QCOMPARE(QJsonDocument::fromJson(notify[QStringLiteral("arguments")][0].toString().toUtf8())
                 .object(),
             (QJsonObject{{QStringLiteral("title"), QStringLiteral("Backup")},
                          {QStringLiteral("message"), QStringLiteral("done & dusted")}}));
    QVERIFY(broken.report.inputUnreadable());
    QVERIFY(other.report.inputUnreadable());
    QVERIFY(!noExec.report.inputUnreadable()); // a task, read, with nothing to run
}

// Qt keeps an entity it cannot resolve as an empty node: the argument built from it vanished.
void TestWindowsTaskImporter::undefinedEntity_refusedRatherThanAnArgumentLost()
{
    const QByteArray external =
        "<?xml version=\"1.0\"?><!DOCTYPE Task [<!ENTITY target SYSTEM \"target.txt\">]>"
        "<Task><Actions><Exec><Command>/usr/bin/rm</Command><Arguments>-rf &target;</Arguments>"
        "</Exec></Actions></Task>";
    const ImportedDefinitions imported = convert(external);
    QVERIFY(imported.chains.isEmpty());
    QVERIFY(imported.report.inputUnreadable());
    QVERIFY2(leftOut(imported).constFirst().contains(QStringLiteral("&target; stands for text")),
             qPrintable(leftOut(imported).join(u'\n')));
    const QByteArray undeclared =
        "<?xml version=\"1.0\"?><!DOCTYPE Task SYSTEM \"task.dtd\">"
        "<Task><Actions><Exec><Command>/usr/bin/rm</Command><Arguments>-rf &foo;</Arguments>"
        "</Exec></Actions></Task>";
    const ImportedDefinitions unresolved = convert(undeclared);
    QVERIFY(unresolved.chains.isEmpty());
    QVERIFY(leftOut(unresolved).constFirst().contains(QStringLiteral("&foo;")));
}

void TestWindowsTaskImporter::batteryConditions_defaultToTrueWhenLeftOut()
{
    // The task schema defaults both to true: a task that omits them waits for AC power.
    const QByteArray omitted =
        "<Task><Settings/><Actions><Exec><Command>/bin/true</Command></Exec></Actions></Task>";
    QCOMPARE(leftOut(convert(omitted)),
             (QStringList{
                 QStringLiteral("Settings/DisallowStartIfOnBatteries: Hourglass runs on battery "
                                "power too"),
                 QStringLiteral("Settings/StopIfGoingOnBatteries: Hourglass does not stop it on "
                                "battery power")}));
    const QByteArray explicitFalse =
        "<Task><Settings><DisallowStartIfOnBatteries>false</DisallowStartIfOnBatteries>"
        "<StopIfGoingOnBatteries>false</StopIfGoingOnBatteries></Settings>"
        "<Actions><Exec><Command>/bin/true</Command></Exec></Actions></Task>";
    QCOMPARE(leftOut(convert(explicitFalse)), QStringList());
}

void TestWindowsTaskImporter::durationSeconds_readsXsDuration()
{
    QCOMPARE(WindowsTaskImporter::durationSeconds(QStringLiteral("PT15M")), 900);
    QCOMPARE(WindowsTaskImporter::durationSeconds(QStringLiteral("P1DT2H")), 93600);
    QCOMPARE(WindowsTaskImporter::durationSeconds(QStringLiteral("PT0S")), 0);
    QCOMPARE(WindowsTaskImporter::durationSeconds(QStringLiteral("P1W")), 604800);
    QCOMPARE(WindowsTaskImporter::durationSeconds(QStringLiteral("P1M")), -1);
    QCOMPARE(WindowsTaskImporter::durationSeconds(QStringLiteral("PT")), -1);
    QCOMPARE(WindowsTaskImporter::durationSeconds(QStringLiteral("15 minutes")), -1);
}

QTEST_GUILESS_MAIN(TestWindowsTaskImporter)
#include "tst_windowstaskimporter.moc"
