#include "importers/systemdtimerimporter.h"

#include <QFileInfo>
#include <QJsonArray>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace hg;

// The converter alone, on units written as Debian ships them; tst_importcommand runs one.
class TestSystemdTimerImporter final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void timer_becomesOneChainWithItsSchedules();
    void service_commandsRunInOrderWithItsEnvironment();
    void keysWithoutCounterpart_reportedWithFileAndLine();
    void missingService_leftOutAndNothingImported();
    void pathUnit_becomesFileTriggers();
    void spanSeconds_readsSystemdSpans();
    void servicePathFor_followsUnit();
    void commandLine_expandsAsSystemdDoesAndRunsNothingElse();
    void commandLine_doubleDollarIsOneDollarWithoutVariables();
    void specifiers_readLeftToRight();

private:
    static ImportedDefinitions convert(const QByteArray &timer, const QByteArray &service);
    static QStringList leftOut(const ImportedDefinitions &imported);
};

ImportedDefinitions TestSystemdTimerImporter::convert(const QByteArray &timer,
                                                      const QByteArray &service)
{
    SystemdTimerImporter::Options options;
    options.currentUser = QStringLiteral("alice");
    options.homeDirectory = QStringLiteral("/home/alice");
    return SystemdTimerImporter().convert(
        timer, QStringLiteral("/etc/systemd/system/report.timer"), service,
        QStringLiteral("/etc/systemd/system/report.service"), options);
}

QStringList TestSystemdTimerImporter::leftOut(const ImportedDefinitions &imported)
{
    QStringList items;
    for (const ImportReport::Item &item : imported.report.items()) {
        if (item.kind == ImportReport::Kind::LeftOut)
            items << item.where + QStringLiteral(": ") + item.message;
    }
    return items;
}

void TestSystemdTimerImporter::timer_becomesOneChainWithItsSchedules()
{
    const ImportedDefinitions imported = convert("[Unit]\nDescription=Daily report\n"
                                                 "[Timer]\n"
                                                 "OnCalendar=Mon..Fri 07:00 Europe/Berlin\n"
                                                 "OnCalendar=Sat 09:00\n"
                                                 "OnBootSec=0\n"
                                                 "OnUnitActiveSec=1h 30min\n"
                                                 "OnUnitInactiveSec=10min\n"
                                                 "Persistent=true\n"
                                                 "[Install]\nWantedBy=timers.target\n",
                                                 "[Service]\nExecStart=/usr/bin/report\n");
    QCOMPARE(imported.chains.size(), 1);
    const QJsonObject chain = imported.chains.at(0).toObject();
    QCOMPARE(chain[QStringLiteral("name")].toString(), QStringLiteral("report"));
    QCOMPARE(chain[QStringLiteral("description")].toString(), QStringLiteral("Daily report"));
    const QJsonArray schedules = chain[QStringLiteral("schedules")].toArray();
    QCOMPARE(schedules.size(), 5);
    QCOMPARE(schedules.at(0)[QStringLiteral("expression")].toString(),
             QStringLiteral("0 0 7 * * MON-FRI"));
    QCOMPARE(schedules.at(0)[QStringLiteral("dialect")].toString(), QStringLiteral("seconds"));
    QCOMPARE(schedules.at(0)[QStringLiteral("timeZone")].toString(),
             QStringLiteral("Europe/Berlin"));
    QCOMPARE(schedules.at(0)[QStringLiteral("misfire")].toString(), QStringLiteral("once"));
    QCOMPARE(schedules.at(2)[QStringLiteral("kind")].toString(), QStringLiteral("startup"));
    QCOMPARE(schedules.at(3)[QStringLiteral("expression")].toString(),
             QStringLiteral("@every 5400 seconds"));
    QCOMPARE(schedules.at(4)[QStringLiteral("kind")].toString(), QStringLiteral("after"));
    QCOMPARE(schedules.at(4)[QStringLiteral("expression")].toString(),
             QStringLiteral("@after 600 seconds"));
    QCOMPARE(leftOut(imported), QStringList());
}

