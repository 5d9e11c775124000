#include "executorrun.h"

#include <QEventLoop>
#include <QTimer>

namespace hg::test {

QString ExecutorRun::text() const
{
    QStringList all;
    for (const auto &[stream, line] : lines)
        all << line;
    return all.join(QLatin1Char('\n'));
}

ExecutorRun runExecutor(TaskExecutor &executor, int stopAfterMs, RunState stopReason, int timeoutMs)
{
    ExecutorRun run;
    QEventLoop loop;
    QObject::connect(
        &executor, &TaskExecutor::outputLine, &loop,
        [&run](LogStream stream, const QString &line) { run.lines << std::pair(stream, line); });
    QObject::connect(&executor, &TaskExecutor::finished, &loop, [&](const TaskOutcome &outcome) {
        run.outcome = outcome;
        run.finished = true;
        loop.quit();
    });
    QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
    if (stopAfterMs >= 0)
        QTimer::singleShot(stopAfterMs, &executor,
                           [&executor, stopReason] { executor.stop(stopReason); });
    executor.start();
    if (!run.finished)
        loop.exec();
    return run;
}

} // namespace hg::test
