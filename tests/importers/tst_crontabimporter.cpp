#include "importers/crontabimporter.h"

#include <QJsonArray>
#include <QTest>

using namespace hg;

// The converter alone: what each crontab line becomes. tst_importcommand writes and runs it.
class TestCrontabImporter final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void job_becomesAChainWithOneTaskAndItsSchedule();
    void environment_shellPathAndZoneApplyToTheLinesAfter();
    void percent_restBecomesStandardInput();
    void macros_rebootIsAStartupSchedule();
    void badLines_leftOutWithLineAndReason_data();
    void badLines_leftOutWithLineAndReason();
    void mail_becomesAnOutputRouteOfTheJobsBelow();
    void systemCrontab_readsTheUserColumn();
    void names_neverCollideWithTakenOnes();

private:
    static ImportedDefinitions convert(const QByteArray &text,
                                       CrontabImporter::Options options = {});
    static QJsonObject taskOf(const QJsonValue &chain);
    static QJsonObject scheduleOf(const QJsonValue &chain);
    static QStringList leftOut(const ImportedDefinitions &imported);
};

ImportedDefinitions TestCrontabImporter::convert(const QByteArray &text,
                                                 CrontabImporter::Options options)
{
    if (options.currentUser.isEmpty())
        options.currentUser = QStringLiteral("alice");
    if (options.homeDirectory.isEmpty())
        options.homeDirectory = QStringLiteral("/home/alice");
    return CrontabImporter().convert(text, QStringLiteral("crontab"), options);
}

QJsonObject TestCrontabImporter::taskOf(const QJsonValue &chain)
{
    return chain[QStringLiteral("tasks")].toArray().at(0).toObject();
}

QJsonObject TestCrontabImporter::scheduleOf(const QJsonValue &chain)
{
    return chain[QStringLiteral("schedules")].toArray().at(0).toObject();
}

QStringList TestCrontabImporter::leftOut(const ImportedDefinitions &imported)
{
    QStringList items;
    for (const ImportReport::Item &item : imported.report.items()) {
        if (item.kind == ImportReport::Kind::LeftOut)
            items << item.where + QStringLiteral(": ") + item.message;
    }
    return items;
}

void TestCrontabImporter::job_becomesAChainWithOneTaskAndItsSchedule()
{
    const ImportedDefinitions imported =
        convert("# backups\n\n  30 2 * * 1-5   /usr/local/bin/backup.sh --full  \n");
    QCOMPARE(imported.chains.size(), 1);
    const QJsonValue chain = imported.chains.at(0);
    QCOMPARE(chain[QStringLiteral("name")].toString(), QStringLiteral("backup.sh"));
    QVERIFY(chain[QStringLiteral("description")].toString().contains(QStringLiteral("line 3")));
    const QJsonObject task = taskOf(chain);
    QCOMPARE(task[QStringLiteral("kind")].toString(), QStringLiteral("shell"));
    QCOMPARE(task[QStringLiteral("command")].toString(),
             QStringLiteral("/usr/local/bin/backup.sh --full"));
    QCOMPARE(task[QStringLiteral("workingDirectory")].toString(), QStringLiteral("/home/alice"));
    const QJsonObject schedule = scheduleOf(chain);
    QCOMPARE(schedule[QStringLiteral("kind")].toString(), QStringLiteral("cron"));
    QCOMPARE(schedule[QStringLiteral("expression")].toString(), QStringLiteral("30 2 * * 1-5"));
    QCOMPARE(schedule[QStringLiteral("dialect")].toString(), QStringLiteral("unix"));
    QCOMPARE(schedule[QStringLiteral("misfire")].toString(), QStringLiteral("skip"));
    QCOMPARE(schedule[QStringLiteral("timeZone")].toString(), QString());
    QVERIFY(!imported.report.leftSomethingOut());
    QCOMPARE(imported.report.items().at(0).where, QStringLiteral("line 3"));
}

void TestCrontabImporter::environment_shellPathAndZoneApplyToTheLinesAfter()
{
    const ImportedDefinitions imported = convert("0 1 * * * first\n"
                                                 "SHELL=/bin/bash\n"
                                                 "PATH = \"/opt/bin:/usr/bin:/bin\"\n"
                                                 "HOME=/srv\n"
                                                 "CRON_TZ=Europe/Berlin\n"
                                                 "0 2 * * * second\n"
                                                 "CRON_TZ=\n"
                                                 "0 3 * * * third\n");
    QCOMPARE(imported.chains.size(), 3);
    const QJsonObject first = taskOf(imported.chains.at(0));
    QCOMPARE(first[QStringLiteral("kind")].toString(), QStringLiteral("shell"));
    QVERIFY(first[QStringLiteral("environment")].toObject().isEmpty());
    QCOMPARE(scheduleOf(imported.chains.at(0))[QStringLiteral("timeZone")].toString(), QString());

    const QJsonObject second = taskOf(imported.chains.at(1));
    QCOMPARE(second[QStringLiteral("kind")].toString(), QStringLiteral("program"));
    QCOMPARE(second[QStringLiteral("command")].toString(), QStringLiteral("/bin/bash"));
    QCOMPARE(second[QStringLiteral("arguments")].toArray(),
             (QJsonArray{QStringLiteral("-c"), QStringLiteral("second")}));
    QCOMPARE(second[QStringLiteral("environment")][QStringLiteral("PATH")].toString(),
             QStringLiteral("/opt/bin:/usr/bin:/bin"));
    QCOMPARE(second[QStringLiteral("workingDirectory")].toString(), QStringLiteral("/srv"));
    QCOMPARE(scheduleOf(imported.chains.at(1))[QStringLiteral("timeZone")].toString(),
             QStringLiteral("Europe/Berlin"));
    QCOMPARE(scheduleOf(imported.chains.at(2))[QStringLiteral("timeZone")].toString(), QString());
}

