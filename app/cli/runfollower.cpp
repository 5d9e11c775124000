#include "runfollower.h"

#include "base/terminaltext.h"
#include "store/chainrepository.h"
#include "store/enginesessionrepository.h"
#include "store/logrepository.h"
#include "store/removedruns.h"
#include "store/runrepository.h"
#include "store/store.h"
#include "store/taskrepository.h"
#include "store/taskrunrepository.h"

#include <QElapsedTimer>
#include <QThread>

namespace hg {

RunFollower::RunFollower(Store &store, QTextStream &out, QTextStream &err)
    : m_store(store)
    , m_out(out)
    , m_err(err)
{}

QString RunFollower::taskName(qint64 taskRunId)
{
    if (taskRunId <= 0)
        return QStringLiteral("run");
    if (const auto known = m_taskNames.constFind(taskRunId); known != m_taskNames.constEnd())
        return known.value();
    QString name = QStringLiteral("?");
    if (const Result<TaskRun> taskRun = TaskRunRepository(m_store).byId(taskRunId); taskRun) {
        if (const Result<Task> task = TaskRepository(m_store).byId(taskRun->taskId); task)
            name = task->name;
    }
    m_taskNames.insert(taskRunId, name);
    return name;
}

void RunFollower::print(const LogLine &line)
{
    const char marker = line.stream == LogStream::Stderr ? '!'
                        : line.stream == LogStream::System || line.stream == LogStream::Failure
                            ? '#'
                            : '|';
    // The text came from a task, a server or a remote database: escaped before a terminal.
    m_lastLineId = std::max(m_lastLineId, line.id); // printed once, whoever read it
    m_out << terminaltext::escaped(taskName(line.taskRunId)) << ' ' << marker << ' '
          << terminaltext::escaped(line.text) << '\n';
    m_out.flush();
}

Result<Run> RunFollower::printNew(qint64 runId)
{
    const Result<Run> run = RunRepository(m_store).byId(runId);
    if (!run)
        return vanished(run.error());
    if (!m_lastSeen) {
        const Result<Chain> chain = ChainRepository(m_store).byId(run->chainId);
        m_selfDestructs = chain && chain->selfDestruct;
    }
    m_lastSeen = run.value();
    LogRepository logs(m_store);
    for (;;) {
        const Result<QList<LogLine>> lines = logs.read(runId, m_lastLineId, 1000);
        if (!lines)
            return lines.error();
        for (const LogLine &line : lines.value()) {
            print(line);
            m_lastLineId = line.id;
        }
        if (lines->size() < 1000)
            return run;
    }
}

Result<Run> RunFollower::follow(qint64 runId)
{
    QElapsedTimer sinceCheck;
    sinceCheck.start();
    int uncarried = 0;            // checks in a row that found no engine to carry the run on
    QElapsedTimer outage;         // since the store could not be read, while it cannot
    QElapsedTimer sinceStoreBack; // since the store came back after an outage
    for (;;) {
        const Result<Run> run = printNew(runId);
        if (!run && run.error().kind == ErrorKind::Unavailable) {
            if (!outage.isValid()) {
                outage.start();
                m_err << "hourglass: " << terminaltext::escaped(run.error().message)
                      << "; waiting for the store to come back (run " << runId
                      << " goes on without it)\n";
                m_err.flush();
            } else if (outage.elapsed() >= storeOutageMs) {
                return Error::runtime(QStringLiteral("the store has been unreachable for %1 "
                                                     "minutes: how run %2 ends is not known")
                                          .arg(storeOutageMs / 60000)
                                          .arg(runId));
            }
            QThread::msleep(pollMs);
            continue;
        }
        if (outage.isValid()) {
            outage.invalidate();
            m_err << "hourglass: the store is back\n";
            m_err.flush();
            // Engines renew their sessions only now: an outage longer than the lease left
            // them all expired for a moment. They are not judged until they had time to.
            uncarried = 0;
            sinceStoreBack.start();
        }
        if (!run || isTerminal(run->state))
            return run.ok() ? printNew(runId) : run; // lines written just before the end
        const bool engineGrace =
            sinceStoreBack.isValid() && sinceStoreBack.elapsed() < engineGraceAfterOutageMs;
        if (sinceCheck.elapsed() >= engineCheckMs && !engineGrace) {
            sinceCheck.restart();
            // Deleted or replaced: its engine stops, and nothing more about the run is known.
            if (const Status inPlace = m_store.stillInPlace(); !inPlace)
                return Error::runtime(QStringLiteral("how run %1 ends cannot be known: %2")
                                          .arg(runId)
                                          .arg(inPlace.error().message));
            uncarried = someoneCarries(run.value()) ? 0 : uncarried + 1;
            // Twice: a run between two engines (claimed, handed over) is not taken for lost.
            if (uncarried >= 2)
                return Error::unavailable(
                    run->engineName.isEmpty() || run->state == RunState::Queued
                        ? QStringLiteral("no engine serves the store, and run %1 is queued")
                              .arg(runId)
                        : QStringLiteral("the engine that ran run %1 (%2) is gone, leaving "
                                         "it %3")
                              .arg(runId)
                              .arg(run->engineName, enumName(run->state)));
        }
        QThread::msleep(pollMs);
    }
}

bool RunFollower::someoneCarries(const Run &run)
{
    const Result<QList<EngineSession>> live = EngineSessionRepository(m_store).liveNow();
    if (!live)
        return true; // cannot tell (the store is away): keep waiting
    if (run.state == RunState::Queued || run.engineName.isEmpty())
        return !live->isEmpty();
    for (const EngineSession &session : live.value()) {
        if (session.name == run.engineName)
            return true;
    }
    // On a shared store the living take a dead engine's runs over once its lease expires.
    return m_store.backend() == StoreBackend::PostgreSql && !live->isEmpty();
}

Result<Run> RunFollower::vanished(const Error &error)
{
    if (error.kind != ErrorKind::NotFound || !m_lastSeen)
        return error;
    // Removed with its chain or project (a self-destructing chain goes a few seconds after a
    // success, or at once when its engine stops): the store kept how it ended.
    const Result<std::optional<Run>> removed = RemovedRuns::end(m_store, m_lastSeen->id);
    if (removed && removed->has_value() && isTerminal(removed->value().state)) {
        Run ended = m_lastSeen.value();
        ended.state = removed->value().state;
        ended.finishedAt = removed->value().finishedAt;
        return ended;
    }
    // A store from before that kept the ends: the end was seen, or it is not known. Never
    // guessed: another run's success removes this one too, whatever this one's end was.
    if (!m_selfDestructs || ChainRepository(m_store).byId(m_lastSeen->chainId).ok())
        return error;
    if (isTerminal(m_lastSeen->state))
        return m_lastSeen.value();
    return Error::runtime(QStringLiteral("run %1 was removed with its chain, which removes "
                                         "itself after a successful run, before its end was "
                                         "seen: it is not known how it ended")
                              .arg(m_lastSeen->id));
}

} // namespace hg
