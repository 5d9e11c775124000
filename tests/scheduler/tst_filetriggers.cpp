#include "fixtures.h"
#include "scheduler/enginehost.h"
#include "scheduler/filetriggerruns.h"
#include "scheduler/folderscan.h"
#include "store/chaintriggerrepository.h"
#include "store/filetriggerrepository.h"
#include "store/logrepository.h"
#include "store/runrepository.h"
#include "store/storequery.h"
#include "testservers.h"
#include "teststore.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <cstdio>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace hg;

// File triggers (issue 36) on real files with real inotify and a real engine: a file counts
// once every writer closed it (or it was renamed into place) and it stayed unchanged for the
// settle time; one run per file version, across restarts; what arrived while no engine
// watched follows the trigger's misfire policy; the storm guard gathers, never drops; a
// folder that goes is watched again when it is back; polling sees what inotify would.
class TestFileTriggers final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void chunkedWriter_startsOneRunOnceItClosed();
    void renameIntoPlace_isMovedIn();
    void removedAndWrittenAgainWithinTheSettleTime_isANewFile();
    void hostileName_reachesAShellTaskAsAValue();
    void nameNotUtf8_isSaidOnTheTrigger();
    void thousandFilesAtOnce_eachStartOneRun();
    void folderRemovedAndMadeAgain_isWatchedAgain();
    void symlinkedRootPointedElsewhere_watchesTheNewFolder();
    void pollingForced_seesArrivals();
    void arrivalsWhileStopped_followTheMisfirePolicy_data();
    void arrivalsWhileStopped_followTheMisfirePolicy();
    void stormGuard_gathersBeyondTheLimit_andKeepsThemAcrossAStop();
    void oldListsOfGatheredRuns_arePrunedAtStart();
    void linkToTheEnginesOwnOutput_isNoFile();
    void pathLongerThanTheSystemTakes_isCountedToBeSaid();
    void badSettings_areRefusedNamingThem();
    void sharedStore_refusesAChainWithoutClientName();

private:
    static QList<Run> runsOf(Store &store, qint64 chainId);
    static ChainTrigger fileTrigger(const Chain &chain, const QString &glob, qint64 settleMs = 300);
    // A chain whose client name is this engine's (a shared store wants it).
    static Chain chainHere(test::TestStore &t, const QString &name);
    static bool write(const QString &path, const QByteArray &content);
    static QString said(Store &store, qint64 runId);
    // Starts the engine and waits for its first look at the trigger's folder (the baseline).
    static bool startAndLook(test::TestStore &t, EngineHost &host, qint64 triggerId);
};

bool TestFileTriggers::startAndLook(test::TestStore &t, EngineHost &host, qint64 triggerId)
{
    QSignalSpy started(&host, &EngineHost::started);
    host.start();
    return started.wait(10000)
           && QTest::qWaitFor(
               [&] {
                   return FileTriggerRepository(t.store())
                       .baselineAt(triggerId)
                       .value()
                       .has_value();
               },
               10000);
}

void TestFileTriggers::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true); // the lists of gathered runs go to a test folder
}

QList<Run> TestFileTriggers::runsOf(Store &store, qint64 chainId)
{
    RunFilter filter;
    filter.chainId = chainId;
    filter.limit = 5000;
    const Result<QList<Run>> runs = RunRepository(store).list(filter);
    return runs ? runs.value() : QList<Run>();
}

ChainTrigger TestFileTriggers::fileTrigger(const Chain &chain, const QString &glob, qint64 settleMs)
{
    ChainTrigger t;
    t.kind = TriggerKind::File;
    t.chainId = chain.id;
    t.path = QStringLiteral("p/") + chain.name;
    t.file.glob = glob;
    t.file.settleMs = settleMs;
    t.file.maxPerMinute = 0;
    return t;
}

Chain TestFileTriggers::chainHere(test::TestStore &t, const QString &name)
{
    Chain chain = test::makeChain(t.store(), QStringLiteral("p"), name);
    StoreQuery q(t.store(), QStringLiteral("UPDATE chain SET client_name = ? WHERE id = ?"));
    q.bind(QStringLiteral("files")).bind(chain.id);
    if (!q.exec(QStringLiteral("test")))
        chain.id = 0;
    chain.clientName = QStringLiteral("files");
    return chain;
}