void TestCrontabImporter::percent_restBecomesStandardInput()
{
    const ImportedDefinitions imported =
        convert("0 5 * * * mail -s \"50\\% off\" root%Hello,%the report.%\n");
    QCOMPARE(imported.chains.size(), 1);
    QCOMPARE(imported.chains.at(0)[QStringLiteral("name")].toString(), QStringLiteral("mail"));
    QCOMPARE(taskOf(imported.chains.at(0))[QStringLiteral("command")].toString(),
             QStringLiteral("{ mail -s \"50% off\" root\n} <<'HOURGLASS_CRON_INPUT'\n"
                            "Hello,\nthe report.\n\nHOURGLASS_CRON_INPUT"));
    QCOMPARE(imported.report.count(ImportReport::Kind::Note), 1);

    // The here-document's end marker never appears in the input itself.
    const ImportedDefinitions tricky = convert("* * * * * cat%HOURGLASS_CRON_INPUT%x\n");
    QVERIFY(taskOf(tricky.chains.at(0))[QStringLiteral("command")].toString().endsWith(
        QStringLiteral("\nHOURGLASS_CRON_INPUT_2")));
}

void TestCrontabImporter::macros_rebootIsAStartupSchedule()
{
    const ImportedDefinitions imported = convert("@reboot /opt/agent\n@daily /opt/daily\n"
                                                 "@annually /opt/yearly\n");
    QCOMPARE(imported.chains.size(), 3);
    QCOMPARE(scheduleOf(imported.chains.at(0))[QStringLiteral("kind")].toString(),
             QStringLiteral("startup"));
    QCOMPARE(scheduleOf(imported.chains.at(1))[QStringLiteral("expression")].toString(),
             QStringLiteral("@daily"));
    QCOMPARE(scheduleOf(imported.chains.at(2))[QStringLiteral("expression")].toString(),
             QStringLiteral("@annually"));
}

void TestCrontabImporter::badLines_leftOutWithLineAndReason_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("reason");
    QTest::newRow("minute out of range")
        << QByteArray("\n61 * * * * echo") << "line 2: cron: minute field (column 1)";
    QTest::newRow("never fires") << QByteArray("0 5 31 2 * echo")
                                 << "line 1: cron: '0 5 31 2 *' never fires";
    QTest::newRow("too few fields") << QByteArray("0 5 * *") << "line 1: neither a job";
    QTest::newRow("no command") << QByteArray("0 5 * * *   ") << "line 1: the line has no command";
    QTest::newRow("unknown macro")
        << QByteArray("@fortnightly x") << "line 1: '@fortnightly' is not a cron macro";
    QTest::newRow("unknown zone")
        << QByteArray("CRON_TZ=Mars/Olympus\n0 1 * * * x")
        << "line 1: CRON_TZ 'Mars/Olympus' (line 1) is not a time zone this system knows";
    QTest::newRow("random delay") << QByteArray("RANDOM_DELAY=30") << "line 1: cronie's random";
}

void TestCrontabImporter::badLines_leftOutWithLineAndReason()
{
    QFETCH(QByteArray, text);
    QFETCH(QString, reason);
    const ImportedDefinitions imported = convert(text);
    QVERIFY(imported.report.leftSomethingOut());
    QVERIFY2(leftOut(imported).constFirst().startsWith(reason),
             qPrintable(leftOut(imported).join(QLatin1Char('\n'))));
    QVERIFY(imported.chains.isEmpty());
}

