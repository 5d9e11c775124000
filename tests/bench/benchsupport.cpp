#include "benchsupport.h"

#include "store/chainrepository.h"
#include "store/projectrepository.h"
#include "store/schedulerepository.h"
#include "store/store.h"
#include "store/taskrepository.h"

#include <QElapsedTimer>
#include <QFile>
#include <QTextStream>
#include <QThread>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <deque>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

namespace hg::bench {

void createChains(Store &store, int count, TaskKind kind, const QString &command,
                  const QStringList &arguments, const QString &expression,
                  const QString &projectName, CronDialect dialect)
{
    const Status created = store.transaction([&]() -> Status {
        const Result<Project> project = ProjectRepository(store).add(projectName);
        if (!project)
            return project.error();
        for (int i = 0; i < count; ++i) {
            Chain chain;
            chain.projectId = project->id;
            chain.name = QStringLiteral("c%1").arg(i);
            const Result<Chain> c = ChainRepository(store).add(chain);
            if (!c)
                return c.error();
            Task task;
            task.chainId = c->id;
            task.name = QStringLiteral("t");
            task.kind = kind;
            task.command = command;
            task.arguments = arguments;
            if (const Result<Task> t = TaskRepository(store).add(task); !t)
                return t.error();
            if (expression.isEmpty())
                continue;
            Schedule schedule;
            schedule.chainId = c->id;
            // %M and %H spread the schedules over the minutes and hours of the day.
            schedule.expression = QString(expression)
                                      .replace(QLatin1String("%M"), QString::number(i % 60))
                                      .replace(QLatin1String("%H"), QString::number(i / 60 % 24));
            schedule.dialect = dialect;
            schedule.timeZone = QStringLiteral("UTC");
            schedule.misfire = MisfirePolicy::Skip;
            if (const Result<Schedule> s = ScheduleRepository(store).add(schedule); !s)
                return s.error();
        }
        return {};
    });
    if (!created)
        qFatal("bench setup failed: %s", qPrintable(created.error().message));
}

double percentile(QList<qint64> values, double percent)
{
    if (values.isEmpty())
        return 0;
    std::sort(values.begin(), values.end());
    const auto index = qsizetype(std::ceil(percent / 100.0 * double(values.size()))) - 1;
    return double(values.at(std::clamp<qsizetype>(index, 0, values.size() - 1)));
}

QString figures(const QList<qint64> &values)
{
    if (values.isEmpty())
        return QStringLiteral("none");
    return QStringLiteral("p50 %1 ms, p99 %2 ms, max %3 ms")
        .arg(percentile(values, 50))
        .arg(percentile(values, 99))
        .arg(percentile(values, 100));
}

qint64 residentKiB()
{
    QFile status(QStringLiteral("/proc/self/status"));
    if (!status.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray &line : status.readAll().split('\n')) {
        if (line.startsWith("VmRSS:"))
            return line.mid(6).trimmed().split(' ').first().toLongLong();
    }
    return -1;
}

EngineConfig benchConfig(const QString &storePath)
{
    EngineConfig config;
    config.storeLocation = storePath;
    config.name = QStringLiteral("bench");
    config.slotCount = 2 * QThread::idealThreadCount();
    return config;
}

Spawned spawnLoop(const char *program, int count, int concurrent)
{
    char *const arguments[] = {const_cast<char *>(program), nullptr};
    std::deque<pid_t> alive;
    const auto reapOldest = [&alive] {
        int status = 0;
        while (::waitpid(alive.front(), &status, 0) < 0 && errno == EINTR) {
        }
        alive.pop_front();
    };
    Spawned spawned;
    QElapsedTimer timer;
    timer.start();
    for (int i = 0; i < count; ++i) {
        if (int(alive.size()) >= std::max(1, concurrent))
            reapOldest();
        pid_t pid = 0;
        if (const int error = ::posix_spawn(&pid, program, nullptr, nullptr, arguments, environ))
            qFatal("posix_spawn %s: %s", program, strerror(error));
        alive.push_back(pid);
    }
    spawned.lastStartedMs = double(timer.nsecsElapsed()) / 1e6;
    while (!alive.empty())
        reapOldest();
    spawned.seconds = double(timer.nsecsElapsed()) / 1e9;
    return spawned;
}

double Figure::ratio() const
{
    const double numerator = higherIsBetter ? beside : value;
    const double denominator = higherIsBetter ? value : beside;
    return denominator > 0 ? numerator / denominator : std::nan("");
}

namespace {

QString number(double value)
{
    return QString::number(value, 'f',
                           std::abs(value) >= 100 ? 0 : (std::abs(value) >= 10 ? 1 : 2));
}

// Two decimals, or two significant digits below 0.1 (Hourglass's cron beside croniter is
// 0.0025, not 0.00).
QString ratioText(double ratio)
{
    return std::abs(ratio) < 0.1 && ratio != 0 ? QString::number(ratio, 'g', 2)
                                               : QString::number(ratio, 'f', 2);
}

QString kindName(Beside kind)
{
    switch (kind) {
    case Beside::Limit:
        return QStringLiteral("limit");
    case Beside::Peer:
        return QStringLiteral("peer");
    case Beside::Target:
        return QStringLiteral("target");
    }
    return {};
}

} // namespace

void reportMs(QTextStream &out, const QString &bench, const QString &what, double ms, Beside kind,
              const QString &besideWhat, double beside)
{
    Figure figure;
    figure.bench = bench;
    figure.what = what;
    figure.value = ms;
    figure.unit = QStringLiteral("ms");
    figure.kind = kind;
    figure.besideWhat = besideWhat;
    figure.beside = beside;
    report(out, figure);
}

void report(QTextStream &out, const Figure &figure)
{
    const double ratio = figure.ratio();
    QString verdict;
    if (figure.kind == Beside::Target)
        verdict = ratio <= 1.0 ? QStringLiteral(", meets it") : QStringLiteral(", MISSES it");
    out << QStringLiteral("  %1: %2 %3 | %4 (%5): %6 %3 | ratio %7%8\n")
               .arg(figure.what, number(figure.value), figure.unit, kindName(figure.kind),
                    figure.besideWhat, number(figure.beside), ratioText(ratio), verdict);
    out.flush();
    const QString path = qEnvironmentVariable("HOURGLASS_BENCH_FIGURES");
    if (path.isEmpty())
        return;
    QFile table(path);
    if (!table.open(QIODevice::Append | QIODevice::Text))
        qFatal("cannot append to %s: %s", qPrintable(path), qPrintable(table.errorString()));
    const auto clean = [](QString text) {
        return text.replace(QLatin1Char('\t'), QLatin1Char(' '));
    };
    QTextStream row(&table);
    row << clean(figure.bench) << '\t' << clean(figure.what) << '\t' << number(figure.value) << ' '
        << figure.unit << '\t' << kindName(figure.kind) << ": " << clean(figure.besideWhat) << '\t'
        << number(figure.beside) << ' ' << figure.unit << '\t' << ratioText(ratio)
        << (figure.kind == Beside::Target ? (ratio <= 1.0 ? " (met)" : " (MISSED)") : "") << '\n';
}

void useOffscreenWithoutDisplay()
{
    if (qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
}

} // namespace hg::bench
