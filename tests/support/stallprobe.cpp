#include "stallprobe.h"

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
    m_longestMs = std::max(m_longestMs, now - m_lastMs - intervalMs);
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
