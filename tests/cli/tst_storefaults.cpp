#include "backendtests.h"
#include "store/projectrepository.h"
#include "store/runrepository.h"
#include "store/storerestore.h"
#include "storedamage.h"
#include "testservers.h"
#include "teststore.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QSysInfo>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <unistd.h>

using namespace hg;

// The real binary on a store in trouble: a damaged file (bytes of a b-tree page overwritten
// in place), backups taken while `hourglass serve` runs chains, restores refused while it
// serves and done once it has stopped, and a second engine refused with the first one named.
class TestStoreFaults final : public QObject
{
    Q_OBJECT
    // Functions for one backend only: not run (nor skipped) on the other.
    Q_CLASSINFO(
        "sqliteOnly",
        "damagedStore_exitsOneNamingTheDamageAndWritesNothing, "
        "serve_backupRestoreAndASecondEngine, fullDisk_runWaitExitsZeroOnlyWhenTheSuccessIsStored, "
        "fullDisk_runWaitWhoseEngineDiedWaitsForRoomThenRunsIt, "
        "lockedStore_runWaitEndsWhenTheEndServeHeldIsRecorded")

private Q_SLOTS:
    void damagedStore_exitsOneNamingTheDamageAndWritesNothing();
    void serve_backupRestoreAndASecondEngine();
    void postgresStore_backupAndRestoreNamePgDump();
    void fullDisk_runWaitExitsZeroOnlyWhenTheSuccessIsStored();
    void fullDisk_runWaitWhoseEngineDiedWaitsForRoomThenRunsIt();
    void lockedStore_runWaitEndsWhenTheEndServeHeldIsRecorded();

private:
    // A tmpfs of 8 MB mounted in `work` (root only), and a file that fills it.
    static bool mountSmall(const QTemporaryDir &work, QString *small);
    static bool fill(const QString &filler);
    struct Output
    {
        int exitCode = -1;
        QString out;
        QString err;
    };
    Output run(const test::TestStore &store, const QStringList &arguments);
    Output run(const QString &db, const QStringList &arguments);
    std::unique_ptr<QProcess> start(const QString &db, const QStringList &arguments);
    static Output finish(QProcess &process); // waits for its end (90 s at most)
    std::unique_ptr<QProcess> serve(const test::TestStore &store);
    std::unique_ptr<QProcess> serve(const QString &db);
    static QString db(const test::TestStore &store);
    static int succeededRuns(const QString &path);

    QTemporaryDir m_home;
};

QString TestStoreFaults::db(const test::TestStore &store)
{
    return store.location().backend() == StoreBackend::Sqlite ? store.location().sqlitePath()
                                                              : store.location().url().toString();
}

TestStoreFaults::Output TestStoreFaults::run(const test::TestStore &store,
                                             const QStringList &arguments)
{
    return run(db(store), arguments);
}

TestStoreFaults::Output TestStoreFaults::run(const QString &db, const QStringList &arguments)
{
    return finish(*start(db, arguments));
}

std::unique_ptr<QProcess> TestStoreFaults::start(const QString &db, const QStringList &arguments)
{
    auto process = std::make_unique<QProcess>();
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.remove(QStringLiteral("HOURGLASS_DB"));
    environment.insert(QStringLiteral("XDG_DATA_HOME"), m_home.path());
    process->setProcessEnvironment(environment);
    process->start(QStringLiteral(HOURGLASS_BINARY),
                   QStringList{QStringLiteral("--db"), db} + arguments);
    return process;
}

TestStoreFaults::Output TestStoreFaults::finish(QProcess &process)
{
    if (!process.waitForFinished(90000)) { // run --wait gives a store a minute to come back
        process.kill();
        process.waitForFinished();
        return {};
    }
    return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1,
            QString::fromUtf8(process.readAllStandardOutput()),
            QString::fromUtf8(process.readAllStandardError())};
}

std::unique_ptr<QProcess> TestStoreFaults::serve(const test::TestStore &store)
{
    return serve(db(store));
}