bool TestFileTriggers::write(const QString &path, const QByteArray &content)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly) && file.write(content) == content.size();
}

QString TestFileTriggers::said(Store &store, qint64 runId)
{
    const Result<QList<LogLine>> lines = LogRepository(store).read(runId);
    QStringList texts;
    if (lines)
        for (const LogLine &line : lines.value())
            texts << line.text;
    return texts.join(QLatin1Char('\n'));
}

void TestFileTriggers::chunkedWriter_startsOneRunOnceItClosed()
{
    HG_TEST_STORE(t);
    QTemporaryDir folder;
    const Chain c = chainHere(t, QStringLiteral("c"));
    test::addTask(t.store(), c.id, QStringLiteral("say"), TaskKind::Shell,
                  QStringLiteral("echo \"got ${trigger.path} ${trigger.event}\""));
    QVERIFY(ChainTriggerRepository(t.store()).add(
        fileTrigger(c, folder.path() + QStringLiteral("/*.csv"))));
    EngineHost host(test::engineConfig(t, QStringLiteral("files")));
    QVERIFY(startAndLook(t, host, 1));

    // Another process writes in chunks a second apart, longer than the settle time (300 ms):
    // only the file being open keeps it from counting early.
    QProcess writer;
    writer.start(QStringLiteral("/bin/sh"),
                 {QStringLiteral("-c"), QStringLiteral("for i in 1 2 3 4; do printf chunk$i; "
                                                       "sleep 1; done > '%1/slow.csv'")
                                            .arg(folder.path())});
    QVERIFY(writer.waitForStarted());
    QVERIFY(writer.waitForFinished(20000));
    const QDateTime closed = QDateTime::currentDateTimeUtc();
    QCOMPARE(runsOf(t.store(), c.id).size(), 0);
    QTRY_COMPARE_WITH_TIMEOUT(runsOf(t.store(), c.id).size(), 1, 10000);
    const Run run = runsOf(t.store(), c.id).at(0);
    QVERIFY(run.createdAt >= closed.addMSecs(250));
    QCOMPARE(run.trigger, RunTrigger::Trigger);
    QCOMPARE(run.parameters.value(QLatin1String("trigger.event")).toString(),
             QStringLiteral("created"));
    QTRY_VERIFY_WITH_TIMEOUT(
        said(t.store(), run.id)
            .contains(QStringLiteral("got %1/slow.csv created").arg(folder.path())),
        10000);
    // A reader (the task itself, a `cat`) opening it is no new version.
    QFile reading(folder.path() + QStringLiteral("/slow.csv"));
    QVERIFY(reading.open(QIODevice::ReadOnly));
    reading.close();
    QVERIFY(write(folder.path() + QStringLiteral("/other.txt"), "not matched"));
    QVERIFY(write(folder.path() + QStringLiteral("/marker.csv"), "x"));
    QTRY_COMPARE_WITH_TIMEOUT(runsOf(t.store(), c.id).size(), 2, 10000);
    QCOMPARE(runsOf(t.store(), c.id).at(0).parameters.value(QLatin1String("trigger.path")),
             QJsonValue(folder.path() + QStringLiteral("/marker.csv")));
}

void TestFileTriggers::renameIntoPlace_isMovedIn()
{
    HG_TEST_STORE(t);
    QTemporaryDir folder;
    const Chain c = chainHere(t, QStringLiteral("c"));
    QVERIFY(ChainTriggerRepository(t.store()).add(
        fileTrigger(c, folder.path() + QStringLiteral("/**/*.csv"))));
    EngineHost host(test::engineConfig(t, QStringLiteral("files")));
    QVERIFY(startAndLook(t, host, 1));
    // Written under a dot name (no wildcard matches it), renamed into place.
    QVERIFY(write(folder.path() + QStringLiteral("/.part"), "payload"));
    QVERIFY(QFile::rename(folder.path() + QStringLiteral("/.part"),
                          folder.path() + QStringLiteral("/in.csv")));
    QTRY_COMPARE_WITH_TIMEOUT(runsOf(t.store(), c.id).size(), 1, 10000);
    QCOMPARE(runsOf(t.store(), c.id).at(0).parameters.value(QLatin1String("trigger.event")),
             QJsonValue(QStringLiteral("moved")));
    // A folder made below, then a file in it: ** watches it as it comes.
    QVERIFY(QDir(folder.path()).mkpath(QStringLiteral("a/b")));
    QVERIFY(write(folder.path() + QStringLiteral("/a/b/deep.csv"), "deep"));
    QTRY_COMPARE_WITH_TIMEOUT(runsOf(t.store(), c.id).size(), 2, 10000);
    QCOMPARE(runsOf(t.store(), c.id).at(0).parameters.value(QLatin1String("trigger.path")),
             QJsonValue(folder.path() + QStringLiteral("/a/b/deep.csv")));
}

