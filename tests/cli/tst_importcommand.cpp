#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStringEncoder>
#include <QTemporaryDir>
#include <QTest>

// `hourglass import --from crontab` through the real binary on a SQLite store: the report,
// the exit codes, a dry run that writes nothing, and an imported job that runs as cron ran it.
class TestImportCommand final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void crontab_importsWhatConvertsAndExitsOneForTheRest();
    void crontab_dryRunWritesNothing();
    void crontab_importedJobRunsAsCronRanIt();
    void crontab_importedTwiceGetsNewNames();
    void systemd_timerAndServiceRunInOrder();
    void windowsTask_utf16ExportImports();
    void unreadableInput_exitsTwo();
    void hourglassExport_dryRunWritesNothing();

private:
    struct Output
    {
        int exitCode = -1;
        QString out;
        QString err;
    };
    Output run(const QStringList &arguments, const QByteArray &input = {});
    QString write(const QString &name, const QByteArray &text);
    QStringList chainNames();

    QTemporaryDir m_dir;
    QString m_db;
};

void TestImportCommand::init()
{
    m_db = m_dir.filePath(QStringLiteral("%1.db").arg(QLatin1String(QTest::currentTestFunction())));
}

TestImportCommand::Output TestImportCommand::run(const QStringList &arguments,
                                                 const QByteArray &input)
{
    QProcess process;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("XDG_DATA_HOME"), m_dir.path());
    process.setProcessEnvironment(environment);
    process.start(QStringLiteral(HOURGLASS_BINARY),
                  QStringList{QStringLiteral("--db"), m_db} + arguments);
    process.write(input);
    process.closeWriteChannel();
    if (!process.waitForFinished(60000)) {
        process.kill();
        process.waitForFinished();
        return {};
    }
    return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1,
            QString::fromUtf8(process.readAllStandardOutput()),
            QString::fromUtf8(process.readAllStandardError())};
}

QString TestImportCommand::write(const QString &name, const QByteArray &text)
{
    const QString path = m_dir.filePath(name);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(text) != text.size())
        return {};
    return path;
}

QStringList TestImportCommand::chainNames()
{
    const Output listed =
        run({QStringLiteral("chain"), QStringLiteral("list"), QStringLiteral("--json")});
    QStringList names;
    const QJsonArray chains = QJsonDocument::fromJson(listed.out.toUtf8()).array();
    for (const QJsonValue &chain : chains)
        names << chain[QStringLiteral("path")].toString();
    names.sort();
    return names;
}

void TestImportCommand::crontab_importsWhatConvertsAndExitsOneForTheRest()
{
    const QString path = write(QStringLiteral("crontab"), "MAILTO=ops@example.com\n"
                                                          "30 2 * * * /usr/local/bin/backup.sh\n"
                                                          "61 * * * * echo bad\n"
                                                          "@reboot /opt/agent --daemon\n");
    const Output imported =
        run({QStringLiteral("import"), path, QStringLiteral("--from"), QStringLiteral("crontab"),
             QStringLiteral("--into"), QStringLiteral("ops"), QStringLiteral("--json")});
    QCOMPARE(imported.exitCode, 1);
    const QJsonObject report = QJsonDocument::fromJson(imported.out.toUtf8()).object();
    QCOMPARE(report[QStringLiteral("project")].toString(), QStringLiteral("ops"));
    QCOMPARE(report[QStringLiteral("dryRun")].toBool(), false);
    QCOMPARE(report[QStringLiteral("chains")].toArray().size(), 2);
    const QJsonArray leftOut = report[QStringLiteral("leftOut")].toArray();
    QCOMPARE(leftOut.size(), 1); // MAILTO is brought: a route of each chain below it
    QCOMPARE(leftOut.at(0)[QStringLiteral("where")].toString(), QStringLiteral("line 3"));
    QVERIFY(leftOut.at(0)[QStringLiteral("reason")].toString().contains(
        QStringLiteral("minute field (column 1)")));
    const QJsonArray routes =
        QJsonDocument::fromJson(
            run({QStringLiteral("notify"), QStringLiteral("list"), QStringLiteral("--json")})
                .out.toUtf8())
            .array();
    QCOMPARE(routes.size(), 2);
    for (const QJsonValue route : routes) {
        QVERIFY(route[QStringLiteral("channel")].isNull()); // the default e-mail channel
        QCOMPARE(route[QStringLiteral("events")].toArray(), QJsonArray{QStringLiteral("output")});
        QCOMPARE(route[QStringLiteral("to")].toArray(),
                 QJsonArray{QStringLiteral("ops@example.com")});
    }
    QCOMPARE(chainNames(),
             (QStringList{QStringLiteral("ops/agent"), QStringLiteral("ops/backup.sh")}));

    const Output schedules = run({QStringLiteral("schedule"), QStringLiteral("list"),
                                  QStringLiteral("ops/backup.sh"), QStringLiteral("--json")});
    QVERIFY2(schedules.out.contains(QStringLiteral("30 2 * * *")), qPrintable(schedules.out));
}

