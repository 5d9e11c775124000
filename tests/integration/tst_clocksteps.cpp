#include "testservers.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

using namespace hg;

namespace {

const QString libfaketime = QStringLiteral("/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1");

} // namespace

// A real `hourglass serve` through real jumps of its wall clock: libfaketime moves the
// process's wall clock (read from a file it watches) and leaves the monotonic clock alone, as
// a resume from sleep or an NTP step looks to a process. Six hours forward: the misfire
// policies decide, and the cost is said once. One hour back: said, and nothing fires twice.
class TestClockSteps final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void serve_sixHoursForwardThenOneHourBack();

private:
    int cli(const QStringList &arguments);
    int runsOf(const QString &chain);
    bool waitForOutput(QProcess &serve, const QString &text, int timeoutMs);
    void setOffset(const QString &offset);

    QTemporaryDir m_dir;
    QString m_db;
    QString m_output;
};

void TestClockSteps::initTestCase()
{
    if (!QFileInfo::exists(libfaketime)) {
        if (test::requireServers())
            QFAIL("libfaketime is not installed (Debian package faketime)");
        QSKIP("libfaketime is not installed (Debian package faketime)");
    }
    m_db = m_dir.filePath(QStringLiteral("store.db"));
}

int TestClockSteps::cli(const QStringList &arguments)
{
    QProcess process;
    process.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    process.start(QStringLiteral(HOURGLASS_BINARY),
                  QStringList{QStringLiteral("--db"), m_db} + arguments);
    process.waitForFinished(30000);
    return process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
}

int TestClockSteps::runsOf(const QString &chain)
{
    int count = -1;
    {
        QSqlDatabase db =
            QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("count"));
        db.setDatabaseName(m_db);
        if (db.open()) {
            QSqlQuery q(db);
            q.prepare(QStringLiteral("SELECT COUNT(*), COUNT(DISTINCT r.scheduled_for) FROM run r "
                                     "JOIN chain c ON c.id = r.chain_id WHERE c.name = ?"));
            q.addBindValue(chain);
            // A fire time twice would show as fewer distinct times than runs.
            if (q.exec() && q.next())
                count = q.value(0).toInt() == q.value(1).toInt() ? q.value(0).toInt() : -2;
        }
    }
    QSqlDatabase::removeDatabase(QStringLiteral("count"));
    return count;
}

void TestClockSteps::setOffset(const QString &offset)
{
    QFile rc(m_dir.filePath(QStringLiteral("faketime.rc")));
    QVERIFY(rc.open(QIODevice::WriteOnly | QIODevice::Truncate));
    rc.write(offset.toUtf8() + '\n');
}

bool TestClockSteps::waitForOutput(QProcess &serve, const QString &text, int timeoutMs)
{
    QElapsedTimer waited;
    waited.start();
    while (waited.elapsed() < timeoutMs) {
        m_output += QString::fromUtf8(serve.readAllStandardOutput());
        if (m_output.contains(text))
            return true;
        serve.waitForReadyRead(100);
    }
    return false;
}

void TestClockSteps::serve_sixHoursForwardThenOneHourBack()
{
    QCOMPARE(cli({QStringLiteral("project"), QStringLiteral("add"), QStringLiteral("p")}), 0);
    for (const auto &[chain, expression, misfire] :
         {std::tuple{QStringLiteral("every-minute"), QStringLiteral("* * * * *"),
                     QStringLiteral("once")},
          std::tuple{QStringLiteral("every-five"), QStringLiteral("*/5 * * * *"),
                     QStringLiteral("skip")}}) {
        const QString path = QStringLiteral("p/") + chain;
        QCOMPARE(cli({QStringLiteral("chain"), QStringLiteral("add"), path}), 0);
        QCOMPARE(cli({QStringLiteral("task"), QStringLiteral("add"), path, QStringLiteral("t"),
                      QStringLiteral("--kind"), QStringLiteral("builtin"),
                      QStringLiteral("--command"), QStringLiteral("NoOp")}),
                 0);
        QCOMPARE(cli({QStringLiteral("schedule"), QStringLiteral("add"), path, expression,
                      QStringLiteral("--tz"), QStringLiteral("UTC"), QStringLiteral("--misfire"),
                      misfire}),
                 0);
    }
    setOffset(QStringLiteral("+0"));
    QProcess serve;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("LD_PRELOAD"), libfaketime);
    environment.insert(QStringLiteral("FAKETIME_TIMESTAMP_FILE"),
                       m_dir.filePath(QStringLiteral("faketime.rc")));
    environment.insert(QStringLiteral("FAKETIME_NO_CACHE"), QStringLiteral("1"));
    environment.insert(QStringLiteral("FAKETIME_DONT_FAKE_MONOTONIC"), QStringLiteral("1"));
    serve.setProcessEnvironment(environment);
    serve.start(QStringLiteral(HOURGLASS_BINARY),
                {QStringLiteral("--db"), m_db, QStringLiteral("serve")});
    QVERIFY(serve.waitForStarted());
    QByteArray errors;
    QTRY_VERIFY_WITH_TIMEOUT((errors += serve.readAllStandardError()).contains("serving"), 10000);
    const int minuteRuns = runsOf(QStringLiteral("every-minute"));
    const int fiveRuns = runsOf(QStringLiteral("every-five"));
    QVERIFY(minuteRuns >= 0 && fiveRuns >= 0);

    // Six hours forward: 360 fires of the first chain and 72 of the second missed; policy once
    // runs the first's latest now, skip drops the second's.
    setOffset(QStringLiteral("+6h"));
    QVERIFY2(waitForOutput(serve,
                           QStringLiteral("The clock jumped forward 6 h: 432 runs of 2 chains "
                                          "missed; 1 run now (policy once), 431 skipped"),
                           5000),
             qPrintable(m_output));
    QTRY_COMPARE_WITH_TIMEOUT(runsOf(QStringLiteral("every-minute")), minuteRuns + 1, 5000);
    QCOMPARE(runsOf(QStringLiteral("every-five")), fiveRuns);

    // One hour back: the hour now ahead was seen already; nothing of it fires again.
    setOffset(QStringLiteral("+5h"));
    QVERIFY2(waitForOutput(serve, QStringLiteral("The clock went back 1 h"), 5000),
             qPrintable(m_output));
    QTest::qWait(3000);
    QCOMPARE(runsOf(QStringLiteral("every-minute")), minuteRuns + 1);
    QCOMPARE(runsOf(QStringLiteral("every-five")), fiveRuns);
    // Said once each.
    m_output += QString::fromUtf8(serve.readAllStandardOutput());
    QCOMPARE(m_output.count(QStringLiteral("The clock")), 2);

    ::kill(pid_t(serve.processId()), SIGTERM);
    QVERIFY(serve.waitForFinished(10000));
    QCOMPARE(serve.exitCode(), 0);
}

QTEST_GUILESS_MAIN(TestClockSteps)
#include "tst_clocksteps.moc"