// `rm out.csv; produce > out.csv` within the settle time: a new file (created), whatever
// inode the filesystem gives it back, though the default events have no "modified".
void TestFileTriggers::removedAndWrittenAgainWithinTheSettleTime_isANewFile()
{
    HG_TEST_STORE(t);
    QTemporaryDir folder;
    const Chain c = chainHere(t, QStringLiteral("c"));
    QVERIFY(ChainTriggerRepository(t.store()).add(
        fileTrigger(c, folder.path() + QStringLiteral("/*.csv"))));
    EngineHost host(test::engineConfig(t, QStringLiteral("files")));
    QVERIFY(startAndLook(t, host, 1));
    const QString path = folder.path() + QStringLiteral("/out.csv");
    QVERIFY(write(path, "first"));
    QTRY_COMPARE_WITH_TIMEOUT(runsOf(t.store(), c.id).size(), 1, 10000);
    for (int again = 0; again < 2; ++again) {
        QVERIFY(QFile::remove(path));
        QVERIFY(write(path, again == 0 ? "second" : "third!")); // well within the 300 ms
        QTRY_COMPARE_WITH_TIMEOUT(runsOf(t.store(), c.id).size(), again + 2, 10000);
        QCOMPARE(runsOf(t.store(), c.id).at(0).parameters.value(QLatin1String("trigger.event")),
                 QJsonValue(QStringLiteral("created")));
    }
}

// A drop folder's file name is anyone's text: through HOURGLASS_TRIGGER_PATH it reaches a
// shell task as a value, never run.
void TestFileTriggers::hostileName_reachesAShellTaskAsAValue()
{
    HG_TEST_STORE(t);
    QTemporaryDir folder;
    const Chain c = chainHere(t, QStringLiteral("c"));
    test::addTask(t.store(), c.id, QStringLiteral("say"), TaskKind::Shell,
                  QStringLiteral("printf '%s|%s' \"$HOURGLASS_TRIGGER_PATH\" "
                                 "\"$HOURGLASS_TRIGGER_EVENT\" > '%1/said'")
                      .arg(folder.path()));
    QVERIFY(ChainTriggerRepository(t.store()).add(
        fileTrigger(c, folder.path() + QStringLiteral("/*.csv"))));
    EngineHost host(test::engineConfig(t, QStringLiteral("files")));
    QVERIFY(startAndLook(t, host, 1));
    const QString name = QStringLiteral("$(touch PWNED) \";touch PWNED2;\" `touch PWNED3`\n.csv");
    QVERIFY(write(folder.filePath(name), "x"));
    const auto said = [&] {
        QFile file(folder.filePath(QStringLiteral("said")));
        return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
    };
    QTRY_COMPARE_WITH_TIMEOUT(said(), folder.filePath(name) + QStringLiteral("|created"), 20000);
    for (const char *pwned : {"PWNED", "PWNED2", "PWNED3"})
        QVERIFY(!QFile::exists(folder.filePath(QString::fromLatin1(pwned))));
}