void TestCrontabImporter::mail_becomesAnOutputRouteOfTheJobsBelow()
{
    // MAILTO="": cron mails no one; before any MAILTO, cron mails the local user (not brought).
    const ImportedDefinitions none = convert("0 1 * * * x\nMAILTO=\"\"\n0 2 * * * y\n");
    QVERIFY(!none.report.leftSomethingOut());
    for (const QJsonValue chain : none.chains)
        QVERIFY(!chain.toObject().contains(QLatin1String("notifications")));

    const ImportedDefinitions mailed = convert("0 1 * * * a\n"
                                               "MAILTO=ops@example.com, dba@example.com\n"
                                               "0 2 * * * b\n"
                                               "MAILTO=\"\"\n"
                                               "0 3 * * * c\n");
    QVERIFY(!mailed.report.leftSomethingOut());
    QCOMPARE(mailed.chains.size(), 3);
    QVERIFY(!mailed.chains.at(0).toObject().contains(QLatin1String("notifications")));
    const QJsonArray routes = mailed.chains.at(1)[QLatin1String("notifications")].toArray();
    QCOMPARE(routes.size(), 1);
    const QJsonObject route = routes.at(0).toObject();
    QVERIFY(!route.contains(QLatin1String("channel"))); // the default e-mail channel
    QCOMPARE(route[QLatin1String("on")].toArray(), QJsonArray{QStringLiteral("output")});
    QCOMPARE(route[QLatin1String("to")].toArray(),
             (QJsonArray{QStringLiteral("ops@example.com"), QStringLiteral("dba@example.com")}));
    QVERIFY(!mailed.chains.at(2).toObject().contains(QLatin1String("notifications")));

    // A local mailbox is no address an SMTP server takes: left out, saying so.
    const ImportedDefinitions local = convert("MAILTO=root\n0 1 * * * x\n");
    QCOMPARE(leftOut(local).size(), 1);
    QVERIFY2(leftOut(local).at(0).contains(QLatin1String("user@host")),
             qPrintable(leftOut(local).at(0)));
    QVERIFY(!local.chains.at(0).toObject().contains(QLatin1String("notifications")));

    // Repeats collapse; a@b@c is no address (a server refuses it later, and the mail is lost).
    const ImportedDefinitions repeated =
        convert("MAILTO=a@example.org,A@EXAMPLE.ORG,a@example.org,b@c@d\n0 1 * * * x\n");
    QCOMPARE(
        repeated.chains.at(0)[QLatin1String("notifications")][0][QLatin1String("to")].toArray(),
        QJsonArray{QStringLiteral("a@example.org")});
    QCOMPARE(leftOut(repeated).size(), 1);

    // The report shows a line's control characters, never sends them to the terminal.
    const ImportedDefinitions hostile = convert("MAILTO=x\x1b[2J\n0 1 * * * x\n");
    const QString text = hostile.report.toText(QStringLiteral("crontab"), true);
    QVERIFY2(!text.contains(QChar(0x1b)) && text.contains(QLatin1String("\\e[2J")),
             qPrintable(text));
}

void TestCrontabImporter::systemCrontab_readsTheUserColumn()
{
    QVERIFY(CrontabImporter::hasUserColumn(QStringLiteral("/etc/crontab")));
    QVERIFY(CrontabImporter::hasUserColumn(QStringLiteral("/etc/cron.d/e2scrub_all")));
    QVERIFY(!CrontabImporter::hasUserColumn(QStringLiteral("/home/alice/crontab.txt")));
    CrontabImporter::Options options;
    options.userColumn = true;
    options.currentUser = QStringLiteral("root");
    // Debian's /etc/cron.d/e2scrub_all, as shipped.
    const ImportedDefinitions imported = convert(
        "30 3 * * 0 root test -e /run/systemd/system || SERVICE_MODE=1 "
        "/usr/lib/x86_64-linux-gnu/e2fsprogs/e2scrub_all_cron\n"
        "10 3 * * * root test -e /run/systemd/system || SERVICE_MODE=1 /sbin/e2scrub_all -A -r\n"
        "0 4 * * * www-data /usr/bin/php /srv/cleanup.php\n",
        options);
    QCOMPARE(imported.chains.size(), 3);
    QCOMPARE(imported.chains.at(0)[QStringLiteral("name")].toString(),
             QStringLiteral("e2scrub_all_cron"));
    QCOMPARE(imported.chains.at(1)[QStringLiteral("name")].toString(),
             QStringLiteral("e2scrub_all"));
    QVERIFY(taskOf(imported.chains.at(1))[QStringLiteral("command")].toString().startsWith(
        QStringLiteral("test -e")));
    QCOMPARE(taskOf(imported.chains.at(0))[QStringLiteral("workingDirectory")].toString(),
             QStringLiteral("/root"));
    // Another user's job comes along, but the report says whose it was.
    QCOMPARE(leftOut(imported),
             QStringList{QStringLiteral("line 3: cron runs it as www-data; Hourglass runs it as "
                                        "root, the user of its engine")});
}

void TestCrontabImporter::names_neverCollideWithTakenOnes()
{
    CrontabImporter::Options options;
    options.takenChainNames = {QStringLiteral("sync")};
    const ImportedDefinitions imported =
        convert("0 1 * * * /bin/sync\n0 2 * * * /bin/sync\n", options);
    QCOMPARE(imported.chains.at(0)[QStringLiteral("name")].toString(), QStringLiteral("sync-2"));
    QCOMPARE(imported.chains.at(1)[QStringLiteral("name")].toString(), QStringLiteral("sync-3"));
}

QTEST_GUILESS_MAIN(TestCrontabImporter)
#include "tst_crontabimporter.moc"