std::unique_ptr<QProcess> TestStoreFaults::serve(const QString &db)
{
    auto process = std::make_unique<QProcess>();
    process->start(QStringLiteral(HOURGLASS_BINARY),
                   {QStringLiteral("--db"), db, QStringLiteral("serve")});
    process->waitForStarted();
    return process;
}

int TestStoreFaults::succeededRuns(const QString &path)
{
    Result<std::unique_ptr<Store>> store =
        Store::open(StoreLocation::parse(path).value(), QStringLiteral("count"));
    if (!store)
        return -1;
    QSqlQuery q(store.value()->database());
    return q.exec(QStringLiteral("SELECT COUNT(*) FROM run WHERE state = 'succeeded'")) && q.next()
               ? q.value(0).toInt()
               : -1;
}

void TestStoreFaults::damagedStore_exitsOneNamingTheDamageAndWritesNothing()
{
    HG_TEST_STORE(t);
    const QString path = t.location().sqlitePath();
    QCOMPARE(
        run(t, {QStringLiteral("project"), QStringLiteral("add"), QStringLiteral("ops")}).exitCode,
        0);
    QCOMPARE(run(t, {QStringLiteral("chain"), QStringLiteral("add"), QStringLiteral("ops/nightly")})
                 .exitCode,
             0);
    {
        QSqlQuery fill(t.store().database());
        QVERIFY(fill.exec(QStringLiteral(
            "WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 1999) "
            "INSERT INTO run (chain_id, trigger, scheduled_for, state, created_at) SELECT "
            "(SELECT min(id) FROM chain), 'manual', n.i, 'succeeded', 0 FROM n")));
    }
    t.close();
    QCOMPARE(test::damageTablePage(path, QStringLiteral("run")), QString());
    const QByteArray before = test::storeFilesHash(path);

    // A write, a listing, the engine: each exits 1 with the file and the damage in one line.
    const QList<QStringList> commands{
        {QStringLiteral("chain"), QStringLiteral("add"), QStringLiteral("ops/more")},
        {QStringLiteral("runs")},
        {QStringLiteral("project"), QStringLiteral("list")},
        {QStringLiteral("backup")},
        {QStringLiteral("serve")},
    };
    for (const QStringList &command : commands) {
        const Output result = run(t, command);
        const QString what = command.join(QLatin1Char(' ')) + QLatin1String(": ") + result.err;
        QCOMPARE(result.exitCode, 1);
        QVERIFY2(result.err.contains(path), qPrintable(what));
        QVERIFY2(result.err.contains(QLatin1String("damaged")), qPrintable(what));
        QVERIFY2(result.err.contains(QLatin1String("On tree page")), qPrintable(what));
        QCOMPARE(result.err.count(QLatin1Char('\n')), 1);
    }
    const Output advice = run(t, {QStringLiteral("project"), QStringLiteral("list")});
    QVERIFY2(advice.err.contains(QLatin1String("hourglass restore")), qPrintable(advice.err));
    QVERIFY2(advice.err.contains(QLatin1String("hourglass export")), qPrintable(advice.err));

    // Export saves what the damage spares, and still exits 1.
    const QString exported = m_home.filePath(QStringLiteral("rescue.json"));
    const Output rescue = run(t, {QStringLiteral("export"), QStringLiteral("--output"), exported});
    QCOMPARE(rescue.exitCode, 1);
    QVERIFY2(rescue.err.contains(QLatin1String("exported what could still be read")),
             qPrintable(rescue.err));
    QFile document(exported);
    QVERIFY(document.open(QIODevice::ReadOnly));
    const QJsonObject json = QJsonDocument::fromJson(document.readAll()).object();
    QVERIFY2(QJsonDocument(json).toJson().contains("nightly"), "the chain is in the export");

    QCOMPARE(test::storeFilesHash(path), before);
    QVERIFY(!QFileInfo::exists(path + QStringLiteral(".restoring")));
    QCOMPARE(QDir(QFileInfo(path).absolutePath()).entryList({QStringLiteral("*backup*")}),
             QStringList());
}

