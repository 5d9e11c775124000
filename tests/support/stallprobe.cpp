#include "stallprobe.h"

#include <algorithm>

namespace hg::test {

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
}

qint64 StallProbe::longestMs() const
{
    return std::max(m_longestMs, m_clock.elapsed() - m_lastMs - intervalMs);
}

} // namespace hg::test