void TestSystemdTimerImporter::service_commandsRunInOrderWithItsEnvironment()
{
    const ImportedDefinitions imported = convert(
        "[Timer]\nOnCalendar=daily\n", "[Service]\n"
                                       "Type=oneshot\n"
                                       "User=alice\n"
                                       "WorkingDirectory=-~\n"
                                       "Environment=\"OUT=/var/out\" MODE=full\n"
                                       "TimeoutStartSec=15min\n"
                                       "ExecStartPost=/bin/touch done\n"
                                       "ExecStart=-/usr/bin/report --mode \"quick and full\"\n"
                                       "ExecStartPre=/bin/mkdir -p ${OUT}\n");
    const QJsonObject chain = imported.chains.at(0).toObject();
    QCOMPARE(chain[QStringLiteral("timeoutSeconds")].toInt(), 900);
    const QJsonArray tasks = chain[QStringLiteral("tasks")].toArray();
    QCOMPARE(tasks.size(), 3);
    // ExecStartPre= first, through a shell because systemd would expand ${OUT}.
    QCOMPARE(tasks.at(0)[QStringLiteral("kind")].toString(), QStringLiteral("shell"));
    QCOMPARE(tasks.at(0)[QStringLiteral("command")].toString(),
             QStringLiteral("'/bin/mkdir' '-p' \"${OUT}\""));
    QCOMPARE(tasks.at(1)[QStringLiteral("kind")].toString(), QStringLiteral("program"));
    QCOMPARE(tasks.at(1)[QStringLiteral("command")].toString(), QStringLiteral("/usr/bin/report"));
    QCOMPARE(tasks.at(1)[QStringLiteral("arguments")].toArray(),
             (QJsonArray{QStringLiteral("--mode"), QStringLiteral("quick and full")}));
    QCOMPARE(tasks.at(1)[QStringLiteral("ignoreError")].toBool(), true);
    QCOMPARE(tasks.at(1)[QStringLiteral("workingDirectory")].toString(),
             QStringLiteral("/home/alice"));
    QCOMPARE(tasks.at(1)[QStringLiteral("environment")][QStringLiteral("OUT")].toString(),
             QStringLiteral("/var/out"));
    QCOMPARE(tasks.at(2)[QStringLiteral("name")].toString(), QStringLiteral("touch"));
    const QJsonArray edges = chain[QStringLiteral("dependencies")].toArray();
    QCOMPARE(edges.size(), 2);
    QCOMPARE(edges.at(0)[QStringLiteral("task")].toString(), QStringLiteral("report"));
    QCOMPARE(edges.at(0)[QStringLiteral("upstream")].toString(), QStringLiteral("mkdir"));
    QCOMPARE(edges.at(1)[QStringLiteral("upstream")].toString(), QStringLiteral("report"));
    QCOMPARE(leftOut(imported), QStringList());
}

void TestSystemdTimerImporter::keysWithoutCounterpart_reportedWithFileAndLine()
{
    // Debian's man-db.timer and a shortened man-db.service.
    const ImportedDefinitions imported =
        convert("[Unit]\nDescription=Daily man-db regeneration\n"
                "[Timer]\nOnCalendar=daily\nAccuracySec=12h\nPersistent=true\n"
                "RandomizedDelaySec=1h\n",
                "[Unit]\nConditionACPower=true\nAfter=local-fs.target\n"
                "[Service]\nExecStart=+/usr/bin/mandb --quiet\nUser=man\nNice=19\n");
    QCOMPARE(imported.chains.size(), 1);
    QCOMPARE(leftOut(imported),
             (QStringList{QStringLiteral("report.timer:7: a random start delay has no "
                                         "counterpart; runs start at their fire times"),
                          QStringLiteral("report.service:2: a condition systemd checks before "
                                         "each run; Hourglass runs the chain without it"),
                          QStringLiteral("report.service:3: After= relates this unit to others; "
                                         "Hourglass knows no units"),
                          QStringLiteral("report.service:6: systemd runs it as man; Hourglass "
                                         "runs it as alice, the user of its engine"),
                          QStringLiteral("report.service:7: Nice= has no counterpart"),
                          QStringLiteral("report.service:5: the '+' prefix (another argv[0] or "
                                         "more privileges) has no counterpart")}));
    QCOMPARE(imported.report.count(ImportReport::Kind::Note), 1); // AccuracySec
}

void TestSystemdTimerImporter::missingService_leftOutAndNothingImported()
{
    const ImportedDefinitions imported = convert("[Timer]\nOnCalendar=daily\n", {});
    QVERIFY(imported.chains.isEmpty());
    QCOMPARE(leftOut(imported).size(), 1);
    QVERIFY(leftOut(imported).constFirst().contains(QStringLiteral("cannot be read")));
    QVERIFY(convert("[Timer]\nOnCalendar=daily\n", "[Service]\nType=oneshot\n").chains.isEmpty());
}