void TestStoreFaults::serve_backupRestoreAndASecondEngine()
{
    HG_TEST_STORE(t);
    const QString path = t.location().sqlitePath();
    t.close();
    for (const QStringList &command : QList<QStringList>{
             {QStringLiteral("project"), QStringLiteral("add"), QStringLiteral("p")},
             {QStringLiteral("chain"), QStringLiteral("add"), QStringLiteral("p/tick")},
             {QStringLiteral("task"), QStringLiteral("add"), QStringLiteral("p/tick"),
              QStringLiteral("a"), QStringLiteral("--kind"), QStringLiteral("shell"),
              QStringLiteral("--command"), QStringLiteral("echo tick; echo tock")},
             {QStringLiteral("task"), QStringLiteral("add"), QStringLiteral("p/tick"),
              QStringLiteral("b"), QStringLiteral("--kind"), QStringLiteral("shell"),
              QStringLiteral("--command"), QStringLiteral("echo after"), QStringLiteral("--after"),
              QStringLiteral("a")},
             {QStringLiteral("schedule"), QStringLiteral("add"), QStringLiteral("p/tick"),
              QStringLiteral("* * * * * *"), QStringLiteral("--dialect"),
              QStringLiteral("seconds")}}) {
        const Output result = run(t, command);
        QVERIFY2(result.exitCode == 0, qPrintable(result.err));
    }
    std::unique_ptr<QProcess> engine = serve(t);
    QTRY_VERIFY_WITH_TIMEOUT(succeededRuns(path) >= 3, 60000);

    // Backups while it runs a chain a second: each one opens, passes integrity_check and
    // holds runs, and the engine writes between them (each waits for a run the last one has
    // not); the first goes beside the store under a timestamped name.
    const Output beside = run(t, {QStringLiteral("backup")});
    QVERIFY2(beside.exitCode == 0, qPrintable(beside.err));
    const QString besideFile = beside.out.trimmed();
    QCOMPARE(QFileInfo(besideFile).absolutePath(), QFileInfo(path).absolutePath());
    QVERIFY2(QFileInfo(besideFile).fileName().startsWith(QLatin1String("hourglass-backup-")),
             qPrintable(besideFile));
    QTemporaryDir backups;
    QStringList files;
    for (int i = 0; i < 5; ++i) {
        const QString file = backups.filePath(QStringLiteral("b%1.db").arg(i));
        const Output taken = run(t, {QStringLiteral("backup"), QStringLiteral("--output"), file});
        QVERIFY2(taken.exitCode == 0, qPrintable(taken.err));
        QCOMPARE(taken.out.trimmed(), file);
        const Result<int> sound = StoreRestore::check(file); // integrity_check, our schema
        QVERIFY2(sound, qPrintable(sound ? QString() : sound.error().message));
        QVERIFY(succeededRuns(file) >= 3);
        files << file;
        QTRY_VERIFY_WITH_TIMEOUT(succeededRuns(path) > succeededRuns(file), 60000);
    }
    const Output over = run(t, {QStringLiteral("backup"), QStringLiteral("--output"), files[0]});
    QCOMPARE(over.exitCode, 2); // an existing file is never replaced
    const int inFirstBackup = succeededRuns(files[0]);

    // A second engine on the same file is refused, and told who holds it.
    const QString holder =
        QStringLiteral("pid %1 on %2 (").arg(engine->processId()).arg(QSysInfo::machineHostName());
    const Output second = run(t, {QStringLiteral("serve")});
    QCOMPARE(second.exitCode, 1);
    QVERIFY2(second.err.contains(QLatin1String("another engine already serves ") + path),
             qPrintable(second.err));
    QVERIFY2(second.err.contains(holder), qPrintable(second.err));
    QVERIFY2(second.err.contains(QLatin1String("serve), serving since ")), qPrintable(second.err));

    // No restore under a serving engine: refused, naming it, and nothing moved.
    const Output refused = run(t, {QStringLiteral("restore"), files[0]});
    QCOMPARE(refused.exitCode, 1);
    QVERIFY2(refused.err.contains(holder), qPrintable(refused.err));
    QVERIFY2(refused.err.contains(QLatin1String("serving since")), qPrintable(refused.err));
    const QDir folder(QFileInfo(path).absolutePath());
    QCOMPARE(folder.entryList({QStringLiteral("*before-restore*")}), QStringList());

    // It ran on after the first backup (the waits above saw it) until SIGTERM.
    QVERIFY(succeededRuns(path) > inFirstBackup);
    engine->terminate();
    QVERIFY(engine->waitForFinished(30000));
    QCOMPARE(engine->exitCode(), 0);
    QCOMPARE(run(t, {QStringLiteral("project"), QStringLiteral("add"), QStringLiteral("later")})
                 .exitCode,
             0);

    // Idle now: the backup's data is back, and the store it replaced is kept beside it.
    const Output restored = run(t, {QStringLiteral("restore"), files[0]});
    QVERIFY2(restored.exitCode == 0, qPrintable(restored.err));
    QVERIFY2(restored.out.contains(QLatin1String("kept as ")), qPrintable(restored.out));
    const QStringList kept = folder.entryList({QStringLiteral("*before-restore*.db")});
    QCOMPARE(kept.size(), 1);
    QCOMPARE(succeededRuns(path), inFirstBackup);
    const Output projects = run(t, {QStringLiteral("project"), QStringLiteral("list")});
    QVERIFY(projects.out.contains(QLatin1String("p ")));
    QVERIFY(!projects.out.contains(QLatin1String("later")));
    QProcess keptList;
    keptList.start(QStringLiteral(HOURGLASS_BINARY),
                   {QStringLiteral("--db"), folder.filePath(kept.first()),
                    QStringLiteral("project"), QStringLiteral("list")});
    QVERIFY(keptList.waitForFinished(30000));
    QVERIFY(keptList.readAllStandardOutput().contains("later"));

    // The restored store serves again.
    std::unique_ptr<QProcess> again = serve(t);
    QTRY_VERIFY_WITH_TIMEOUT(succeededRuns(path) > inFirstBackup, 60000);
    again->terminate();
    QVERIFY(again->waitForFinished(30000));
}

