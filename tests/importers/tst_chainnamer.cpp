#include "importers/chainnamer.h"

#include <QTest>

using namespace hg;

class TestChainNamer final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void fromCommand_namesTheProgramItRuns_data();
    void fromCommand_namesTheProgramItRuns();
    void fromCommand_takenNamesGetANumber();
    void manyOfOneName_numberedInOrderEachOnce();
    void fromName_keepsOnlySafeCharacters();
};

void TestChainNamer::fromCommand_namesTheProgramItRuns_data()
{
    QTest::addColumn<QString>("command");
    QTest::addColumn<QString>("name");
    QTest::newRow("path and arguments")
        << "/usr/local/bin/backup.sh --full >> /var/log/backup.log 2>&1"
        << "backup.sh";
    QTest::newRow("cd first") << "cd /srv/app && ./start-worker"
                              << "start-worker";
    // Debian's /etc/cron.d/e2scrub_all
    QTest::newRow("test || assignment")
        << "test -e /run/systemd/system || SERVICE_MODE=1 /sbin/e2scrub_all -A -r"
        << "e2scrub_all";
    // Debian's /etc/crontab
    QTest::newRow("run-parts")
        << "test -x /usr/sbin/anacron || { cd / && run-parts --report /etc/cron.daily; }"
        << "cron.daily";
    QTest::newRow("run-parts alone") << "cd / && run-parts --report /etc/cron.hourly"
                                     << "cron.hourly";
    // Debian's /etc/cron.d/php
    QTest::newRow("bracket test")
        << "[ -x /usr/lib/php/sessionclean ] && if [ ! -d /run/systemd/system ]; then "
           "/usr/lib/php/sessionclean; fi"
        << "sessionclean";
    QTest::newRow("wrappers") << "nice -n 10 timeout 60 flock /tmp/l \"/opt/sync tool/sync\""
                              << "sync";
    QTest::newRow("nothing to name") << "   "
                                     << "job";
}

void TestChainNamer::fromCommand_namesTheProgramItRuns()
{
    QFETCH(QString, command);
    QFETCH(QString, name);
    QCOMPARE(ChainNamer().fromCommand(command), name);
}

void TestChainNamer::fromCommand_takenNamesGetANumber()
{
    ChainNamer namer({QStringLiteral("backup.sh")});
    QCOMPARE(namer.fromCommand(QStringLiteral("/bin/backup.sh a")), QStringLiteral("backup.sh-2"));
    QCOMPARE(namer.fromCommand(QStringLiteral("/bin/backup.sh b")), QStringLiteral("backup.sh-3"));
    QCOMPARE(namer.fromCommand(QStringLiteral("other")), QStringLiteral("other"));
}

// 20,000 lines of one program (a hostile crontab): numbered in order, each name once, the
// numbering carried on rather than counted from 2 again (that was quadratic: minutes).
void TestChainNamer::manyOfOneName_numberedInOrderEachOnce()
{
    ChainNamer namer({QStringLiteral("echo-3")});
    QSet<QString> seen;
    for (int i = 0; i < 20000; ++i) {
        const QString name = namer.fromCommand(QStringLiteral("echo x"));
        QVERIFY2(!seen.contains(name), qPrintable(name));
        seen.insert(name);
    }
    QCOMPARE(seen.size(), 20000);
    QVERIFY(seen.contains(QStringLiteral("echo")));
    QVERIFY(seen.contains(QStringLiteral("echo-2")));
    QVERIFY(!seen.contains(QStringLiteral("echo-3"))); // taken before: skipped
    QVERIFY(seen.contains(QStringLiteral("echo-20001")));
}

void TestChainNamer::fromName_keepsOnlySafeCharacters()
{
    ChainNamer namer;
    QCOMPARE(namer.fromName(QStringLiteral("Nightly Report (v2)")),
             QStringLiteral("Nightly-Report-v2"));
    QCOMPARE(namer.fromName(QStringLiteral("\\Microsoft\\Windows\\Defrag")),
             QStringLiteral("Microsoft-Windows-Defrag"));
    QCOMPARE(namer.fromName(QStringLiteral(".hidden")), QStringLiteral("hidden"));
    QCOMPARE(namer.fromName(QString(300, QLatin1Char('x'))).size(), 60);
}

QTEST_GUILESS_MAIN(TestChainNamer)
#include "tst_chainnamer.moc"