void TestImportCommand::crontab_dryRunWritesNothing()
{
    const QString path = write(QStringLiteral("crontab"), "0 1 * * * /bin/true\n");
    const Output checked = run({QStringLiteral("import"), path, QStringLiteral("--from"),
                                QStringLiteral("crontab"), QStringLiteral("--dry-run")});
    QCOMPARE(checked.exitCode, 0);
    QVERIFY2(checked.out.contains(QStringLiteral("would import 1 chain(s) into project crontab")),
             qPrintable(checked.out));
    QCOMPARE(chainNames(), QStringList());
}

void TestImportCommand::crontab_importedJobRunsAsCronRanIt()
{
    const QString output = m_dir.filePath(QStringLiteral("out.txt"));
    // bash, a variable from the crontab, the working directory, and '%' as standard input.
    const QByteArray crontab = QStringLiteral("SHELL=/bin/bash\nGREETING=hello\nHOME=%1\n"
                                              "* * * * * cat > out.txt; echo \"$GREETING "
                                              "$BASH_VERSION\" >> out.txt%line one%50\\% done\n")
                                   .arg(m_dir.path())
                                   .toUtf8();
    const Output imported = run({QStringLiteral("import"), QStringLiteral("-"),
                                 QStringLiteral("--from"), QStringLiteral("crontab")},
                                crontab);
    QCOMPARE(imported.exitCode, 0);
    QCOMPARE(chainNames(), QStringList{QStringLiteral("crontab/cat")});
    const Output ran =
        run({QStringLiteral("run"), QStringLiteral("crontab/cat"), QStringLiteral("--wait")});
    QCOMPARE(ran.exitCode, 0);
    QFile file(output);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QList<QByteArray> lines = file.readAll().split('\n');
    QCOMPARE(lines.at(0), QByteArray("line one"));
    QCOMPARE(lines.at(1), QByteArray("50% done"));
    QVERIFY2(lines.at(2).startsWith("hello 5."), lines.at(2).constData()); // bash 5 ran it
}

void TestImportCommand::crontab_importedTwiceGetsNewNames()
{
    const QString path = write(QStringLiteral("crontab"), "0 1 * * * /bin/sync\n");
    const QStringList import{QStringLiteral("import"), path, QStringLiteral("--from"),
                             QStringLiteral("crontab")};
    QCOMPARE(run(import).exitCode, 0);
    QCOMPARE(run(import).exitCode, 0);
    QCOMPARE(chainNames(),
             (QStringList{QStringLiteral("crontab/sync"), QStringLiteral("crontab/sync-2")}));
}

void TestImportCommand::systemd_timerAndServiceRunInOrder()
{
    const QString out = m_dir.filePath(QStringLiteral("systemd-out"));
    const QString timer = write(QStringLiteral("nightly.timer"),
                                "[Timer]\nOnCalendar=Mon..Fri 02:30\nPersistent=true\n");
    write(QStringLiteral("nightly.service"),
          QStringLiteral("[Service]\nType=oneshot\nEnvironment=DIR=%1\n"
                         "ExecStartPre=/bin/mkdir -p ${DIR}\n"
                         "ExecStart=/bin/sh -c 'echo started > %1/log'\n"
                         "ExecStart=-/bin/false\n"
                         "ExecStartPost=/bin/sh -c 'echo done >> %1/log'\n")
              .arg(out)
              .toUtf8());
    const Output imported =
        run({QStringLiteral("import"), timer, QStringLiteral("--from"), QStringLiteral("systemd"),
             QStringLiteral("--into"), QStringLiteral("ops")});
    QCOMPARE(imported.exitCode, 0);
    QVERIFY2(imported.out.contains(QStringLiteral("-> chain ops/nightly (0 30 2 * * MON-FRI)")),
             qPrintable(imported.out));
    const Output ran =
        run({QStringLiteral("run"), QStringLiteral("ops/nightly"), QStringLiteral("--wait")});
    QCOMPARE(ran.exitCode, 0); // /bin/false failed, and its '-' says that is fine
    QFile log(out + QStringLiteral("/log"));
    QVERIFY(log.open(QIODevice::ReadOnly));
    QCOMPARE(log.readAll(), QByteArray("started\ndone\n"));
    // standard input is not a timer: it has no service beside it
    QCOMPARE(run({QStringLiteral("import"), QStringLiteral("-"), QStringLiteral("--from"),
                  QStringLiteral("systemd")})
                 .exitCode,
             2);
}