void TestStoreFaults::postgresStore_backupAndRestoreNamePgDump()
{
    // Said before any connection is tried: no server is needed.
    QProcess process;
    for (const QStringList &command :
         QList<QStringList>{{QStringLiteral("backup")},
                            {QStringLiteral("restore"), m_home.filePath(QStringLiteral("x.db"))}}) {
        process.start(QStringLiteral(HOURGLASS_BINARY),
                      QStringList{QStringLiteral("--db"),
                                  QStringLiteral("postgresql://hourglass@db.invalid/hourglass")}
                          + command);
        QVERIFY(process.waitForFinished(30000));
        const QString err = QString::fromUtf8(process.readAllStandardError());
        QCOMPARE(process.exitCode(), 2);
        QVERIFY2(err.contains(QLatin1String("pg_dump"))
                     && err.contains(QLatin1String("pg_restore")),
                 qPrintable(err));
    }
}

// The store on a 1 MB filesystem and a task whose output fills it: the engine holds the
// run's end while the store refuses writes and drops output first. `run --wait` exits 0 only
// when the success is stored; when the disk stays full it exits 1 after a minute, keeping
// what it held in a journal that the next engine records -- the task never runs twice.
void TestStoreFaults::fullDisk_runWaitExitsZeroOnlyWhenTheSuccessIsStored()
{
    HG_REQUIRE_PART(::geteuid() == 0,
                    "mounting a small filesystem needs root (scripts/test runs as root)");
    QTemporaryDir work;
    QString small;
    HG_REQUIRE_PART(mountSmall(work, &small), "this machine does not let root mount a tmpfs (a "
                                              "container without CAP_SYS_ADMIN)");
    const auto unmount = qScopeGuard([&] {
        QProcess::execute(QStringLiteral("umount"), {QStringLiteral("-l"), small});
    });
    const QString store = small + QStringLiteral("/store.db");
    const QString side = work.filePath(QStringLiteral("side-effect"));
    const QString filler = small + QStringLiteral("/filler");
    QCOMPARE(run(store, {QStringLiteral("project"), QStringLiteral("add"), QStringLiteral("p")})
                 .exitCode,
             0);
    QCOMPARE(run(store, {QStringLiteral("chain"), QStringLiteral("add"), QStringLiteral("p/big")})
                 .exitCode,
             0);
    // Each run says it started, then waits for the test's word (go.RUN_ID): the disk is filled
    // meanwhile, so whatever it writes after (its output, its end) meets a full disk for sure.
    QCOMPARE(
        run(store, {QStringLiteral("task"), QStringLiteral("add"), QStringLiteral("p/big"),
                    QStringLiteral("t"), QStringLiteral("--kind"), QStringLiteral("shell"),
                    QStringLiteral("--command"),
                    QStringLiteral("echo start >> '%1'; while [ ! -e '%2'.$HOURGLASS_RUN_ID ]; "
                                   "do sleep 0.1; done; for i in $(seq 20000); do echo "
                                   "\"line $i of output that meets a full disk\"; done")
                        .arg(side, work.filePath(QStringLiteral("go")))})
            .exitCode,
        0);
    const auto started = [&side] {
        QFile file(side);
        return file.open(QIODevice::ReadOnly) ? int(file.readAll().count('\n')) : 0;
    };
    const auto fillAndGo = [&](int runId) {
        if (!fill(filler))
            return false;
        QFile go(work.filePath(QStringLiteral("go.%1").arg(runId)));
        return go.open(QIODevice::WriteOnly);
    };
    const auto storedSuccesses = [&] {
        return succeededRuns(store);
    };

    // 1. The disk stays full: run --wait waits a minute for room, then exits 1 saying that the
    // end is held for the next engine; a write meanwhile is refused, naming why.
    std::unique_ptr<QProcess> waiter =
        start(store, {QStringLiteral("run"), QStringLiteral("p/big"), QStringLiteral("--wait")});
    QTRY_COMPARE_WITH_TIMEOUT(started(), 1, 60000);
    QVERIFY(fillAndGo(1));
    const Output refused =
        run(store, {QStringLiteral("project"), QStringLiteral("add"), QStringLiteral("q")});
    QCOMPARE(refused.exitCode, 1);
    QVERIFY2(refused.err.contains(QLatin1String("cannot be written")), qPrintable(refused.err));
    const Output full = finish(*waiter);
    QCOMPARE(full.exitCode, 1);
    for (const char *said : {"cannot be written", "its end could not be stored",
                             "recorded when an engine next opens it"})
        QVERIFY2(full.err.contains(QLatin1String(said)), qPrintable(full.err));

    // Room again: the next engine records what the last one held, and runs nothing again.
    QVERIFY(QFile::remove(filler));
    std::unique_ptr<QProcess> serving = serve(store);
    QTRY_COMPARE_WITH_TIMEOUT(storedSuccesses(), 1, 60000);
    ::kill(pid_t(serving->processId()), SIGTERM);
    QVERIFY(serving->waitForFinished(30000));
    // Every line of output is in the log or counted by a marker: none vanishes unsaid, also
    // those still waiting in memory when the engine stopped (they were lost under load).
    const QString log = run(store, {QStringLiteral("logs"), QStringLiteral("1")}).out;
    QVERIFY2(log.contains(QLatin1String("lines of output were dropped here")), "the marker line");
    qint64 accounted = log.count(QLatin1String("of output that meets a full disk"));
    static const QRegularExpression marker(QStringLiteral("(\\d+) lines of output were dropped"));
    for (const QRegularExpressionMatch &match : marker.globalMatch(log))
        accounted += match.captured(1).toLongLong();
    QCOMPARE(accounted, qint64(20000));

    // 2. Room comes back while run --wait waits: it records the end and exits 0.
    waiter =
        start(store, {QStringLiteral("run"), QStringLiteral("p/big"), QStringLiteral("--wait")});
    QTRY_COMPARE_WITH_TIMEOUT(started(), 2, 60000);
    QVERIFY(fillAndGo(2));
    QString err;
    QTRY_VERIFY_WITH_TIMEOUT((err += QString::fromUtf8(waiter->readAllStandardError()))
                                 .contains(QLatin1String("cannot be written")),
                             30000);
    QVERIFY(QFile::remove(filler));
    const Output roomy = finish(*waiter);
    QVERIFY2(roomy.exitCode == 0, qPrintable(err + roomy.err));
    QCOMPARE(storedSuccesses(), 2);

    QFile file(side);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(file.readAll(), QByteArray("start\nstart\n")); // each run once, none again
}

