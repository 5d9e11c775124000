#include "sharedstoretest.h"

#include "store/chainrepository.h"
#include "store/enginesessionrepository.h"
#include "store/projectrepository.h"
#include "store/runrepository.h"
#include "store/taskrepository.h"
#include "testservers.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QTest>

#include <algorithm>
#include <csignal>
#include <cstdio>

using namespace hg;

void SharedStoreTest::setUp()
{
    if (!test::PrivatePostgres::isInstalled()) {
        if (test::requireServers())
            QFAIL("PostgreSQL 15 is not installed (scripts/test installs it)");
        QSKIP("PostgreSQL 15 is not installed");
    }
    m_server = std::make_unique<test::PrivatePostgres>();
    const QString failed = m_server->start();
    QVERIFY2(failed.isEmpty(), qPrintable(failed));
    Result<std::unique_ptr<Store>> store = Store::open(
        StoreLocation::parse(m_server->url().toString()).value(), QStringLiteral("test"));
    QVERIFY2(store, store ? "" : qPrintable(store.error().message));
    m_store = std::move(store.value());
    const Result<Project> project = ProjectRepository(*m_store).add(QStringLiteral("p"));
    QVERIFY(project);
    m_projectId = project->id;
    // Each test starts from an empty folder: no ledger, no gate the one before opened.
    QDir folder(m_dir.path());
    QVERIFY(folder.removeRecursively() && folder.mkpath(QStringLiteral(".")));
}

void SharedStoreTest::tearDown()
{
    for (auto &engine : m_engines) {
        if (engine->state() != QProcess::NotRunning) {
            ::kill(pid_t(engine->processId()), SIGCONT);
            engine->kill();
            engine->waitForFinished(5000);
        }
    }
    m_engines.clear();
    m_said.clear();
    m_store.reset();
    m_server.reset();
}

std::unique_ptr<QProcess> SharedStoreTest::serve(const QString &name, double leaseSeconds,
                                                 int slots, const test::PrivateCgroup *cgroup)
{
    auto process = std::make_unique<QProcess>();
    if (cgroup)
        cgroup->enter(*process);
    process->setProcessChannelMode(QProcess::ForwardedOutputChannel);
    QProcess *engine = process.get();
    connect(engine, &QProcess::readyReadStandardError, engine, [this, engine] {
        const QByteArray text = engine->readAllStandardError();
        m_said[engine] += text;
        std::fwrite(text.constData(), 1, size_t(text.size()), stderr);
    });
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("HOURGLASS_ENGINE_NAME"), name);
    process->setProcessEnvironment(environment);
    process->start(QStringLiteral(HOURGLASS_BINARY),
                   QStringList{QStringLiteral("--db"), m_server->url().toString(),
                               QStringLiteral("serve"), QStringLiteral("--lease"),
                               QString::number(leaseSeconds)}
                       + (slots > 0 ? QStringList{QStringLiteral("--slots"), QString::number(slots)}
                                    : QStringList{}));
    process->waitForStarted();
    process->setObjectName(name);
    return process;
}

qint64 SharedStoreTest::chainWithTasks(const QString &name, const QStringList &commands,
                                       int maxRetries)
{
    Chain chain;
    chain.projectId = m_projectId;
    chain.name = name;
    const Result<Chain> added = ChainRepository(*m_store).add(chain);
    if (!added)
        return 0;
    for (qsizetype i = 0; i < commands.size(); ++i) {
        Task task;
        task.chainId = added->id;
        task.name = QStringLiteral("t%1").arg(i + 1);
        task.kind = TaskKind::Shell;
        task.command = commands.at(i);
        task.maxRetries = maxRetries;
        if (!TaskRepository(*m_store).add(task))
            return 0;
    }
    return added->id;
}

Run SharedStoreTest::startRun(qint64 chainId)
{
    Run run;
    run.chainId = chainId;
    run.trigger = RunTrigger::Manual;
    const Result<Run> inserted = RunRepository(*m_store).insert(run);
    return inserted ? inserted.value() : Run{};
}

void SharedStoreTest::stopEngine(QProcess &engine)
{
    engine.terminate();
    if (!engine.waitForFinished(15000))
        engine.kill();
}

qint64 SharedStoreTest::chainWithTask(const QString &name, const QString &command, int maxRetries,
                                      int maxInstances, bool exclusive)
{
    Chain chain;
    chain.projectId = m_projectId;
    chain.name = name;
    chain.maxInstances = maxInstances;
    chain.exclusive = exclusive;
    const Result<Chain> added = ChainRepository(*m_store).add(chain);
    if (!added)
        return 0;
    Task task;
    task.chainId = added->id;
    task.name = QStringLiteral("t");
    task.kind = TaskKind::Shell;
    task.command = command;
    task.maxRetries = maxRetries;
    return TaskRepository(*m_store).add(task) ? added->id : 0;
}

QStringList SharedStoreTest::linesOf(const QString &name) const
{
    QFile file(path(name));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(file.readAll()).split(u'\n', Qt::SkipEmptyParts);
}

QList<Run> SharedStoreTest::runs() const
{
    RunFilter filter;
    filter.limit = 100000;
    const Result<QList<Run>> listed = RunRepository(*m_store).list(filter);
    return listed ? listed.value() : QList<Run>();
}

bool SharedStoreTest::allTerminal() const
{
    const QList<Run> all = runs();
    return !all.isEmpty() && std::all_of(all.cbegin(), all.cend(), [](const Run &run) {
        return isTerminal(run.state);
    });
}

QSet<QString> SharedStoreTest::runOwners() const
{
    QSet<QString> engines;
    for (const Run &run : runs()) {
        if (!run.engineName.isEmpty())
            engines.insert(run.engineName);
    }
    return engines;
}

std::optional<EngineSession> SharedStoreTest::liveSession(const QString &name) const
{
    const Result<QList<EngineSession>> live =
        EngineSessionRepository(*m_store).live(QDateTime::currentDateTimeUtc());
    if (!live)
        return std::nullopt;
    for (const EngineSession &session : live.value()) {
        if (session.name == name)
            return session;
    }
    return std::nullopt;
}

bool SharedStoreTest::serving(const QStringList &names) const
{
    return std::all_of(names.cbegin(), names.cend(),
                       [this](const QString &name) { return liveSession(name).has_value(); });
}

QString SharedStoreTest::gate(const QString &name) const
{
    return QStringLiteral("while [ ! -e '%1.gate' ]; do sleep 0.1; done").arg(path(name));
}

void SharedStoreTest::openGate(const QString &name) const
{
    QFile file(path(name) + QStringLiteral(".gate"));
    QVERIFY(file.open(QIODevice::WriteOnly));
}
