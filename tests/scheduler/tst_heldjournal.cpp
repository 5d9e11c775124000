#include "scheduler/heldjournal.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace hg;

// The journal an engine leaves when it must stop while its store refuses writes: what it
// saves is what the next engine loads, a second stop adds to the first, and where the
// store's directory takes nothing the user's runtime directory does.
class TestHeldJournal final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void save_thenLoad_givesBackEveryChangeInOrder();
    void unwritableStoreDirectory_fallsBackToTheRuntimeDirectory();
    void damagedJournal_isAnErrorNamingIt();
    void anotherFileAtThePath_neitherLoadsNorAddsToItsJournal();

private:
    static HeldJournal::Contents sample(qint64 runId);
    QTemporaryDir m_runtime;
};

void TestHeldJournal::initTestCase()
{
    qputenv("XDG_RUNTIME_DIR", QFile::encodeName(m_runtime.path()));
    QFile::setPermissions(m_runtime.path(), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
}

HeldJournal::Contents TestHeldJournal::sample(qint64 runId)
{
    RunRecorder::Held ended;
    ended.runId = runId;
    ended.taskRun.id = 7;
    ended.taskRun.runId = runId;
    ended.taskRun.taskId = 3;
    ended.taskRun.attempt = 2;
    ended.taskRun.state = RunState::Succeeded;
    ended.taskRun.exitCode = 0;
    ended.taskRun.pid = 4242;
    ended.taskRun.startedAt = QDateTime::fromMSecsSinceEpoch(1'700'000'000'000, Qt::UTC);
    ended.taskRun.finishedAt = QDateTime::fromMSecsSinceEpoch(1'700'000'001'500, Qt::UTC);
    RunRecorder::Held run;
    run.runId = runId;
    run.state = RunState::Succeeded;
    run.at = ended.taskRun.finishedAt;
    run.engineName = QStringLiteral("laptop");
    LogLine marker{0, runId, 7, LogStream::System, run.at, QStringLiteral("56000 lines dropped")};
    return {{ended, run}, {marker}};
}

void TestHeldJournal::save_thenLoad_givesBackEveryChangeInOrder()
{
    QTemporaryDir dir;
    const HeldJournal journal(dir.filePath(QStringLiteral("store.db")), QStringLiteral("1:10"));
    const Result<QString> first = journal.save(sample(1));
    QVERIFY(first);
    QCOMPARE(first.value(), dir.filePath(QStringLiteral("store.db.held.json")));
    QVERIFY(journal.save(sample(2))); // a second stop adds to the first
    QStringList files;
    const Result<HeldJournal::Contents> loaded = journal.load(&files);
    QVERIFY(loaded);
    QCOMPARE(files, QStringList{first.value()});
    QCOMPARE(loaded->changes.size(), 4);
    const RunRecorder::Held &ended = loaded->changes.at(0);
    QCOMPARE(ended.taskRun.id, 7);
    QCOMPARE(ended.taskRun.attempt, 2);
    QCOMPARE(ended.taskRun.state, RunState::Succeeded);
    QCOMPARE(ended.taskRun.exitCode, std::optional<int>(0));
    QCOMPARE(ended.taskRun.finishedAt, sample(1).changes.at(0).taskRun.finishedAt);
    QCOMPARE(loaded->changes.at(1).state, RunState::Succeeded);
    QCOMPARE(loaded->changes.at(1).engineName, QStringLiteral("laptop"));
    QCOMPARE(loaded->changes.at(3).runId, 2);
    QCOMPARE(loaded->lines.size(), 2);
    QCOMPARE(loaded->lines.at(0).text, QStringLiteral("56000 lines dropped"));
    HeldJournal::remove(files);
    files.clear();
    QVERIFY(journal.load(&files)->changes.isEmpty());
}

void TestHeldJournal::unwritableStoreDirectory_fallsBackToTheRuntimeDirectory()
{
    // A directory that takes no file (here: one that is not there, which stops root too).
    QTemporaryDir dir;
    const HeldJournal journal(dir.filePath(QStringLiteral("gone/store.db")),
                              QStringLiteral("1:10"));
    const Result<QString> saved = journal.save(sample(1));
    QVERIFY(saved);
    QVERIFY(saved->startsWith(m_runtime.path()));
    QStringList files;
    QCOMPARE(journal.load(&files)->changes.size(), 2);
    HeldJournal::remove(files);
}

void TestHeldJournal::damagedJournal_isAnErrorNamingIt()
{
    QTemporaryDir dir;
    QFile damaged(dir.filePath(QStringLiteral("store.db.held.json")));
    QVERIFY(damaged.open(QIODevice::WriteOnly));
    damaged.write("{\"changes\": [");
    damaged.close();
    QStringList files;
    const Result<HeldJournal::Contents> loaded =
        HeldJournal(dir.filePath(QStringLiteral("store.db")), QStringLiteral("1:10")).load(&files);
    QVERIFY(!loaded);
    QVERIFY(loaded.error().message.contains(damaged.fileName()));
}

// The store deleted under a stopping engine and a new one made at its path: the new store's
// runs were "ended" by the old store's journal (helper-11).
void TestHeldJournal::anotherFileAtThePath_neitherLoadsNorAddsToItsJournal()
{
    QTemporaryDir dir;
    const QString store = dir.filePath(QStringLiteral("store.db"));
    QVERIFY(HeldJournal(store, QStringLiteral("1:10")).save(sample(1)));
    const HeldJournal successor(store, QStringLiteral("1:11"));
    QStringList files;
    const Result<HeldJournal::Contents> loaded = successor.load(&files);
    QVERIFY(loaded);
    QVERIFY(loaded->changes.isEmpty());
    QVERIFY(files.isEmpty()); // so it is not removed either
    QCOMPARE(successor.foreignFiles(), QStringList{store + QStringLiteral(".held.json")});
    // Its own journal goes elsewhere (the runtime directory), never into the other's.
    const Result<QString> saved = successor.save(sample(2));
    QVERIFY(saved);
    QVERIFY(saved->startsWith(m_runtime.path()));
    QCOMPARE(successor.load(&files)->changes.size(), 2);
    HeldJournal::remove(files);
    files.clear();
    QCOMPARE(HeldJournal(store, QStringLiteral("1:10")).load(&files)->changes.size(), 2);
}

QTEST_GUILESS_MAIN(TestHeldJournal)
#include "tst_heldjournal.moc"