void TestImportCommand::windowsTask_utf16ExportImports()
{
    // As `schtasks /query /xml` writes it: UTF-16 with a byte-order mark.
    const QString xml = QStringLiteral(
        "<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n<Task version=\"1.3\" "
        "xmlns=\"http://schemas.microsoft.com/windows/2004/02/mit/task\"><RegistrationInfo>"
        "<URI>\\Backups\\Weekly</URI></RegistrationInfo><Triggers><CalendarTrigger>"
        "<StartBoundary>2024-01-01T03:00:00</StartBoundary><ScheduleByWeek><WeeksInterval>1"
        "</WeeksInterval><DaysOfWeek><Sunday /></DaysOfWeek></ScheduleByWeek></CalendarTrigger>"
        "</Triggers><Settings><DisallowStartIfOnBatteries>false</DisallowStartIfOnBatteries>"
        "<StopIfGoingOnBatteries>false</StopIfGoingOnBatteries></Settings>"
        "<Actions><Exec><Command>/bin/true</Command></Exec></Actions></Task>");
    QStringEncoder utf16(QStringEncoder::Utf16LE, QStringEncoder::Flag::WriteBom);
    const QString path = write(QStringLiteral("weekly.xml"), utf16.encode(xml));
    const Output imported = run(
        {QStringLiteral("import"), path, QStringLiteral("--from"), QStringLiteral("windows-task")});
    QCOMPARE(imported.exitCode, 0);
    QVERIFY2(imported.out.contains(QStringLiteral("-> chain windows-task/Weekly (0 0 3 ? * SUN)")),
             qPrintable(imported.out));
    QCOMPARE(run({QStringLiteral("run"), QStringLiteral("windows-task/Weekly"),
                  QStringLiteral("--wait")})
                 .exitCode,
             0);
}

void TestImportCommand::unreadableInput_exitsTwo()
{
    const Output missing = run({QStringLiteral("import"), m_dir.filePath(QStringLiteral("none")),
                                QStringLiteral("--from"), QStringLiteral("crontab")});
    QCOMPARE(missing.exitCode, 2);
    QVERIFY(missing.err.contains(QStringLiteral("cannot read")));
    const Output kind = run({QStringLiteral("import"), QStringLiteral("-"),
                             QStringLiteral("--from"), QStringLiteral("anacron")});
    QCOMPARE(kind.exitCode, 2);
    QVERIFY(kind.err.contains(QStringLiteral("'anacron' is not one of")));
    // A file that opens but is not what --from says is unreadable as a whole too.
    const QStringList before = chainNames();
    const Output notXml =
        run({QStringLiteral("import"), write(QStringLiteral("task.xml"), "<Task><Triggers>"),
             QStringLiteral("--from"), QStringLiteral("windows-task")});
    QCOMPARE(notXml.exitCode, 2);
    QVERIFY2(notXml.out.contains(QStringLiteral("not readable XML")), qPrintable(notXml.out));
    const Output noService =
        run({QStringLiteral("import"),
             write(QStringLiteral("lonely.timer"), "[Timer]\nOnCalendar=daily\n"),
             QStringLiteral("--from"), QStringLiteral("systemd")});
    QCOMPARE(noService.exitCode, 2);
    QVERIFY2(noService.out.contains(QStringLiteral("cannot be read")), qPrintable(noService.out));
    QCOMPARE(chainNames(), before); // nothing imported
}

void TestImportCommand::hourglassExport_dryRunWritesNothing()
{
    QCOMPARE(run({QStringLiteral("project"), QStringLiteral("add"), QStringLiteral("p")}).exitCode,
             0);
    QCOMPARE(run({QStringLiteral("chain"), QStringLiteral("add"), QStringLiteral("p/c")}).exitCode,
             0);
    const Output exported = run({QStringLiteral("export")});
    QCOMPARE(exported.exitCode, 0);
    const QString path = write(
        QStringLiteral("export.json"),
        QString(exported.out).replace(QStringLiteral("\"p\""), QStringLiteral("\"q\"")).toUtf8());
    const Output checked = run({QStringLiteral("import"), path, QStringLiteral("--dry-run")});
    QCOMPARE(checked.exitCode, 0);
    QVERIFY(checked.out.startsWith(QStringLiteral("would import 1 project(s), 1 chain(s)")));
    QCOMPARE(chainNames(), QStringList{QStringLiteral("p/c")});
    // And a problem is found as a real import would find it: p/c exists.
    const QString same =
        write(QStringLiteral("same.json"), run({QStringLiteral("export")}).out.toUtf8());
    const Output conflict = run({QStringLiteral("import"), same, QStringLiteral("--dry-run")});
    QCOMPARE(conflict.exitCode, 2); // as for any name already taken
    QVERIFY(conflict.err.contains(QStringLiteral("already exists")));
}

QTEST_GUILESS_MAIN(TestImportCommand)
#include "tst_importcommand.moc"
