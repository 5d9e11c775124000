#include "runfollower.h"

#include "store/logrepository.h"
#include "store/runrepository.h"
#include "store/taskrepository.h"
#include "store/taskrunrepository.h"

#include <QThread>

namespace hg {

RunFollower::RunFollower(Store &store, QTextStream &out)
    : m_store(store)
    , m_out(out)
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
    m_out << taskName(line.taskRunId) << ' ' << marker << ' ' << line.text << '\n';
    m_out.flush();
}

Result<Run> RunFollower::printNew(qint64 runId)
{
    const Result<Run> run = RunRepository(m_store).byId(runId);
    if (!run)
        return run.error();
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
    for (;;) {
        const Result<Run> run = printNew(runId);
        if (!run || isTerminal(run->state))
            return run.ok() ? printNew(runId) : run; // lines written just before the end
        QThread::msleep(200);
    }
}

} // namespace hg
