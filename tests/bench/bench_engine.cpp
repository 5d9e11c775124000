// End-to-end run throughput of the engine with every state persisted (scripts/bench).
// Prints figures only; the targets are in the issue and the notes.
#include "scheduler/engine.h"
#include "store/chainrepository.h"
#include "store/projectrepository.h"
#include "store/runrepository.h"
#include "store/store.h"
#include "store/taskrepository.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QTextStream>
#include <QThread>

using namespace hg;

namespace {

// Queues `count` runs of a one-task chain and returns completed runs per second.
double measure(const QString &storePath, TaskKind kind, const QString &command, int count)
{
    std::unique_ptr<Store> store = std::move(
        Store::open(StoreLocation::parse(storePath).value(), QStringLiteral("bench")).value());
    const QString chainName = QStringLiteral("%1-%2").arg(enumName(kind)).arg(count);
    const Project project = ProjectRepository(*store).byName(QStringLiteral("bench")).ok()
                                ? ProjectRepository(*store).byName(QStringLiteral("bench")).value()
                                : ProjectRepository(*store).add(QStringLiteral("bench")).value();
    Chain chain;
    chain.projectId = project.id;
    chain.name = chainName;
    chain = ChainRepository(*store).add(chain).value();
    Task task;
    task.chainId = chain.id;
    task.name = QStringLiteral("t");
    task.kind = kind;
    task.command = command;
    (void)TaskRepository(*store).add(task).value();

    QList<qint64> ids;
    for (int i = 0; i < count; ++i) {
        Run run;
        run.chainId = chain.id;
        ids << RunRepository(*store).insert(run).value().id;
    }
    EngineConfig config;
    config.storeLocation = storePath;
    config.name = QStringLiteral("bench");
    config.slotCount = 2 * QThread::idealThreadCount();
    config.runSchedules = false;
    Engine engine(config);
    int finished = 0;
    QElapsedTimer timer;
    QObject::connect(&engine, &Engine::runChanged, &engine, [&](const Run &run) {
        if (isTerminal(run.state) && ++finished == count)
            QCoreApplication::quit();
    });
    QObject::connect(&engine, &Engine::started, &engine, [&] {
        timer.start();
        for (qint64 id : ids)
            engine.admitRun(id);
    });
    QMetaObject::invokeMethod(&engine, &Engine::start, Qt::QueuedConnection);
    QCoreApplication::exec();
    const double seconds = double(timer.nsecsElapsed()) / 1e9;
    engine.shutdown(Engine::ExitPolicy::Stop);
    return count / seconds;
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QTextStream out(stdout);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("bench.db"));
    out << "engine runs per second, one task each, every state persisted (SQLite, WAL):\n";
    out.flush();
    // An argument picks one case by its label's first word (for profiling one of them).
    const QString only = app.arguments().value(1);
    for (const auto &[label, kind, command, count] :
         {std::tuple{"NoOp builtin", TaskKind::Builtin, "NoOp", 3000},
          std::tuple{"PROGRAM /bin/true", TaskKind::Program, "/bin/true", 800}}) {
        if (!only.isEmpty() && !QString::fromLatin1(label).startsWith(only))
            continue;
        const double perSecond = measure(path, kind, QString::fromLatin1(command), count);
        out << QStringLiteral("  %1 %2 runs: %3 runs/s\n")
                   .arg(QString::fromLatin1(label).leftJustified(20))
                   .arg(count)
                   .arg(perSecond, 0, 'f', 0);
        out.flush();
    }
    return 0;
}
