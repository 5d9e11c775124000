#include "testservers.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QSqlRecord>
#include <QTemporaryDir>
#include <QTest>
#include <QTime>

#include <csignal>

using namespace hg;

namespace {

const QString libfaketime = QStringLiteral("/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1");

} // namespace

// A real `hourglass serve` through real jumps of its wall clock: libfaketime moves the
// process's wall clock (read from a file it watches) and leaves the monotonic clock alone, as
// a resume from sleep or an NTP step looks to a process. Six hours forward: the misfire
// policies decide, the cost is said once, and the occurrence ledger and the missed-runs inbox
// hold what was missed. One hour back: said, and nothing fires twice.
class TestClockSteps final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void serve_sixHoursForwardThenOneHourBack();
    void runWait_afterAStepForwardFollowsServeRatherThanTakingItOver();

private:
    int cli(const QStringList &arguments, QByteArray *output = nullptr);
    // libfaketime's wall clock, read from the offset file, for serve and the command line.
    QProcessEnvironment fakedEnvironment() const;
    // The occurrence ledger's rows of the chain, as "outcome cause count".
    QStringList ledgerOf(const QString &path);
    // Runs of the chain scheduled in (from, to]; -2 when a fire time has two runs.
    int runsOf(const QString &chain, const QDateTime &from, const QDateTime &to);
    qint64 lastFireOf(const QString &chain); // its latest run's fire time, ms (0: none)
    QVariantList query(const QString &sql, const QVariantList &values);
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
    setOffset(QStringLiteral("+0"));
}

int TestClockSteps::cli(const QStringList &arguments, QByteArray *output)
{
    QProcess process;
    process.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    process.setProcessEnvironment(fakedEnvironment()); // the same clock as serve's
    process.start(QStringLiteral(HOURGLASS_BINARY),
                  QStringList{QStringLiteral("--db"), m_db} + arguments);
    process.waitForFinished(30000);
    if (output)
        *output = process.readAllStandardOutput();
    return process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
}

QProcessEnvironment TestClockSteps::fakedEnvironment() const
{
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("LD_PRELOAD"), libfaketime);
    environment.insert(QStringLiteral("FAKETIME_TIMESTAMP_FILE"),
                       m_dir.filePath(QStringLiteral("faketime.rc")));
    environment.insert(QStringLiteral("FAKETIME_NO_CACHE"), QStringLiteral("1"));
    environment.insert(QStringLiteral("FAKETIME_DONT_FAKE_MONOTONIC"), QStringLiteral("1"));
    return environment;
}

QStringList TestClockSteps::ledgerOf(const QString &path)
{
    // The ledger as the command line reads it, from a day back.
    QByteArray json;
    if (cli({QStringLiteral("occurrences"), path, QStringLiteral("--since"),
             QDateTime::currentDateTimeUtc().addDays(-1).toString(Qt::ISODate),
             QStringLiteral("--json")},
            &json)
        != 0)
        return {QStringLiteral("occurrences failed")};
    QStringList rows;
    const QJsonArray occurrences =
        QJsonDocument::fromJson(json).object().value(QStringLiteral("occurrences")).toArray();
    for (const QJsonValue &row : occurrences) {
        if (row[QStringLiteral("outcome")].toString() != QLatin1String("ran"))
            rows << QStringLiteral("%1 %2 %3")
                        .arg(row[QStringLiteral("outcome")].toString(),
                             row[QStringLiteral("cause")].toString())
                        .arg(row[QStringLiteral("count")].toInteger());
    }
    return rows;
}

QVariantList TestClockSteps::query(const QString &sql, const QVariantList &values)
{
    QVariantList row;
    {
        QSqlDatabase db =
            QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("count"));
        db.setDatabaseName(m_db);
        if (db.open()) {
            QSqlQuery q(db);
            q.prepare(sql);
            for (const QVariant &value : values)
                q.addBindValue(value);
            if (q.exec() && q.next()) {
                for (int i = 0; i < q.record().count(); ++i)
                    row << q.value(i);
            }
        }
    }
    QSqlDatabase::removeDatabase(QStringLiteral("count"));
    return row;
}