void TestSystemdTimerImporter::pathUnit_becomesFileTriggers()
{
    const QByteArray unit = "[Unit]\nDescription=Upload what arrives\n"
                            "[Path]\n"
                            "PathExistsGlob=/srv/in/*.csv\n"
                            "PathChanged=/etc/app.conf\n"
                            "DirectoryNotEmpty=/var/spool/app/\n"
                            "PathModified=/var/log/app/\n"
                            "PathExists=relative/file\n"
                            "TriggerLimitIntervalSec=10s\n"
                            "TriggerLimitBurst=5\n"
                            "MakeDirectory=yes\n"
                            "Unit=upload.service\n"
                            "[Install]\nWantedBy=paths.target\n";
    QCOMPARE(SystemdTimerImporter::servicePathFor(unit, QStringLiteral("/u/watch.path")),
             QStringLiteral("/u/upload.service"));
    SystemdTimerImporter::Options options;
    options.currentUser = QStringLiteral("alice");
    options.engineName = QStringLiteral("box");
    const ImportedDefinitions imported = SystemdTimerImporter().convert(
        unit, QStringLiteral("/u/watch.path"), "[Service]\nExecStart=/usr/bin/upload\n",
        QStringLiteral("/u/upload.service"), options);
    QCOMPARE(imported.chains.size(), 1);
    const QJsonObject chain = imported.chains.at(0).toObject();
    QCOMPARE(chain[QStringLiteral("schedules")].toArray().size(), 0);
    // Files are this machine's: on a shared store the chain names the engine here.
    QCOMPARE(chain[QStringLiteral("client")].toString(), QStringLiteral("box"));
    const QJsonArray triggers = chain[QStringLiteral("triggers")].toArray();
    QCOMPARE(triggers.size(), 4);
    QStringList globs;
    for (const QJsonValue &trigger : triggers) {
        const QJsonObject file = trigger[QStringLiteral("file")].toObject();
        globs << file[QStringLiteral("glob")].toString();
        QCOMPARE(file[QStringLiteral("settle_ms")].toInteger(), 0);
        QCOMPARE(file[QStringLiteral("max_per_minute")].toInteger(), 30); // 5 in 10 s
        QCOMPARE(file[QStringLiteral("misfire")].toString(), QStringLiteral("once"));
    }
    QCOMPARE(globs,
             (QStringList{QStringLiteral("/srv/in/*.csv"), QStringLiteral("/etc/app.conf"),
                          QStringLiteral("/var/spool/app/*"), QStringLiteral("/var/log/app/*")}));
    QCOMPARE(triggers.at(0)[QStringLiteral("file")][QStringLiteral("events")].toArray(),
             (QJsonArray{QStringLiteral("created"), QStringLiteral("moved")}));
    QCOMPARE(triggers.at(1)[QStringLiteral("file")][QStringLiteral("events")].toArray().size(), 4);
    const QStringList left = leftOut(imported);
    QCOMPARE(left.size(), 2);
    QVERIFY2(left.at(0).startsWith(QStringLiteral("watch.path:8: --file: 'relative/file' is not "
                                                  "an absolute path")),
             qPrintable(left.join(QLatin1Char('\n'))));
    QVERIFY(left.at(1).startsWith(QStringLiteral("watch.path:11: Hourglass does not make")));
}

void TestSystemdTimerImporter::spanSeconds_readsSystemdSpans()
{
    QCOMPARE(SystemdTimerImporter::spanSeconds(QStringLiteral("90")), 90);
    QCOMPARE(SystemdTimerImporter::spanSeconds(QStringLiteral("5min")), 300);
    QCOMPARE(SystemdTimerImporter::spanSeconds(QStringLiteral("1h 30min")), 5400);
    QCOMPARE(SystemdTimerImporter::spanSeconds(QStringLiteral("2 days")), 172800);
    QCOMPARE(SystemdTimerImporter::spanSeconds(QStringLiteral("1w")), 604800);
    QCOMPARE(SystemdTimerImporter::spanSeconds(QStringLiteral("soon")), -1);
    QCOMPARE(SystemdTimerImporter::spanSeconds(QString()), -1);
}

