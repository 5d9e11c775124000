// A pg_timetable database as a big installation has it — 10,000 chains made with
// timetable.add_job and 1,000,000 execution_log rows — read through the console: how long the
// chain list (what the tree shows) and the first page of the run history take, and a deep
// page reached by keyset. Targets (issue 12): the tree within 200 ms, the first page of runs
// within 100 ms. Each read is also set beside the SQL it sent (recorded through libpq's trace in
// a pass of its own) run bare on the same connection.
#include "benchsupport.h"
#include "cron/cronexpression.h"
#include "domain/connectionurl.h"
#include "pgtimetableschema.h"
#include "privatepostgres.h"
#include "remote/pgtimetablecatalog.h"
#include "remote/remotedatabase.h"
#include "sqlrecorder.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QSqlError>
#include <QSqlQuery>
#include <QTextStream>
#include <QTimeZone>

#include <algorithm>

using namespace hg;

namespace {

QTextStream out(stdout);

bool exec(QSqlDatabase &db, const QString &sql)
{
    QSqlQuery q(db);
    if (q.exec(sql))
        return true;
    out << "bench_pgtimetable: " << q.lastError().text() << "\n  in: " << sql.left(200) << '\n';
    return false;
}

// Median of `repeats` timings of `work`, in milliseconds.
template<typename Work>
double medianMs(int repeats, Work work)
{
    QList<double> times;
    for (int i = 0; i < repeats; ++i) {
        QElapsedTimer timer;
        timer.start();
        work();
        times << timer.nsecsElapsed() / 1e6;
    }
    std::sort(times.begin(), times.end());
    return times.at(times.size() / 2);
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    if (!test::PrivatePostgres::isInstalled()) {
        out << "bench_pgtimetable: PostgreSQL 15 is not installed; skipped\n";
        return 0;
    }
    test::PrivatePostgres server;
    if (const QString failed = server.start(); !failed.isEmpty()) {
        out << "bench_pgtimetable: " << failed << '\n';
        return 1;
    }
    const int chains =
        app.arguments().value(1).toInt() > 0 ? app.arguments().value(1).toInt() : 10'000;
    const int executions = chains * 100;
    const QUrl url = server.url();
    {
        QSqlDatabase db =
            QSqlDatabase::addDatabase(QStringLiteral("QPSQL"), QStringLiteral("load"));
        db.setHostName(url.host());
        db.setPort(url.port());
        db.setUserName(url.userName());
        db.setDatabaseName(url.path().mid(1));
        if (!db.open()) {
            out << "bench_pgtimetable: " << db.lastError().text() << '\n';
            return 1;
        }
        QElapsedTimer loading;
        loading.start();
        if (const Status created = PgTimetableSchema::create(db, 6); !created) {
            out << "bench_pgtimetable: " << created.error().message << '\n';
            return 1;
        }
        // As users make chains: add_job, with a spread of schedules.
        if (!exec(db, QStringLiteral("SELECT timetable.add_job('job-' || i, "
                                     "((i % 60) || ' ' || (i % 24) || ' * * *')::timetable.cron, "
                                     "'SELECT ' || i) FROM generate_series(1, %1) AS i")
                          .arg(chains))
            // History as the worker writes it: one row per task execution.
            || !exec(db, QStringLiteral(
                             "INSERT INTO timetable.execution_log (chain_id, task_id, txid, "
                             "last_run, finished, pid, returncode, ignore_error, kind, command, "
                             "output, client_name, params) SELECT 1 + i % %1, 1 + i % %1, i, "
                             "now() - make_interval(secs => i), now() - make_interval(secs => i) "
                             "+ interval '20 ms', 4242, CASE WHEN i % 50 = 0 THEN 1 ELSE 0 END, "
                             "true, 'SQL', 'SELECT 1', 'SELECT 1', 'worker-1', NULL "
                             "FROM generate_series(1, %2) AS i")
                             .arg(chains)
                             .arg(executions))
            || !exec(db, QStringLiteral("ANALYZE")))
            return 1;
        out << "pg_timetable 6.x database: " << chains << " chains, " << executions
            << " execution_log rows (loaded in " << loading.elapsed() / 1000 << " s)\n";
        db.close();
    }
    QSqlDatabase::removeDatabase(QStringLiteral("load"));

    const Result<ConnectionProfile> profile =
        ConnectionUrl::parse(QStringLiteral("bench"), ConnectionKind::PgTimetable, url.toString());
    if (!profile) {
        out << "bench_pgtimetable: " << profile.error().message << '\n';
        return 1;
    }
    // Connecting and reading the version, as the tree does when it shows the remote.
    const double connectMs = medianMs(5, [&] {
        auto remote = RemoteDatabase::open(profile.value(), {});
        if (remote)
            static_cast<void>(PgTimetableCatalog::open(*remote.value()));
    });
    auto remote = RemoteDatabase::open(profile.value(), {});
    if (!remote) {
        out << "bench_pgtimetable: " << remote.error().message << '\n';
        return 1;
    }
    const Result<PgTimetableCatalog> catalog = PgTimetableCatalog::open(*remote.value());
    if (!catalog) {
        out << "bench_pgtimetable: " << catalog.error().message << '\n';
        return 1;
    }
    qsizetype listed = 0;
    const double chainsMs = medianMs(5, [&] {
        const auto list = catalog->chains();
        listed = list ? list->size() : -1;
    });
    // The chain list with each chain's next fire time, as `remote chains` prints it.
    const QTimeZone zone(catalog->info().timeZone.toUtf8());
    const double withNextMs = medianMs(3, [&] {
        const auto list = catalog->chains();
        const QDateTime now = QDateTime::currentDateTimeUtc();
        for (const PgtChain &chain : list.value())
            if (const auto expression =
                    CronExpression::parse(chain.runAt, CronDialect::PgTimetable))
                static_cast<void>(expression->next(now, zone));
    });
    PgtExecutionFilter filter;
    filter.limit = 200;
    QList<PgtExecution> page;
    const double firstPageMs = medianMs(9, [&] {
        const auto rows = catalog->executions(filter);
        page = rows ? rows.value() : QList<PgtExecution>();
    });
    filter.failedOnly = true;
    const double failedPageMs =
        medianMs(9, [&] { static_cast<void>(catalog->executions(filter)); });
    filter.failedOnly = false;
    filter.chainName = QStringLiteral("job-77");
    const double chainPageMs = medianMs(9, [&] { static_cast<void>(catalog->executions(filter)); });
    filter.chainName.clear();
    // Page 100 by keyset: start strictly after row 20,000.
    filter.limit = 20'000;
    const auto deep = catalog->executions(filter);
    double deepPageMs = -1;
    if (deep && !deep->isEmpty()) {
        filter.limit = 200;
        filter.before = PgtExecutionKey::after(deep->last());
        deepPageMs = medianMs(9, [&] { static_cast<void>(catalog->executions(filter)); });
    }
    bench::SqlRecorder recorder;
    QSqlDatabase &db = remote.value()->db();
    recorder.attach(db);
    const auto report = [&](const QString &what, double ms, bench::Beside kind,
                            const QString &besideWhat, double beside) {
        bench::reportMs(out, QStringLiteral("bench_pgtimetable"), what, ms, kind, besideWhat,
                        beside);
    };
    const auto sent = [&](const std::function<void()> &work) {
        recorder.start();
        work();
        return recorder.stop();
    };
    const auto besideBare = [&](const QString &what, double ms,
                                const QList<bench::RecordedStatement> &statements) {
        const bench::Replayed bare = bench::replay(statements, 9, db);
        report(what, ms, bench::Beside::Limit,
               QStringLiteral("its %1 statements bare (PREPARE, EXECUTE, DEALLOCATE), %2 rows")
                   .arg(bare.statements)
                   .arg(bare.rows),
               bare.ms);
    };
    // Connecting bare: a QPSQL connection of its own, then what the catalog sent on opening.
    const QList<bench::RecordedStatement> opening =
        sent([&] { static_cast<void>(PgTimetableCatalog::open(*remote.value())); });
    const double bareConnectMs = medianMs(5, [&] {
        {
            QSqlDatabase bare =
                QSqlDatabase::addDatabase(QStringLiteral("QPSQL"), QStringLiteral("bare"));
            bare.setHostName(url.host());
            bare.setPort(url.port());
            bare.setUserName(url.userName());
            bare.setDatabaseName(url.path().mid(1));
            if (!bare.open())
                qFatal("bare connection: %s", qPrintable(bare.lastError().text()));
            static_cast<void>(bench::replay(opening, 1, bare));
            bare.close();
        }
        QSqlDatabase::removeDatabase(QStringLiteral("bare"));
    });
    report(QStringLiteral("connect and read the version"), connectMs, bench::Beside::Limit,
           QStringLiteral("a QPSQL connection opened bare and the catalog's %1 statements")
               .arg(opening.size()),
           bareConnectMs);
    const QList<bench::RecordedStatement> chainList =
        sent([&] { static_cast<void>(catalog->chains()); });
    const QString chainsWhat =
        QStringLiteral("chain list (%1 chains, what the tree shows)").arg(listed);
    report(chainsWhat, chainsMs, bench::Beside::Target, QStringLiteral("issue 12"), 200);
    besideBare(chainsWhat, chainsMs, chainList);
    besideBare(QStringLiteral("chain list with each next fire time"), withNextMs, chainList);
    filter = {};
    filter.limit = 200;
    const QString firstWhat =
        QStringLiteral("runs, first page of 200 (of %1 rows)").arg(executions);
    report(firstWhat, firstPageMs, bench::Beside::Target, QStringLiteral("issue 12"), 100);
    besideBare(firstWhat, firstPageMs,
               sent([&] { static_cast<void>(catalog->executions(filter)); }));
    filter.failedOnly = true;
    besideBare(QStringLiteral("runs, failed only"), failedPageMs,
               sent([&] { static_cast<void>(catalog->executions(filter)); }));
    filter.failedOnly = false;
    filter.chainName = QStringLiteral("job-77");
    besideBare(QStringLiteral("runs, one chain"), chainPageMs,
               sent([&] { static_cast<void>(catalog->executions(filter)); }));
    filter.chainName.clear();
    if (deep && !deep->isEmpty()) {
        filter.before = PgtExecutionKey::after(deep->last());
        besideBare(QStringLiteral("runs, page 101 by keyset"), deepPageMs,
                   sent([&] { static_cast<void>(catalog->executions(filter)); }));
    }
    return page.size() == 200 ? 0 : 1;
}