int TestClockSteps::runsOf(const QString &chain, const QDateTime &from, const QDateTime &to)
{
    // A fire time twice would show as fewer distinct times than runs.
    const QVariantList counts = query(
        QStringLiteral("SELECT COUNT(*), COUNT(DISTINCT r.scheduled_for) FROM run r JOIN chain c "
                       "ON c.id = r.chain_id WHERE c.name = ? AND r.scheduled_for > ? AND "
                       "r.scheduled_for <= ?"),
        {chain, from.toMSecsSinceEpoch(), to.toMSecsSinceEpoch()});
    if (counts.size() != 2)
        return -1;
    return counts.at(0).toInt() == counts.at(1).toInt() ? counts.at(0).toInt() : -2;
}

qint64 TestClockSteps::lastFireOf(const QString &chain)
{
    const QVariantList last =
        query(QStringLiteral("SELECT COALESCE(MAX(r.scheduled_for), 0) FROM run r JOIN chain c ON "
                             "c.id = r.chain_id WHERE c.name = ?"),
              {chain});
    return last.isEmpty() ? -1 : last.first().toLongLong();
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
                     QStringLiteral("skip")},
          std::tuple{QStringLiteral("asking"), QStringLiteral("*/10 * * * *"),
                     QStringLiteral("ask")}}) {
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
    serve.setProcessEnvironment(fakedEnvironment());
    serve.start(QStringLiteral(HOURGLASS_BINARY),
                {QStringLiteral("--db"), m_db, QStringLiteral("serve")});
    QVERIFY(serve.waitForStarted());
    QByteArray errors;
    QTRY_VERIFY_WITH_TIMEOUT((errors += serve.readAllStandardError()).contains("serving"), 30000);
    // Six hours forward: 360 fires of the first chain, 72 of the second and 36 of the third
    // missed; policy once runs the first's latest now, skip drops the second's, ask keeps the
    // third's in the inbox. Those counts hold for a step in mid-minute: a step that lands just
    // after a minute begins finds that minute's fire times due too (469, not 468). The engine
    // looks at the clock every second: stepped at second 10 to 40, it has 10 s to have fired
    // the minute's own fire before, and 20 s to see the step before the next minute.
    QTRY_VERIFY_WITH_TIMEOUT(
        QTime::currentTime().second() >= 10 && QTime::currentTime().second() <= 40, 70000);
    // What the step passed over is told apart from the chains' own minutes by fire time, so
    // the real minutes this test may take (runs of the chains' own) do not count.
    const QDateTime steppedAt = QDateTime::currentDateTimeUtc();
    const QDateTime jumpedTo = steppedAt.addSecs(6 * 3600);
    setOffset(QStringLiteral("+6h"));
    QVERIFY2(waitForOutput(serve,
                           QStringLiteral("The clock jumped forward 6 h: 468 runs of 3 chains "
                                          "missed; 1 run now (policy once), 36 wait for a "
                                          "decision (policy ask), 431 skipped"),
                           30000),
             qPrintable(m_output));
    QVERIFY2(waitForOutput(serve, QStringLiteral("missed runs wait for a decision"), 30000),
             qPrintable(m_output));
    QTRY_COMPARE_WITH_TIMEOUT(runsOf(QStringLiteral("every-minute"), steppedAt, jumpedTo), 1,
                              30000);
    QCOMPARE(runsOf(QStringLiteral("every-five"), steppedAt, jumpedTo), 0);
    QCOMPARE(runsOf(QStringLiteral("asking"), steppedAt, jumpedTo), 0);
    // The ledger says what became of each fire time, and why.
    QCOMPARE(ledgerOf(QStringLiteral("p/every-minute")),
             QStringList{QStringLiteral("coalesced clock-step 359")});
    QCOMPARE(ledgerOf(QStringLiteral("p/every-five")),
             QStringList{QStringLiteral("missed clock-step 72")});
    QCOMPARE(ledgerOf(QStringLiteral("p/asking")),
             QStringList{QStringLiteral("missed clock-step 36")});
    QByteArray inbox;
    QCOMPARE(cli({QStringLiteral("missed"), QStringLiteral("--json")}, &inbox), 0);
    const QJsonArray waiting = QJsonDocument::fromJson(inbox).array();
    QCOMPARE(waiting.size(), 1);
    QCOMPARE(waiting.first()[QStringLiteral("chain")].toString(), QStringLiteral("p/asking"));
    QCOMPARE(waiting.first()[QStringLiteral("missed")].toInteger(), 36);
    QCOMPARE(waiting.first()[QStringLiteral("cause")].toString(), QStringLiteral("clock-step"));

    // One hour back: the hour now ahead was seen already; nothing of it fires again.
    setOffset(QStringLiteral("+5h"));
    QVERIFY2(waitForOutput(serve, QStringLiteral("The clock went back 1 h"), 30000),
             qPrintable(m_output));
    // Proof that the engine looked: a chain added now fires every second, past the next minute
    // of that hour. The engine handles due fires in time order, so a fire of the hour ahead
    // would have been made by then.
    const QDateTime back = QDateTime::currentDateTimeUtc().addSecs(5 * 3600);
    const qint64 nextMinute = (back.toMSecsSinceEpoch() / 60000 + 1) * 60000;
    const QString probe = QStringLiteral("p/probe");
    QCOMPARE(cli({QStringLiteral("chain"), QStringLiteral("add"), probe}), 0);
    QCOMPARE(cli({QStringLiteral("task"), QStringLiteral("add"), probe, QStringLiteral("t"),
                  QStringLiteral("--kind"), QStringLiteral("builtin"), QStringLiteral("--command"),
                  QStringLiteral("NoOp")}),
             0);
    QCOMPARE(cli({QStringLiteral("schedule"), QStringLiteral("add"), probe,
                  QStringLiteral("* * * * * *"), QStringLiteral("--dialect"),
                  QStringLiteral("seconds")}),
             0);
    QTRY_VERIFY_WITH_TIMEOUT(lastFireOf(QStringLiteral("probe")) > nextMinute, 120000);
    QCOMPARE(runsOf(QStringLiteral("every-minute"), steppedAt, jumpedTo), 1);
    QCOMPARE(runsOf(QStringLiteral("every-five"), steppedAt, jumpedTo), 0);
    QCOMPARE(runsOf(QStringLiteral("asking"), steppedAt, jumpedTo), 0);
    const QDateTime ever = QDateTime::fromMSecsSinceEpoch(0, Qt::UTC);
    const QDateTime future = jumpedTo.addDays(1);
    for (const QString &chain :
         {QStringLiteral("every-minute"), QStringLiteral("every-five"), QStringLiteral("asking")})
        QVERIFY2(runsOf(chain, ever, future) >= 0, qPrintable(chain)); // no fire time twice
    QCOMPARE(ledgerOf(QStringLiteral("p/asking")),
             QStringList{QStringLiteral("missed clock-step 36")}); // nothing counted twice
    // Said once each.
    m_output += QString::fromUtf8(serve.readAllStandardOutput());
    QCOMPARE(m_output.count(QStringLiteral("The clock")), 2);

    ::kill(pid_t(serve.processId()), SIGTERM);
    QVERIFY(serve.waitForFinished(30000));
    QCOMPARE(serve.exitCode(), 0);
}