bool TestStoreFaults::mountSmall(const QTemporaryDir &work, QString *small)
{
    *small = work.filePath(QStringLiteral("small"));
    return QDir().mkpath(*small)
           && QProcess::execute(QStringLiteral("mount"),
                                {QStringLiteral("-t"), QStringLiteral("tmpfs"),
                                 QStringLiteral("-o"), QStringLiteral("size=8m"),
                                 QStringLiteral("tmpfs"), *small})
                  == 0;
}

bool TestStoreFaults::fill(const QString &filler)
{
    QFile file(filler);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Append))
        return false;
    const QByteArray block(64 * 1024, 'x');
    while (file.write(block) == block.size() && file.flush()) {
    }
    return true;
}

// Found by the torture test (seed 2104156275, full-wait): `serve` died while the disk was
// full; the waiter, finding no engine, went to run its queued run itself, could not register
// on the full disk and exited 1, though the run stayed queued and later succeeded. Now it
// says so and waits for room (as for any outage of the store), then runs it.
void TestStoreFaults::fullDisk_runWaitWhoseEngineDiedWaitsForRoomThenRunsIt()
{
    HG_REQUIRE_PART(::geteuid() == 0,
                    "mounting a small filesystem needs root (scripts/test runs as root)");
    QTemporaryDir work;
    QString small;
    HG_REQUIRE_PART(mountSmall(work, &small), "this machine does not let root mount a tmpfs (a "
                                              "container without CAP_SYS_ADMIN)");
    const auto unmount = qScopeGuard([&] {
        QProcess::execute(QStringLiteral("umount"), {QStringLiteral("-l"), small});
    });
    const QString store = small + QStringLiteral("/store.db");
    const QString side = work.filePath(QStringLiteral("side-effect"));
    const QString filler = small + QStringLiteral("/filler");
    // The long run is exclusive: serve claims the waiter's run and holds it queued.
    for (const QStringList &command :
         {QStringList{QStringLiteral("project"), QStringLiteral("add"), QStringLiteral("p")},
          {QStringLiteral("chain"), QStringLiteral("add"), QStringLiteral("p/long"),
           QStringLiteral("--exclusive")},
          {QStringLiteral("task"), QStringLiteral("add"), QStringLiteral("p/long"),
           QStringLiteral("t"), QStringLiteral("--kind"), QStringLiteral("shell"),
           QStringLiteral("--command"), QStringLiteral("sleep 600")},
          {QStringLiteral("chain"), QStringLiteral("add"), QStringLiteral("p/short")},
          {QStringLiteral("task"), QStringLiteral("add"), QStringLiteral("p/short"),
           QStringLiteral("t"), QStringLiteral("--kind"), QStringLiteral("shell"),
           QStringLiteral("--command"), QStringLiteral("echo start >> '%1'").arg(side)}}) {
        const Output done = run(store, command);
        QVERIFY2(done.exitCode == 0, qPrintable(command.join(u' ') + u": " + done.err));
    }
    auto serving = std::make_unique<QProcess>();
    serving->start(QStringLiteral(HOURGLASS_BINARY),
                   {QStringLiteral("--db"), store, QStringLiteral("serve"),
                    QStringLiteral("--slots"), QStringLiteral("1")});
    QByteArray said;
    QTRY_VERIFY_WITH_TIMEOUT((said += serving->readAllStandardError()).contains("serving"), 30000);
    QCOMPARE(run(store, {QStringLiteral("run"), QStringLiteral("p/long")}).exitCode, 0);
    std::unique_ptr<QProcess> waiter =
        start(store, {QStringLiteral("run"), QStringLiteral("p/short"), QStringLiteral("--wait")});
    // The listing is kept: under load this wait once ran out (scripts/test, 2026-11-28), and
    // what the runs were then is what tells why.
    QString listing;
    QTRY_VERIFY2_WITH_TIMEOUT(
        (listing = run(store, {QStringLiteral("runs")}).out).count(QLatin1String("queued")) == 1,
        qPrintable(listing), 30000);
    QVERIFY(fill(filler));
    ::kill(pid_t(serving->processId()), SIGKILL);
    QVERIFY(serving->waitForFinished(30000));
    QString err;
    QTRY_VERIFY_WITH_TIMEOUT((err += QString::fromUtf8(waiter->readAllStandardError()))
                                 .contains(QLatin1String("here yet")),
                             60000);
    QVERIFY2(err.contains(QLatin1String("this command waits and tries again")), qPrintable(err));
    QCOMPARE(waiter->state(), QProcess::Running);
    QVERIFY(QFile::remove(filler));
    const Output done = finish(*waiter);
    QVERIFY2(done.exitCode == 0, qPrintable(err + done.err));
    QFile file(side);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(file.readAll(), QByteArray("start\n"));
}

