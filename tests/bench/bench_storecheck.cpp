// The cost of guarding a large SQLite store (scripts/bench): quick_check and integrity_check
// at open, a backup and the check a restore makes, on a store of 100,000 runs with a task run
// and ten log lines each. Store::checkSqlite cites them. Each is set beside the SQL it sent
// (recorded in a pass of its own) run bare on the same file, the backup beside a plain copy of
// the file and its check's SQL bare.
#include "benchsupport.h"
#include "sqlrecorder.h"
#include "store/integritycheck.h"
#include "store/store.h"
#include "store/storebackup.h"
#include "store/storerestore.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QSqlError>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTextStream>

using namespace hg;

namespace {

QTextStream out(stdout);

void exec(QSqlQuery &query, const QString &sql)
{
    if (!query.exec(sql))
        qFatal("bench setup failed: %s: %s", qPrintable(sql), qPrintable(query.lastError().text()));
}

// The best of three: the file is in the page cache after the first.
qint64 bestOf(const std::function<void()> &work)
{
    qint64 best = std::numeric_limits<qint64>::max();
    for (int i = 0; i < 3; ++i) {
        QElapsedTimer timer;
        timer.start();
        work();
        best = std::min(best, timer.elapsed());
    }
    return best;
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    const qint64 runs = app.arguments().value(1, QStringLiteral("100000")).toLongLong();
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("hourglass.db"));
    const StoreLocation location = StoreLocation::parse(path).value();
    {
        auto store = std::move(Store::open(location, QStringLiteral("setup")).value());
        bench::createChains(*store, 100, TaskKind::Shell, QStringLiteral("echo hi"), {}, {});
        QSqlQuery q(store->database());
        exec(q, QStringLiteral("PRAGMA synchronous = OFF"));
        exec(q, QStringLiteral("BEGIN"));
        exec(q, QStringLiteral("WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n "
                               "WHERE i < %1) INSERT INTO run (chain_id, trigger, scheduled_for, "
                               "state, created_at, started_at, finished_at) SELECT (SELECT "
                               "min(id) FROM chain) + n.i % 100, 'schedule', 1700000000000 + "
                               "n.i * 60000, CASE WHEN n.i % 10 = 0 THEN 'failed' ELSE "
                               "'succeeded' END, 1700000000000 + n.i * 60000, 1700000000000 + "
                               "n.i * 60000 + 5, 1700000000000 + n.i * 60000 + 3000 FROM n")
                    .arg(runs - 1));
        exec(q, QStringLiteral("INSERT INTO task_run (run_id, task_id, attempt, state, pid, "
                               "exit_code, queued_at, started_at, finished_at) SELECT r.id, "
                               "(SELECT min(t.id) FROM task t WHERE t.chain_id = r.chain_id), 1, "
                               "r.state, 10000 + r.id % 30000, 0, r.created_at, r.started_at, "
                               "r.finished_at FROM run r"));
        exec(q, QStringLiteral("WITH RECURSIVE k(j) AS (SELECT 0 UNION ALL SELECT j + 1 FROM k "
                               "WHERE j < 9) INSERT INTO log_line (run_id, task_run_id, stream, "
                               "at, text) SELECT tr.run_id, tr.id, 'stdout', tr.started_at + "
                               "k.j, 'line ' || k.j || ' of attempt ' || tr.id || ': some "
                               "ordinary output of a job' FROM task_run tr, k ORDER BY tr.id, "
                               "k.j"));
        exec(q, QStringLiteral("COMMIT"));
        exec(q, QStringLiteral("PRAGMA wal_checkpoint(TRUNCATE)"));
    }
    out << QStringLiteral("store of %1 runs, %1 task runs, %2 log lines: %3 MB\n")
               .arg(runs)
               .arg(runs * 10)
               .arg(QFileInfo(path).size() / 1e6, 0, 'f', 1);

    bench::SqlRecorder recorder;
    auto store = std::move(Store::open(location, QStringLiteral("bench")).value());
    recorder.attach(store->database());
    const auto report = [&](const QString &what, double ms, const QString &besideWhat,
                            double besideMs) {
        bench::reportMs(out, QStringLiteral("bench_storecheck"), what, ms, bench::Beside::Limit,
                        besideWhat, besideMs);
    };
    // Best of three, warm cache, beside the best of three bare passes of the SQL it sent.
    const auto checked = [&](const QString &what, const std::function<void()> &work) {
        const qint64 ms = bestOf(work);
        recorder.start();
        work();
        const bench::Replayed bare = bench::replay(recorder.stop(), 3);
        report(what, double(ms),
               QStringLiteral("its %1 SQL statement(s) bare").arg(bare.statements), bare.fastestMs);
    };
    checked(QStringLiteral("quick_check (warm cache)"), [&] {
        (void)IntegrityCheck::problems(store->database(), IntegrityCheck::Depth::Quick);
    });
    checked(QStringLiteral("integrity_check (warm cache)"), [&] {
        (void)IntegrityCheck::problems(store->database(), IntegrityCheck::Depth::Full);
    });
    checked(QStringLiteral("Store::open with its quick_check"),
            [&] { (void)Store::open(location, QStringLiteral("again")); });

    QElapsedTimer timer;
    recorder.start();
    timer.start();
    const QString target = dir.filePath(QStringLiteral("backup.db"));
    const Result<StoreBackup::Written> written = StoreBackup::write(*store, target);
    const double backupMs = double(timer.nsecsElapsed()) / 1e6;
    if (!written)
        qFatal("backup failed: %s", qPrintable(written.error().message));
    QList<bench::RecordedStatement> onCopy;
    for (const bench::RecordedStatement &statement : recorder.stop()) {
        if (statement.file != path)
            onCopy << statement;
    }
    out << QStringLiteral("  backup: copy and integrity_check %1 ms, %2 MB\n")
               .arg(written->elapsedMs)
               .arg(written->bytes / 1e6, 0, 'f', 1);
    // The same bytes copied as a file (the write-ahead log is empty since the set-up's
    // checkpoint), then the copy's checks bare.
    const QString plain = dir.filePath(QStringLiteral("plain-copy.db"));
    timer.restart();
    if (!QFile::copy(path, plain))
        qFatal("cannot copy %s", qPrintable(path));
    const double copyMs = double(timer.nsecsElapsed()) / 1e6;
    double checkMs = 0;
    {
        QSqlDatabase copy =
            QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("plain-copy"));
        copy.setDatabaseName(plain);
        if (!copy.open())
            qFatal("cannot open %s", qPrintable(plain));
        checkMs = bench::replay(onCopy, 1, copy).ms;
        copy.close();
    }
    QSqlDatabase::removeDatabase(QStringLiteral("plain-copy"));
    report(QStringLiteral("backup in all"), backupMs,
           QStringLiteral("QFile::copy of the store (%1 ms) and the copy's %2 check statement(s) "
                          "bare")
               .arg(copyMs, 0, 'f', 0)
               .arg(onCopy.size()),
           copyMs + checkMs);
    recorder.start();
    timer.restart();
    if (!StoreRestore::check(target))
        qFatal("the backup fails its check");
    const double restoreMs = double(timer.nsecsElapsed()) / 1e6;
    const bench::Replayed bare = bench::replay(recorder.stop(), 1);
    report(QStringLiteral("restore's check of the backup"), restoreMs,
           QStringLiteral("its %1 SQL statement(s) bare").arg(bare.statements), bare.ms);
    return 0;
}
