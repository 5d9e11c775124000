// File triggers (scripts/bench): how soon a file closed starts its run with inotify, set
// beside the goal (the settle time + 50 ms); and the start-up comparison of a folder
// of 100,000 files with the trigger's snapshot, beside its goal (1 s) and beside the bare
// folder scan (readdir and fstatat of every file) it is made of; the same latency polled
// (beside the poll interval + 50 ms); and what 100 idle triggers cost (inotify: nothing).
#include "benchsupport.h"
#include "domain/chaintrigger.h"
#include "scheduler/engine.h"
#include "scheduler/filetriggerwatcher.h"
#include "scheduler/folderscan.h"
#include "scheduler/inotifywatch.h"
#include "store/chainrepository.h"
#include "store/chaintriggerrepository.h"
#include "store/filetriggerrepository.h"
#include "store/projectrepository.h"
#include "store/store.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QElapsedTimer>
#include <QFile>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTextStream>
#include <QTimer>

#include <sys/resource.h>

using namespace hg;

namespace {

QTextStream out(stdout);
constexpr qint64 settleMs = 200;

qint64 chainNamed(Store &store, const QString &name)
{
    const Result<Project> project = ProjectRepository(store).add(name);
    Chain chain;
    chain.projectId = project ? project->id : 0;
    chain.name = name;
    const Result<Chain> added = ChainRepository(store).add(chain);
    return added ? added->id : 0;
}

qint64 addTrigger(Store &store, qint64 chainId, const QString &glob, qint64 pollMs = 0)
{
    ChainTrigger trigger;
    trigger.kind = TriggerKind::File;
    trigger.chainId = chainId;
    trigger.path = QStringLiteral("bench");
    trigger.file.glob = glob;
    trigger.file.settleMs = settleMs;
    trigger.file.maxPerMinute = 0;
    if (pollMs > 0) { // polled: nothing to settle beyond what two looks see
        trigger.file.pollMs = pollMs;
        trigger.file.settleMs = 0;
    }
    const Result<ChainTrigger> added = ChainTriggerRepository(store).add(trigger);
    return added ? added->id : 0;
}

// Each file written and closed once the previous one's run started: closed → started.
QList<qint64> closedToStarted(const QString &dbPath, const QString &folder, int files)
{
    Engine engine(bench::benchConfig(dbPath));
    QList<qint64> latencies;
    qint64 closedMs = 0;
    int written = 0;
    const auto writeNext = [&] {
        QFile file(QStringLiteral("%1/f%2.csv").arg(folder).arg(written++));
        if (!file.open(QIODevice::WriteOnly))
            return;
        file.write("payload\n");
        file.close();
        closedMs = QDateTime::currentMSecsSinceEpoch();
    };
    QObject::connect(&engine, &Engine::runChanged, &engine, [&](const Run &run) {
        if (run.state != RunState::Running)
            return;
        latencies << QDateTime::currentMSecsSinceEpoch() - closedMs;
        if (latencies.size() >= files)
            QCoreApplication::quit();
        else
            QTimer::singleShot(50, &engine, writeNext); // the file before settled and ran
    });
    QObject::connect(&engine, &Engine::started, &engine, [&] {
        // The first look (the baseline) happens in start(); the first file comes after it.
        QTimer::singleShot(500, &engine, writeNext);
    });
    QTimer::singleShot(120000, qApp, &QCoreApplication::quit);
    engine.start();
    QCoreApplication::exec();
    engine.shutdown(Engine::ExitPolicy::Stop);
    return latencies;
}

struct Usage
{
    qint64 cpuMs = 0;
    qint64 wakeUps = 0; // context switches: each one a wake-up of this process
};

Usage usageNow()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return {qint64(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1000
                + (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1000,
            qint64(usage.ru_nvcsw + usage.ru_nivcsw)};
}

// 100 file triggers on 100 folders, watched with inotify, nothing arriving: what they cost
// over 10 s of an event loop that has nothing else to do.
Usage idleCostOf100(Store &store, const QString &under)
{
    QList<qint64> ids;
    const qint64 chain = chainNamed(store, QStringLiteral("idle"));
    for (int i = 0; i < 100; ++i) {
        const QString folder = QStringLiteral("%1/%2").arg(under).arg(i);
        QDir().mkpath(folder);
        ids << addTrigger(store, chain, folder + QStringLiteral("/*.csv"));
    }
    InotifyWatch inotify;
    const auto clock = [] {
        return QDateTime::currentMSecsSinceEpoch();
    };
    std::vector<std::unique_ptr<FileTriggerWatcher>> watchers;
    for (const qint64 id : ids) {
        const Result<ChainTrigger> trigger = ChainTriggerRepository(store).byId(id);
        if (!trigger)
            continue;
        watchers.push_back(
            std::make_unique<FileTriggerWatcher>(trigger.value(), store, inotify, clock, clock));
        watchers.back()->start();
    }
    QTimer::singleShot(1000, qApp, &QCoreApplication::quit); // settled in
    QCoreApplication::exec();
    const Usage before = usageNow();
    QTimer::singleShot(10000, qApp, &QCoreApplication::quit);
    QCoreApplication::exec();
    const Usage after = usageNow();
    return {after.cpuMs - before.cpuMs, after.wakeUps - before.wakeUps};
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true);
    const int files = argc > 1 ? QString::fromLocal8Bit(argv[1]).toInt() : 100000;
    QTemporaryDir dir;
    const QString dbPath = dir.filePath(QStringLiteral("bench.db"));
    const QString arrivals = dir.filePath(QStringLiteral("arrivals"));
    const QString big = dir.filePath(QStringLiteral("big"));
    const QString polled = dir.filePath(QStringLiteral("polled"));
    QDir().mkpath(polled);
    QDir().mkpath(arrivals);
    QDir().mkpath(big);
    qint64 bigTrigger = 0;
    qint64 arrivalsTrigger = 0;
    qint64 polledTrigger = 0;
    constexpr qint64 pollMs = 500;
    {
        Result<std::unique_ptr<Store>> opened =
            Store::open(StoreLocation::parse(dbPath).value(), QStringLiteral("setup"));
        std::unique_ptr<Store> store = std::move(opened.value());
        arrivalsTrigger = addTrigger(*store, chainNamed(*store, QStringLiteral("arrivals")),
                                     arrivals + QStringLiteral("/*.csv"));
        polledTrigger = addTrigger(*store, chainNamed(*store, QStringLiteral("polled")),
                                   polled + QStringLiteral("/*.csv"), pollMs);
        (void)ChainTriggerRepository(*store).setPaused(polledTrigger, true);
        bigTrigger = addTrigger(*store, chainNamed(*store, QStringLiteral("big")),
                                big + QStringLiteral("/*"));
        // Paused in the store so the engine of the first part leaves it alone.
        (void)ChainTriggerRepository(*store).setPaused(bigTrigger, true);
    }
    out << "bench_filetriggers: settle " << settleMs << " ms, inotify\n";
    const QList<qint64> latencies = closedToStarted(dbPath, arrivals, 50);
    out << "  file closed -> run started (" << latencies.size()
        << " files): " << bench::figures(latencies) << '\n';
    bench::reportMs(out, QStringLiteral("bench_filetriggers"),
                    QStringLiteral("file closed -> run started, p50"),
                    bench::percentile(latencies, 50), bench::Beside::Target,
                    QStringLiteral("settle + 50 ms"), double(settleMs + 50));
    bench::reportMs(out, QStringLiteral("bench_filetriggers"),
                    QStringLiteral("file closed -> run started, p99"),
                    bench::percentile(latencies, 99), bench::Beside::Target,
                    QStringLiteral("settle + 50 ms"), double(settleMs + 50));

    {
        Result<std::unique_ptr<Store>> opened =
            Store::open(StoreLocation::parse(dbPath).value(), QStringLiteral("setup"));
        (void)ChainTriggerRepository(*opened.value()).setPaused(arrivalsTrigger, true);
        (void)ChainTriggerRepository(*opened.value()).setPaused(polledTrigger, false);
    }
    const QList<qint64> polledLatencies = closedToStarted(dbPath, polled, 20);
    out << "  polled every " << pollMs << " ms: file closed -> run started ("
        << polledLatencies.size() << " files): " << bench::figures(polledLatencies) << '\n';
    bench::reportMs(out, QStringLiteral("bench_filetriggers"),
                    QStringLiteral("polled, file closed -> run started, p99"),
                    bench::percentile(polledLatencies, 99), bench::Beside::Target,
                    QStringLiteral("poll interval + 50 ms"), double(pollMs + 50));

    for (int i = 0; i < files; ++i) {
        QFile file(QStringLiteral("%1/%2").arg(big).arg(i));
        if (file.open(QIODevice::WriteOnly))
            file.write(QByteArray::number(i));
    }
    Result<std::unique_ptr<Store>> opened =
        Store::open(StoreLocation::parse(dbPath).value(), QStringLiteral("compare"));
    std::unique_ptr<Store> store = std::move(opened.value());
    const Result<ChainTrigger> trigger = ChainTriggerRepository(*store).byId(bigTrigger);
    if (!trigger)
        return 1;
    InotifyWatch inotify;
    const auto monotonic = [] {
        return QDateTime::currentMSecsSinceEpoch();
    };
    {
        FileTriggerWatcher first(trigger.value(), *store, inotify, monotonic, monotonic);
        QElapsedTimer baseline;
        baseline.start();
        first.start(); // the first look: the baseline of every file
        out << "  baseline of " << files << " files written in " << baseline.elapsed() << " ms\n";
    }
    QElapsedTimer bare;
    bare.start();
    const FolderScan::Found found = FolderScan::scan(GlobPattern(trigger->file.glob));
    const qint64 bareMs = bare.elapsed();
    FileTriggerWatcher again(trigger.value(), *store, inotify, monotonic, monotonic);
    QElapsedTimer compare;
    compare.start();
    again.start(); // snapshot read, folder read, compared: nothing new
    const qint64 compareMs = compare.elapsed();
    out << "  start-up comparison of " << found.files.size() << " files: " << compareMs
        << " ms (the bare scan: " << bareMs << " ms)\n";
    bench::reportMs(out, QStringLiteral("bench_filetriggers"),
                    QStringLiteral("start-up comparison, %1 files").arg(files), double(compareMs),
                    bench::Beside::Target, QStringLiteral("the issue's goal"), 1000.0);
    bench::reportMs(out, QStringLiteral("bench_filetriggers"),
                    QStringLiteral("start-up comparison, %1 files").arg(files), double(compareMs),
                    bench::Beside::Limit, QStringLiteral("readdir + fstatat alone"),
                    double(std::max<qint64>(bareMs, 1)));
    const Usage idle = idleCostOf100(*store, dir.filePath(QStringLiteral("idle")));
    out << "  100 file triggers idle for 10 s: " << idle.cpuMs << " ms of CPU, " << idle.wakeUps
        << " wake-ups\n";
    bench::reportMs(out, QStringLiteral("bench_filetriggers"),
                    QStringLiteral("100 idle file triggers, CPU over 10 s"), double(idle.cpuMs),
                    bench::Beside::Limit, QStringLiteral("none: inotify wakes no one"), 1.0);
    out.flush();
    return latencies.size() == 50 && polledLatencies.size() == 20 ? 0 : 1;
}