// A Latin-1 name ("caf\xe9.csv") cannot be named again by a Qt string: no run can start
// for it, and the trigger says so rather than pass it over in silence.
void TestFileTriggers::nameNotUtf8_isSaidOnTheTrigger()
{
    HG_TEST_STORE(t);
    QTemporaryDir folder;
    const Chain c = chainHere(t, QStringLiteral("c"));
    const Result<ChainTrigger> trigger = ChainTriggerRepository(t.store()).add(
        fileTrigger(c, folder.path() + QStringLiteral("/*.csv")));
    QVERIFY(trigger);
    EngineHost host(test::engineConfig(t, QStringLiteral("files")));
    QVERIFY(startAndLook(t, host, trigger->id));
    const QByteArray raw = QFile::encodeName(folder.path()) + "/caf\xe9.csv";
    const int fd = ::open(raw.constData(), O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
    QVERIFY(fd >= 0);
    QCOMPARE(::write(fd, "x", 1), ssize_t(1));
    ::close(fd);
    QTRY_VERIFY_WITH_TIMEOUT(ChainTriggerRepository(t.store())
                                 .byId(trigger->id)
                                 .value()
                                 .watchNote.contains(QLatin1String("not UTF-8")),
                             10000);
    QVERIFY(ChainTriggerRepository(t.store())
                .byId(trigger->id)
                .value()
                .watchNote.contains(QLatin1String("caf\\xe9.csv")));
}

void TestFileTriggers::thousandFilesAtOnce_eachStartOneRun()
{
    HG_TEST_STORE(t);
    QTemporaryDir folder;
    const Chain c = chainHere(t, QStringLiteral("c"));
    QVERIFY(ChainTriggerRepository(t.store()).add(
        fileTrigger(c, folder.path() + QStringLiteral("/*"))));
    EngineHost host(test::engineConfig(t, QStringLiteral("files")));
    QVERIFY(startAndLook(t, host, 1));
    constexpr int files = 1000;
    for (int i = 0; i < files; ++i)
        QVERIFY(write(QStringLiteral("%1/f%2").arg(folder.path()).arg(i), QByteArray::number(i)));
    QTRY_COMPARE_WITH_TIMEOUT(runsOf(t.store(), c.id).size(), files, 60000);
    QSet<QString> paths;
    for (const Run &run : runsOf(t.store(), c.id))
        paths.insert(run.parameters.value(QLatin1String("trigger.path")).toString());
    QCOMPARE(paths.size(), files);
    // Stopped and started again: nothing seen runs twice.
    QSignalSpy stopped(&host, &EngineHost::stopped);
    host.shutdown(Engine::ExitPolicy::Stop);
    QVERIFY(stopped.wait(20000));
    EngineHost again(test::engineConfig(t, QStringLiteral("files")));
    QSignalSpy startedAgain(&again, &EngineHost::started);
    again.start();
    QVERIFY(startedAgain.wait(10000));
    QVERIFY(write(folder.path() + QStringLiteral("/last"), "after the restart"));
    QTRY_COMPARE_WITH_TIMEOUT(runsOf(t.store(), c.id).size(), files + 1, 10000);
}

void TestFileTriggers::folderRemovedAndMadeAgain_isWatchedAgain()
{
    HG_TEST_STORE(t);
    QTemporaryDir parent;
    const QString folder = parent.path() + QStringLiteral("/in");
    QVERIFY(QDir().mkpath(folder));
    const Chain c = chainHere(t, QStringLiteral("c"));
    QVERIFY(
        ChainTriggerRepository(t.store()).add(fileTrigger(c, folder + QStringLiteral("/*.csv"))));
    EngineHost host(test::engineConfig(t, QStringLiteral("files")));
    QVERIFY(startAndLook(t, host, 1));
    QVERIFY(QDir(folder).removeRecursively());
    QTRY_VERIFY_WITH_TIMEOUT(
        ChainTriggerRepository(t.store()).byId(1)->watchNote.contains(QStringLiteral("is gone")),
        10000);
    QVERIFY(QDir().mkpath(folder));
    QTRY_VERIFY_WITH_TIMEOUT(ChainTriggerRepository(t.store()).byId(1)->watchNote.isEmpty(), 10000);
    QVERIFY(write(folder + QStringLiteral("/back.csv"), "back"));
    QTRY_COMPARE_WITH_TIMEOUT(runsOf(t.store(), c.id).size(), 1, 10000);
}

void TestFileTriggers::symlinkedRootPointedElsewhere_watchesTheNewFolder()
{
    // A release swap: `in` is a link to one folder, then (renamed over it) to another.
    HG_TEST_STORE(t);
    QTemporaryDir parent;
    const QString first = parent.path() + QStringLiteral("/first");
    const QString second = parent.path() + QStringLiteral("/second");
    const QString link = parent.path() + QStringLiteral("/in");
    QVERIFY(QDir().mkpath(first) && QDir().mkpath(second));
    QVERIFY(QFile::link(first, link));
    const Chain c = chainHere(t, QStringLiteral("c"));
    QVERIFY(ChainTriggerRepository(t.store()).add(fileTrigger(c, link + QStringLiteral("/*.csv"))));
    EngineHost host(test::engineConfig(t, QStringLiteral("files")));
    QVERIFY(startAndLook(t, host, 1));
    QVERIFY(write(first + QStringLiteral("/one.csv"), "one"));
    QTRY_COMPARE_WITH_TIMEOUT(runsOf(t.store(), c.id).size(), 1, 10000);
    QVERIFY(QFile::link(second, link + QStringLiteral(".new")));
    QCOMPARE(::rename(QFile::encodeName(link + QStringLiteral(".new")).constData(),
                      QFile::encodeName(link).constData()),
             0);
    QVERIFY(write(second + QStringLiteral("/two.csv"), "two"));
    QTRY_COMPARE_WITH_TIMEOUT(runsOf(t.store(), c.id).size(), 2, 10000);
    QCOMPARE(runsOf(t.store(), c.id).at(0).parameters.value(QLatin1String("trigger.path")),
             QJsonValue(link + QStringLiteral("/two.csv")));
    QVERIFY(write(second + QStringLiteral("/three.csv"), "three"));
    QTRY_COMPARE_WITH_TIMEOUT(runsOf(t.store(), c.id).size(), 3, 10000);
    // The old folder is no longer the trigger's: a file there (written first, so settled
    // first) starts nothing.
    QVERIFY(write(first + QStringLiteral("/old.csv"), "old"));
    QVERIFY(write(second + QStringLiteral("/four.csv"), "four"));
    QTRY_COMPARE_WITH_TIMEOUT(runsOf(t.store(), c.id).size(), 4, 10000);
    for (const Run &run : runsOf(t.store(), c.id))
        QVERIFY(!run.parameters.value(QLatin1String("trigger.path"))
                     .toString()
                     .contains(QLatin1String("old")));
}

void TestFileTriggers::pollingForced_seesArrivals()
{
    HG_TEST_STORE(t);
    QTemporaryDir folder;
    const Chain c = chainHere(t, QStringLiteral("c"));
    ChainTrigger trigger = fileTrigger(c, folder.path() + QStringLiteral("/*.csv"), 200);
    trigger.file.pollMs = 300;
    trigger.file.events = {FileEvent::Created, FileEvent::Modified, FileEvent::Deleted};
    QVERIFY(ChainTriggerRepository(t.store()).add(trigger));
    EngineHost host(test::engineConfig(t, QStringLiteral("files")));
    QVERIFY(startAndLook(t, host, 1));
    QVERIFY(write(folder.path() + QStringLiteral("/a.csv"), "one"));
    QTRY_COMPARE_WITH_TIMEOUT(runsOf(t.store(), c.id).size(), 1, 10000);
    QVERIFY(write(folder.path() + QStringLiteral("/a.csv"), "one and more"));
    QTRY_COMPARE_WITH_TIMEOUT(runsOf(t.store(), c.id).size(), 2, 10000);
    QCOMPARE(runsOf(t.store(), c.id).at(0).parameters.value(QLatin1String("trigger.event")),
             QJsonValue(QStringLiteral("modified")));
    QVERIFY(QFile::remove(folder.path() + QStringLiteral("/a.csv")));
    QTRY_COMPARE_WITH_TIMEOUT(runsOf(t.store(), c.id).size(), 3, 10000);
    QCOMPARE(runsOf(t.store(), c.id).at(0).parameters.value(QLatin1String("trigger.event")),
             QJsonValue(QStringLiteral("deleted")));
}

void TestFileTriggers::arrivalsWhileStopped_followTheMisfirePolicy_data()
{
    QTest::addColumn<MisfirePolicy>("policy");
    QTest::addColumn<int>("runs");
    QTest::newRow("all: a run each") << MisfirePolicy::All << 3;
    QTest::newRow("once: one run for all") << MisfirePolicy::Once << 1;
    QTest::newRow("skip: none") << MisfirePolicy::Skip << 0;
}

void TestFileTriggers::arrivalsWhileStopped_followTheMisfirePolicy()
{
    QFETCH(MisfirePolicy, policy);
    QFETCH(int, runs);
    HG_TEST_STORE(t);
    QTemporaryDir folder;
    QVERIFY(write(folder.path() + QStringLiteral("/before.csv"), "there before the trigger"));
    const Chain c = chainHere(t, QStringLiteral("c"));
    ChainTrigger trigger = fileTrigger(c, folder.path() + QStringLiteral("/*.csv"));
    trigger.file.misfire = policy;
    QVERIFY(ChainTriggerRepository(t.store()).add(trigger));
    {
        EngineHost host(test::engineConfig(t, QStringLiteral("files")));
        QSignalSpy started(&host, &EngineHost::started);
        host.start();
        QVERIFY(started.wait(10000));
        QTRY_VERIFY_WITH_TIMEOUT(FileTriggerRepository(t.store()).baselineAt(1).value().has_value(),
                                 10000);
        QSignalSpy stopped(&host, &EngineHost::stopped);
        host.shutdown(Engine::ExitPolicy::Stop);
        QVERIFY(stopped.wait(20000));
    }
    for (const char *name : {"/x.csv", "/y.csv", "/z.csv"})
        QVERIFY(write(folder.path() + QLatin1String(name), name));
    EngineHost host(test::engineConfig(t, QStringLiteral("files")));
    QSignalSpy started(&host, &EngineHost::started);
    host.start();
    QVERIFY(started.wait(10000));
    // Every arrival is in the snapshot once it was decided, run or not.
    const auto allDecided = [&] {
        const auto seen = FileTriggerRepository(t.store()).seen(1).value();
        return seen.size() == 4
               && std::none_of(seen.cbegin(), seen.cend(), [](const auto &s) { return s.waiting; });
    };
    QTRY_VERIFY_WITH_TIMEOUT(allDecided(), 10000);
    QTRY_COMPARE_WITH_TIMEOUT(runsOf(t.store(), c.id).size(), runs, 10000);
    for (const Run &run : runsOf(t.store(), c.id)) {
        QCOMPARE(run.parameters.value(QLatin1String("trigger.missed")),
                 QJsonValue(QStringLiteral("1")));
        QVERIFY(!run.parameters.value(QLatin1String("trigger.path"))
                     .toString()
                     .endsWith(QLatin1String("before.csv")));
    }
    if (policy == MisfirePolicy::Once) {
        const Run run = runsOf(t.store(), c.id).at(0);
        QCOMPARE(run.parameters.value(QLatin1String("trigger.count")),
                 QJsonValue(QStringLiteral("3")));
        QFile list(run.parameters.value(QLatin1String("trigger.paths")).toString());
        QVERIFY(list.open(QIODevice::ReadOnly));
        QCOMPARE(QString::fromUtf8(list.readAll()),
                 QStringLiteral("%1/x.csv\n%1/y.csv\n%1/z.csv\n").arg(folder.path()));
        QCOMPARE(list.permissions() & (QFile::ReadGroup | QFile::ReadOther), QFile::Permissions());
    }
}

void TestFileTriggers::stormGuard_gathersBeyondTheLimit_andKeepsThemAcrossAStop()
{
    HG_TEST_STORE(t);
    const Chain c = chainHere(t, QStringLiteral("c"));
    ChainTrigger spec = fileTrigger(c, QStringLiteral("/srv/in/*.csv"));
    spec.file.maxPerMinute = 3;
    const Result<ChainTrigger> trigger = ChainTriggerRepository(t.store()).add(spec);
    QVERIFY(trigger);
    qint64 monotonic = 1000000;
    const auto now = [&monotonic] {
        return monotonic;
    };
    const auto wall = [] {
        return QDateTime::currentMSecsSinceEpoch();
    };
    QList<FileTriggerRuns::Settled> ten;
    for (int i = 0; i < 10; ++i)
        ten << FileTriggerRuns::Settled{
            {QStringLiteral("/srv/in/%1.csv").arg(i), 100 + i, 5, 7}, FileEvent::Created, false};
    {
        FileTriggerRuns runs(trigger.value(), t.store(), now, wall);
        runs.load({});
        QVERIFY(runs.take(ten, false));
        QCOMPARE(runsOf(t.store(), c.id).size(), 3);
        QCOMPARE(FileTriggerRepository(t.store()).seen(trigger->id)->size(), 10);
        // Within the minute the guard holds them back, however often asked.
        monotonic += 30000;
        QVERIFY(runs.flushNow());
        QCOMPARE(runsOf(t.store(), c.id).size(), 3);
    }
    // Stopped before their run: the seven wait in the store, and the next start runs them.
    FileTriggerRuns after(trigger.value(), t.store(), now, wall);
    after.load(FileTriggerRepository(t.store()).seen(trigger->id).value());
    QTRY_COMPARE_WITH_TIMEOUT(runsOf(t.store(), c.id).size(), 4, 5000);
    const Run gathered = runsOf(t.store(), c.id).at(0);
    QCOMPARE(gathered.parameters.value(QLatin1String("trigger.count")),
             QJsonValue(QStringLiteral("7")));
    QCOMPARE(gathered.parameters.value(QLatin1String("trigger.gathered")),
             QJsonValue(QStringLiteral("7")));
    QFile list(gathered.parameters.value(QLatin1String("trigger.paths")).toString());
    QVERIFY(list.open(QIODevice::ReadOnly));
    QCOMPARE(list.readAll().count('\n'), 7);
    const auto seen = FileTriggerRepository(t.store()).seen(trigger->id);
    QVERIFY(std::none_of(seen->cbegin(), seen->cend(), [](const auto &s) { return s.waiting; }));
    // The same versions again start nothing: their keys are used.
    QVERIFY(after.take(ten.mid(0, 3), false));
    QCOMPARE(runsOf(t.store(), c.id).size(), 4);
}

void TestFileTriggers::oldListsOfGatheredRuns_arePrunedAtStart()
{
    // A gathered run's ${trigger.paths} file is kept a month, then removed as a trigger
    // starts: its run has long read it.
    HG_TEST_STORE(t);
    const Chain c = chainHere(t, QStringLiteral("c"));
    const QString folder = FileTriggerRuns::listFolder();
    QVERIFY(QDir().mkpath(folder));
    const QString old = folder + QStringLiteral("/trigger-1-old.txt");
    const QString recent = folder + QStringLiteral("/trigger-1-recent.txt");
    const QString other = folder + QStringLiteral("/notes.txt"); // not ours: left alone
    for (const QString &path : {old, recent, other}) {
        QVERIFY(write(path, "/srv/in/a.csv\n"));
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadWrite));
        const QDateTime when = QDateTime::currentDateTime().addDays(path == recent ? -29 : -31);
        QVERIFY(file.setFileTime(when, QFileDevice::FileModificationTime));
    }
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    FileTriggerRuns runs(
        fileTrigger(c, QStringLiteral("/srv/in/*.csv")), t.store(), [] { return qint64(0); },
        [now] { return now; });
    runs.load({});
    QVERIFY(!QFile::exists(old));
    QVERIFY(QFile::exists(recent));
    QVERIFY(QFile::exists(other));
    QFile::remove(recent);
    QFile::remove(other);
}