// The wall clock stepped forward two hours (an NTP step, a resume): `serve`'s lease, written by
// its own clock, looked run out until its next heartbeat (ten minutes with --lease 3600).
// Before, a `run --wait` then took the store over: it queued its run, ran it itself, expired
// serve's session and interrupted serve's running task, which ran a second time (found by the
// torture test, "step-takeover"). Now a SQLite engine whose process lives still serves.
void TestClockSteps::runWait_afterAStepForwardFollowsServeRatherThanTakingItOver()
{
    m_db = m_dir.filePath(QStringLiteral("lease.db"));
    setOffset(QStringLiteral("+0"));
    const QString ledger = m_dir.filePath(QStringLiteral("ledger"));
    const QString go = m_dir.filePath(QStringLiteral("go"));
    QCOMPARE(cli({QStringLiteral("project"), QStringLiteral("add"), QStringLiteral("p")}), 0);
    QCOMPARE(cli({QStringLiteral("chain"), QStringLiteral("add"), QStringLiteral("p/c")}), 0);
    QCOMPARE(cli({QStringLiteral("task"), QStringLiteral("add"), QStringLiteral("p/c"),
                  QStringLiteral("t"), QStringLiteral("--kind"), QStringLiteral("shell"),
                  QStringLiteral("--command"),
                  QStringLiteral("echo start >> '%1'; while [ ! -e '%2' ]; do sleep 0.1; done")
                      .arg(ledger, go)}),
             0);
    QProcess serve;
    serve.setProcessEnvironment(fakedEnvironment());
    serve.start(QStringLiteral(HOURGLASS_BINARY),
                {QStringLiteral("--db"), m_db, QStringLiteral("serve"), QStringLiteral("--lease"),
                 QStringLiteral("3600")});
    QVERIFY(serve.waitForStarted());
    QByteArray errors;
    QTRY_VERIFY_WITH_TIMEOUT((errors += serve.readAllStandardError()).contains("serving"), 30000);
    QCOMPARE(cli({QStringLiteral("run"), QStringLiteral("p/c")}), 0);
    const auto starts = [&ledger] {
        QFile file(ledger);
        return file.open(QIODevice::ReadOnly) ? file.readAll().count("start") : 0;
    };
    QTRY_COMPARE_WITH_TIMEOUT(starts(), 1, 30000); // serve runs it
    setOffset(QStringLiteral("+2h"));
    QProcess waiter;
    waiter.setProcessEnvironment(fakedEnvironment());
    waiter.start(QStringLiteral(HOURGLASS_BINARY),
                 {QStringLiteral("--db"), m_db, QStringLiteral("run"), QStringLiteral("p/c"),
                  QStringLiteral("--wait")});
    QVERIFY(waiter.waitForStarted());
    QTRY_COMPARE_WITH_TIMEOUT(starts(), 2, 30000); // the waiter's run started, by serve
    QVERIFY(QFile(go).open(QIODevice::WriteOnly));
    QVERIFY(waiter.waitForFinished(60000));
    const QString waited = QString::fromUtf8(waiter.readAllStandardError());
    QVERIFY2(waiter.exitCode() == 0, qPrintable(waited));
    QVERIFY2(!waited.contains(QLatin1String("runs it now")), qPrintable(waited));
    errors += serve.readAllStandardError();
    QVERIFY2(!errors.contains("lost its session"), errors.constData());
    QCOMPARE(starts(), 2); // no attempt twice
    const auto states = [this] {
        QByteArray json;
        QStringList all;
        if (cli({QStringLiteral("runs"), QStringLiteral("--json")}, &json) != 0)
            return QStringLiteral("runs failed");
        for (const QJsonValue &run : QJsonDocument::fromJson(json).array())
            all << run[QStringLiteral("state")].toString();
        return all.join(QLatin1Char(' '));
    };
    QTRY_COMPARE_WITH_TIMEOUT(states(), QStringLiteral("succeeded succeeded"), 30000);
    ::kill(pid_t(serve.processId()), SIGTERM);
    QVERIFY(serve.waitForFinished(30000));
    QCOMPARE(serve.exitCode(), 0);
}

QTEST_GUILESS_MAIN(TestClockSteps)
#include "tst_clocksteps.moc"