void TestSystemdTimerImporter::servicePathFor_followsUnit()
{
    QCOMPARE(SystemdTimerImporter::servicePathFor("[Timer]\nOnCalendar=daily\n",
                                                  QStringLiteral("/u/a.timer")),
             QStringLiteral("/u/a.service"));
    QCOMPARE(SystemdTimerImporter::servicePathFor("[Timer]\nUnit=b.service\n",
                                                  QStringLiteral("/u/a.timer")),
             QStringLiteral("/u/b.service"));
}

// systemd expands $VAR and ${VAR} and reads $$ as '$'; nothing else in a word is special
// (backquotes are no quotes to it: `touch PWNED2` is two words). The
// imported shell command, run by a real /bin/sh, must give exactly systemd's words: no
// command substitution, no PID for $$, no backquotes.
void TestSystemdTimerImporter::commandLine_expandsAsSystemdDoesAndRunsNothingElse()
{
    const ImportedDefinitions imported =
        convert("[Timer]\nOnCalendar=daily\n",
                "[Service]\nEnvironment=\"A=one two\" B=x\n"
                "ExecStart=/usr/bin/printf '%%s|' '$(touch PWNED)' $$HOME ${A} $A pre${B}post "
                "`touch PWNED2` \"$$$$\" *\n");
    const QJsonObject task =
        imported.chains.at(0)[QStringLiteral("tasks")].toArray().at(0).toObject();
    QCOMPARE(task[QStringLiteral("kind")].toString(), QStringLiteral("shell"));
    QTemporaryDir folder;
    QVERIFY(folder.isValid());
    QProcess shell;
    shell.setWorkingDirectory(folder.path());
    QProcessEnvironment environment;
    environment.insert(QStringLiteral("A"), QStringLiteral("one two"));
    environment.insert(QStringLiteral("B"), QStringLiteral("x"));
    environment.insert(QStringLiteral("HOME"), QStringLiteral("/home/alice"));
    shell.setProcessEnvironment(environment);
    shell.start(QStringLiteral("/bin/sh"),
                {QStringLiteral("-c"), task[QStringLiteral("command")].toString()});
    QVERIFY(shell.waitForFinished(10000));
    QCOMPARE(shell.exitCode(), 0);
    QCOMPARE(QString::fromUtf8(shell.readAllStandardOutput()),
             QStringLiteral("$(touch PWNED)|$HOME|one two|one|two|prexpost|`touch|PWNED2`|$$|*|"));
    QVERIFY(!QFileInfo::exists(folder.filePath(QStringLiteral("PWNED"))));
    QVERIFY(!QFileInfo::exists(folder.filePath(QStringLiteral("PWNED2"))));
}

void TestSystemdTimerImporter::commandLine_doubleDollarIsOneDollarWithoutVariables()
{
    const ImportedDefinitions imported =
        convert("[Timer]\nOnCalendar=daily\n", "[Service]\nExecStart=/bin/echo $$ 'a$$b'\n");
    const QJsonObject task =
        imported.chains.at(0)[QStringLiteral("tasks")].toArray().at(0).toObject();
    QCOMPARE(task[QStringLiteral("kind")].toString(), QStringLiteral("program"));
    QCOMPARE(task[QStringLiteral("arguments")].toArray(),
             (QJsonArray{QStringLiteral("$"), QStringLiteral("a$b")}));
}

// systemd reads specifiers left to right: "%%h" is a literal "%h" (found by a hostile test:
// it became "%" and the home folder).
void TestSystemdTimerImporter::specifiers_readLeftToRight()
{
    const ImportedDefinitions imported = convert(
        "[Timer]\nOnCalendar=daily\n", "[Service]\nExecStart=/bin/echo %%h %h 100%% %%%%\n");
    const QJsonObject task =
        imported.chains.at(0)[QStringLiteral("tasks")].toArray().at(0).toObject();
    const QJsonArray arguments = task[QStringLiteral("arguments")].toArray();
    QCOMPARE(arguments.size(), 4);
    QCOMPARE(arguments.at(0).toString(), QStringLiteral("%h"));
    QVERIFY(!arguments.at(1).toString().contains(QLatin1Char('%')));
    QCOMPARE(arguments.at(2).toString(), QStringLiteral("100%"));
    QCOMPARE(arguments.at(3).toString(), QStringLiteral("%%"));
}

QTEST_GUILESS_MAIN(TestSystemdTimerImporter)
#include "tst_systemdtimerimporter.moc"