void TestFileTriggers::linkToTheEnginesOwnOutput_isNoFile()
{
    // `ln -s /dev/stdout in/out.log` under a serve whose output goes to a file: each run's
    // output would modify the "file" and start the next run, for good.
    QTemporaryDir folder;
    const QString log = folder.filePath(QStringLiteral("serve.log"));
    const QString link = folder.filePath(QStringLiteral("in/out.log"));
    QVERIFY(QDir().mkpath(folder.filePath(QStringLiteral("in"))));
    QVERIFY(write(log, "started\n"));
    QVERIFY(QFile::link(QStringLiteral("/dev/stdout"), link));
    QVERIFY(write(folder.filePath(QStringLiteral("in/data.log")), "data"));
    std::fflush(stdout);
    const int saved = ::dup(STDOUT_FILENO);
    const int file = ::open(QFile::encodeName(log).constData(), O_WRONLY | O_APPEND);
    QVERIFY(saved >= 0 && file >= 0);
    ::dup2(file, STDOUT_FILENO);
    ::close(file);
    const std::optional<FileTriggerRepository::Version> linked = FolderScan::stat(link);
    const FolderScan::Found found =
        FolderScan::scan(GlobPattern(folder.filePath(QStringLiteral("in/*.log"))));
    ::dup2(saved, STDOUT_FILENO);
    ::close(saved);
    QVERIFY(!linked.has_value());
    QCOMPARE(found.files.size(), 1);
    QCOMPARE(found.files.constFirst().path, folder.filePath(QStringLiteral("in/data.log")));
    QVERIFY(FolderScan::stat(log).has_value()); // the same file is one while not the output
}

