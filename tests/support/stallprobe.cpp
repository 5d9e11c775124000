#include "stallprobe.h"

#include <QFile>

#include <algorithm>
#include <ctime>

namespace hg::test {
namespace {

qint64 threadCpuUs()
{
    timespec now{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return qint64(now.tv_sec) * 1000000 + now.tv_nsec / 1000;
}

// The time this thread has waited on a run queue, in µs; -1 where the kernel does not say.
qint64 threadRunDelayUs()
{
    QFile file(QStringLiteral("/proc/thread-self/schedstat"));
    if (!file.open(QIODevice::ReadOnly))
        return -1;
    const QList<QByteArray> fields = file.readAll().simplified().split(' ');
    bool ok = false;
    const qint64 ns = fields.value(1).toLongLong(&ok);
    return ok ? ns / 1000 : -1;
}

} // namespace

StallProbe::StallProbe(QObject *parent)
    : QObject(parent)
{
    m_timer.setTimerType(Qt::PreciseTimer);
    m_timer.setInterval(intervalMs);
    connect(&m_timer, &QTimer::timeout, this, &StallProbe::tick);
}

void StallProbe::start()
{
    m_clock.start();
    m_lastMs = 0;
    m_longestMs = 0;
    m_lastCpuUs = threadCpuUs();
    m_longestBusyUs = 0;
    m_lastRunDelayUs = threadRunDelayUs();
    m_longestRunDelayUs = m_lastRunDelayUs < 0 ? -1 : 0;
    m_timer.start();
}

void StallProbe::stop()
{
    tick();
    m_timer.stop();
}

void StallProbe::tick()
{
    const qint64 now = m_clock.elapsed();
    const qint64 late = now - m_lastMs - intervalMs;
    const qint64 runDelay = threadRunDelayUs();
    if (late > m_longestMs) {
        m_longestMs = late;
        if (runDelay >= 0 && m_lastRunDelayUs >= 0)
            m_longestRunDelayUs = runDelay - m_lastRunDelayUs;
    }
    m_lastRunDelayUs = runDelay;
    m_lastMs = now;
    const qint64 cpu = threadCpuUs();
    m_longestBusyUs = std::max(m_longestBusyUs, cpu - m_lastCpuUs);
    m_lastCpuUs = cpu;
}

qint64 StallProbe::longestBusyMs() const
{
    return std::max(m_longestBusyUs, threadCpuUs() - m_lastCpuUs) / 1000;
}

qint64 StallProbe::longestMs() const
{
    return std::max(m_longestMs, m_clock.elapsed() - m_lastMs - intervalMs);
}

} // namespace hg::test
