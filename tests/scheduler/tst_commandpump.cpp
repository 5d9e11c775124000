#include "fixtures.h"
#include "scheduler/commandpump.h"
#include "store/commandrepository.h"
#include "testservers.h"
#include "teststore.h"

#include <QJsonArray>
#include <QTest>

using namespace hg;

// The command table read and applied, on a real store, with handlers that record what the
// engine would have been asked to do.
class TestCommandPump final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void pump_appliesEachKind_data();
    void pump_appliesEachKind();
    void pump_takesAtMostABatch();
    void pump_leavesAnotherEnginesCommands();
};

namespace {

const QString engineName = QStringLiteral("this-engine");

struct Recorder
{
    QStringList calls;
    bool active = true; // what stop, pause and resume answer

    CommandPump::Handlers handlers()
    {
        CommandPump::Handlers h;
        h.admit = [this](qint64 runId, const std::optional<QSet<qint64>> &only) {
            QString call = QStringLiteral("admit %1").arg(runId);
            if (only) {
                QList<qint64> ids = only->values();
                std::sort(ids.begin(), ids.end());
                QStringList text;
                for (qint64 id : ids)
                    text << QString::number(id);
                call += QStringLiteral(" only [%1]").arg(text.join(QLatin1Char(',')));
            }
            calls << call;
        };
        h.stop = [this](qint64 runId) {
            calls << QStringLiteral("stop %1").arg(runId);
            return active;
        };
        h.pause = [this](qint64 runId) {
            calls << QStringLiteral("pause %1").arg(runId);
            return active;
        };
        h.resume = [this](qint64 runId) {
            calls << QStringLiteral("resume %1").arg(runId);
            return active;
        };
        return h;
    }
};

Command command(CommandKind kind, qint64 runId, const QJsonObject &payload = {})
{
    Command c;
    c.kind = kind;
    c.runId = runId;
    c.payload = payload;
    return c;
}

} // namespace

void TestCommandPump::pump_appliesEachKind_data()
{
    QTest::addColumn<int>("kind");
    QTest::addColumn<QJsonObject>("payload");
    QTest::addColumn<bool>("active");
    QTest::addColumn<QString>("call"); // %1: the run id
    QTest::addColumn<QString>("error");
    const auto k = [](CommandKind kind) {
        return int(kind);
    };
    QTest::newRow("start") << k(CommandKind::Start) << QJsonObject() << true
                           << QStringLiteral("admit %1") << QString();
    QTest::newRow("rerun") << k(CommandKind::Rerun) << QJsonObject() << true
                           << QStringLiteral("admit %1") << QString();
    QTest::newRow("backfill") << k(CommandKind::Backfill) << QJsonObject() << true
                              << QStringLiteral("admit %1") << QString();
    QTest::newRow("rerun-failed: only its tasks")
        << k(CommandKind::RerunFailed) << QJsonObject{{QStringLiteral("tasks"), QJsonArray{12, 3}}}
        << true << QStringLiteral("admit %1 only [3,12]") << QString();
    QTest::newRow("rerun-failed without tasks: none")
        << k(CommandKind::RerunFailed) << QJsonObject() << true
        << QStringLiteral("admit %1 only []") << QString();
    QTest::newRow("stop") << k(CommandKind::Stop) << QJsonObject() << true
                          << QStringLiteral("stop %1") << QString();
    QTest::newRow("stop, run not active: refused")
        << k(CommandKind::Stop) << QJsonObject() << false << QStringLiteral("stop %1")
        << QStringLiteral("run %1 is not active");
    QTest::newRow("pause") << k(CommandKind::Pause) << QJsonObject() << true
                           << QStringLiteral("pause %1") << QString();
    QTest::newRow("pause, run not running: refused")
        << k(CommandKind::Pause) << QJsonObject() << false << QStringLiteral("pause %1")
        << QStringLiteral("run %1 is not running");
    QTest::newRow("resume") << k(CommandKind::Resume) << QJsonObject() << true
                            << QStringLiteral("resume %1") << QString();
    QTest::newRow("resume, run not running: refused")
        << k(CommandKind::Resume) << QJsonObject() << false << QStringLiteral("resume %1")
        << QStringLiteral("run %1 is not running");
}

void TestCommandPump::pump_appliesEachKind()
{
    QFETCH(int, kind);
    QFETCH(QJsonObject, payload);
    QFETCH(bool, active);
    QFETCH(QString, call);
    QFETCH(QString, error);
    HG_TEST_STORE(t);
    const Chain chain = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("c"));
    const Run run = test::queueRun(t.store(), chain.id);
    QVERIFY(run.id > 0);
    const Result<Command> queued =
        CommandRepository(t.store()).enqueue(command(CommandKind(kind), run.id, payload));
    QVERIFY(queued);

    Recorder recorder;
    recorder.active = active;
    CommandPump pump(t.store(), engineName, recorder.handlers());
    QCOMPARE(pump.pump(), 1);
    QCOMPARE(recorder.calls, QStringList{call.arg(run.id)});
    const Command done = CommandRepository(t.store()).byId(queued->id).value();
    QVERIFY(done.doneAt.isValid());
    QCOMPARE(done.claimedBy, engineName);
    QCOMPARE(done.error, error.isEmpty() ? QString() : error.arg(run.id));
    QCOMPARE(pump.pump(), 0); // done once only
}

void TestCommandPump::pump_takesAtMostABatch()
{
    HG_TEST_STORE(t);
    const Chain chain = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("c"));
    const Run run = test::queueRun(t.store(), chain.id);
    const int total = CommandPump::batchLimit + 5;
    int enqueued = 0;
    (void)t.store().transaction([&] {
        for (int i = 0; i < total; ++i)
            enqueued +=
                CommandRepository(t.store()).enqueue(command(CommandKind::Start, run.id)) ? 1 : 0;
        return Status{};
    });
    QCOMPARE(enqueued, total);
    Recorder recorder;
    CommandPump pump(t.store(), engineName, recorder.handlers());
    QCOMPARE(pump.pump(), CommandPump::batchLimit);
    QCOMPARE(pump.pump(), 5);
    QCOMPARE(recorder.calls.size(), total);
}

void TestCommandPump::pump_leavesAnotherEnginesCommands()
{
    HG_TEST_STORE(t);
    const Chain chain = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("c"));
    const Run run = test::queueRun(t.store(), chain.id);
    Command theirs = command(CommandKind::Stop, run.id);
    theirs.targetEngine = QStringLiteral("elsewhere");
    const Result<Command> queued = CommandRepository(t.store()).enqueue(theirs);
    QVERIFY(queued);
    Recorder recorder;
    CommandPump pump(t.store(), engineName, recorder.handlers());
    QCOMPARE(pump.pump(), 0);
    QVERIFY(recorder.calls.isEmpty());
    QVERIFY(!CommandRepository(t.store()).byId(queued->id)->doneAt.isValid());
}

QTEST_GUILESS_MAIN(TestCommandPump)
#include "tst_commandpump.moc"