void TestFileTriggers::pathLongerThanTheSystemTakes_isCountedToBeSaid()
{
    // Folders nested past PATH_MAX (made relative to each other: no call takes the whole
    // path): a file there can never be named, so it is said, not silently passed over.
    QTemporaryDir folder;
    int fd = ::open(QFile::encodeName(folder.path()).constData(), O_RDONLY | O_DIRECTORY);
    QVERIFY(fd >= 0);
    const QByteArray name(200, 'd');
    for (int depth = 0; depth < 25; ++depth) {
        QCOMPARE(::mkdirat(fd, name.constData(), 0700), 0);
        const int next = ::openat(fd, name.constData(), O_RDONLY | O_DIRECTORY);
        ::close(fd);
        fd = next;
        QVERIFY(fd >= 0);
    }
    const int file = ::openat(fd, "deep.csv", O_WRONLY | O_CREAT, 0600);
    QVERIFY(file >= 0);
    ::close(file);
    ::close(fd);
    QVERIFY(write(folder.filePath(QStringLiteral("near.csv")), "near"));
    const FolderScan::Found found =
        FolderScan::scan(GlobPattern(folder.path() + QStringLiteral("/**/*.csv")));
    QCOMPARE(found.files.size(), 1);
    QVERIFY(found.tooLong > 0);
    QVERIFY(found.tooLongExample.startsWith(folder.path()));
    // rm walks it by descriptors, as QDir cannot past PATH_MAX.
    QCOMPARE(QProcess::execute(QStringLiteral("rm"),
                               {QStringLiteral("-rf"), folder.filePath(QString::fromLatin1(name))}),
             0);
}

