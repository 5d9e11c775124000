// The runs view on a large store (scripts/bench): time to first paint with 1,000,000 runs,
// and to re-sort, each beside the SQL it sent run bare on the same file (recorded as it ran).
// Runs with QT_QPA_PLATFORM=offscreen when no display.
#include "benchsupport.h"
#include "runsmodel.h"
#include "sqlrecorder.h"
#include "store/store.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QHeaderView>
#include <QSqlError>
#include <QSqlQuery>
#include <QTableView>
#include <QTemporaryDir>
#include <QTextStream>

using namespace hg;

int main(int argc, char *argv[])
{
    bench::useOffscreenWithoutDisplay();
    QApplication app(argc, argv);
    QTextStream out(stdout);
    const qint64 runs = app.arguments().value(1, QStringLiteral("1000000")).toLongLong();
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("bench.db"));
    {
        auto store = std::move(
            Store::open(StoreLocation::parse(path).value(), QStringLiteral("setup")).value());
        bench::createChains(*store, 100, TaskKind::Builtin, QStringLiteral("NoOp"), {}, {});
        QSqlQuery q(store->database());
        q.exec(QStringLiteral("PRAGMA synchronous = OFF"));
        if (!q.exec(
                QStringLiteral(
                    "WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < %1) "
                    "INSERT INTO run (chain_id, trigger, scheduled_for, state, created_at, "
                    "started_at, finished_at) SELECT (SELECT min(id) FROM chain) + n.i % 100, "
                    "'manual', 1700000000000 + ((n.i * 7919) % %2) * 1000, "
                    "CASE WHEN n.i % 10 = 0 THEN 'failed' ELSE 'succeeded' END, "
                    "1700000000000, 1700000000000 + n.i, 1700000000000 + n.i + (n.i % 5000) FROM n")
                    .arg(runs - 1)
                    .arg(runs)))
            qFatal("setup: %s", qPrintable(q.lastError().text()));
        q.exec(QStringLiteral("PRAGMA wal_checkpoint(TRUNCATE)"));
    }
    out << QStringLiteral("runs view with %1 runs in the store:\n").arg(runs);

    // The view's time beside its SQL's, run again bare (every row walked): what the model and
    // the painting add. The trace's own cost (microseconds a statement) stays in the view's.
    bench::SqlRecorder recorder;
    const auto report = [&](const QString &what, double ms) {
        const bench::Replayed bare = bench::replay(recorder.stop(), 5);
        bench::reportMs(out, QStringLiteral("bench_runsview"), what, ms, bench::Beside::Limit,
                        QStringLiteral("its %1 SQL statements bare, %2 rows")
                            .arg(bare.statements)
                            .arg(bare.rows),
                        bare.ms);
    };
    QElapsedTimer timer;
    recorder.start();
    timer.start();
    auto store =
        std::move(Store::open(StoreLocation::parse(path).value(), QStringLiteral("gui")).value());
    RunsModel model(*store);
    (void)model.reload();
    QTableView view;
    view.setModel(&model);
    view.resize(1200, 800);
    view.show();
    (void)view.grab(); // paints now
    report(QStringLiteral("first paint (store opened, first page read, painted)"),
           double(timer.nsecsElapsed()) / 1e6);

    const auto timed = [&](const QString &what, const std::function<void()> &action) {
        recorder.start();
        timer.restart();
        action();
        (void)view.grab();
        const double ms = double(timer.nsecsElapsed()) / 1e6;
        report(QStringLiteral("%1 (%2 rows loaded)").arg(what).arg(model.rowCount()), ms);
    };
    timed(QStringLiteral("sort all by scheduled-for"),
          [&] { model.sort(RunsModel::ScheduledColumn, Qt::DescendingOrder); });
    timed(QStringLiteral("sort all by duration"),
          [&] { model.sort(RunsModel::DurationColumn, Qt::DescendingOrder); });
    timed(QStringLiteral("then filter to failed runs (sorted by duration)"),
          [&] { model.setFilter(std::nullopt, RunState::Failed, std::nullopt); });
    timed(QStringLiteral("scroll to the end of the loaded rows and fetch the next page"), [&] {
        view.scrollToBottom();
        QCoreApplication::processEvents();
    });
    return 0;
}