// Found by helper-10: serve stopped (SIGTERM) while another process held the store locked,
// keeping its run's end in its journal; the waiter took the run over, its engine recorded
// that end at its start (the run cancelled) and was never told of it: it waited for good.
void TestStoreFaults::lockedStore_runWaitEndsWhenTheEndServeHeldIsRecorded()
{
    QTemporaryDir work;
    const QString store = work.filePath(QStringLiteral("store.db"));
    const QString side = work.filePath(QStringLiteral("side-effect"));
    for (const QStringList &command :
         {QStringList{QStringLiteral("project"), QStringLiteral("add"), QStringLiteral("p")},
          {QStringLiteral("chain"), QStringLiteral("add"), QStringLiteral("p/c")},
          {QStringLiteral("task"), QStringLiteral("add"), QStringLiteral("p/c"),
           QStringLiteral("t"), QStringLiteral("--kind"), QStringLiteral("shell"),
           QStringLiteral("--command"),
           QStringLiteral("echo start >> '%1'; sleep 120").arg(side)}}) {
        const Output done = run(store, command);
        QVERIFY2(done.exitCode == 0, qPrintable(command.join(u' ') + u": " + done.err));
    }
    std::unique_ptr<QProcess> serving = serve(store);
    QByteArray said;
    QTRY_VERIFY_WITH_TIMEOUT((said += serving->readAllStandardError()).contains("serving"), 30000);
    std::unique_ptr<QProcess> waiter =
        start(store, {QStringLiteral("run"), QStringLiteral("p/c"), QStringLiteral("--wait")});
    QTRY_VERIFY_WITH_TIMEOUT(QFileInfo::exists(side), 30000);
    {
        QSqlDatabase lock =
            QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("lock"));
        lock.setDatabaseName(store);
        QVERIFY(lock.open());
        QSqlQuery holds(lock);
        QVERIFY(holds.exec(QStringLiteral("BEGIN EXCLUSIVE")));
        ::kill(pid_t(serving->processId()), SIGTERM); // its end is held in its journal
        QVERIFY(serving->waitForFinished(60000));
        QString err;
        QTRY_VERIFY_WITH_TIMEOUT((err += QString::fromUtf8(waiter->readAllStandardError()))
                                     .contains(QLatin1String("here yet")),
                                 60000);
        QVERIFY(holds.exec(QStringLiteral("ROLLBACK")));
        holds.finish();
        lock.close();
    }
    QSqlDatabase::removeDatabase(QStringLiteral("lock"));
    QVERIFY2(waiter->waitForFinished(60000), "run --wait did not end once the end was recorded");
    const QString err = QString::fromUtf8(waiter->readAllStandardError());
    QVERIFY2(waiter->exitCode() == 1, qPrintable(err)); // cancelled by serve's stop
    QFile file(side);
    QVERIFY(file.open(QIODevice::ReadOnly));
    QCOMPARE(file.readAll(), QByteArray("start\n")); // never run again
}

HG_BACKEND_TEST_GUILESS_MAIN(TestStoreFaults)
#include "tst_storefaults.moc"