void TestFileTriggers::badSettings_areRefusedNamingThem()
{
    HG_TEST_STORE(t);
    const Chain c = chainHere(t, QStringLiteral("c"));
    ChainTriggerRepository triggers(t.store());
    const auto refused = [&](const ChainTrigger &trigger, const QString &named) {
        const Result<ChainTrigger> added = triggers.add(trigger);
        if (added || !added.error().message.contains(named)) {
            qWarning() << (added ? QStringLiteral("accepted") : added.error().message);
            return false;
        }
        return true;
    };
    QVERIFY(refused(fileTrigger(c, QStringLiteral("in/*.csv")), QStringLiteral("absolute")));
    QVERIFY(refused(fileTrigger(c, QString()), QStringLiteral("--file")));
    QVERIFY(refused(fileTrigger(c, QStringLiteral("/")), QStringLiteral("names no files")));
    QVERIFY(refused(fileTrigger(c, QStringLiteral("/srv/**")), QStringLiteral("ends in **")));
    QVERIFY(refused(fileTrigger(c, QStringLiteral("/srv/../etc/*")), QStringLiteral("'..'")));
    ChainTrigger t2 = fileTrigger(c, QStringLiteral("/srv/in/*"), -1);
    QVERIFY(refused(t2, QStringLiteral("--settle")));
    t2 = fileTrigger(c, QStringLiteral("/srv/in/*"));
    t2.file.events.clear();
    QVERIFY(refused(t2, QStringLiteral("--events")));
    t2 = fileTrigger(c, QStringLiteral("/srv/in/*"));
    t2.file.pollMs = 5;
    QVERIFY(refused(t2, QStringLiteral("--poll")));
    QCOMPARE(triggers.list()->size(), 0);
}

void TestFileTriggers::sharedStore_refusesAChainWithoutClientName()
{
    HG_TEST_STORE(t);
    const Chain anywhere = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("any"));
    const Result<ChainTrigger> added =
        ChainTriggerRepository(t.store()).add(fileTrigger(anywhere, QStringLiteral("/srv/*.csv")));
    if (test::TestStore::backend() == StoreBackend::Sqlite) {
        QVERIFY(added); // one engine per SQLite store: it watches
        return;
    }
    QVERIFY(!added);
    QVERIFY2(added.error().message.contains(QStringLiteral("client name")),
             qPrintable(added.error().message));
}

QTEST_GUILESS_MAIN(TestFileTriggers)
#include "tst_filetriggers.moc"
