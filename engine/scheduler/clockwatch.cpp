#include "clockwatch.h"

#include <QStringList>

#include <cstdlib>

namespace hg {

ClockWatch::ClockWatch(const Clock &clock, qint64 toleranceMs)
    : m_clock(clock)
    , m_toleranceMs(toleranceMs)
{
    reset();
}

void ClockWatch::reset()
{
    m_wallMs = m_clock.nowMs();
    m_monotonicMs = m_clock.monotonicMs();
    m_bootMs = m_clock.bootMs();
}

bool ClockWatch::look(Jump *jump)
{
    const qint64 wall = m_clock.nowMs();
    const qint64 monotonic = m_clock.monotonicMs();
    const qint64 boot = m_clock.bootMs();
    const qint64 monotonicDelta = monotonic - m_monotonicMs;
    const qint64 drift = (wall - m_wallMs) - monotonicDelta;
    const qint64 bootDrift = (boot - m_bootMs) - monotonicDelta;
    const qint64 before = m_wallMs + monotonicDelta;
    m_wallMs = wall;
    m_monotonicMs = monotonic;
    m_bootMs = boot;
    if (std::llabs(drift) < m_toleranceMs)
        return false;
    // Asleep: the boot clock went on through it, as far as the wall clock did.
    const JumpKind kind = drift < 0               ? JumpKind::StepBack
                          : bootDrift > drift / 2 ? JumpKind::Sleep
                                                  : JumpKind::StepForward;
    *jump = Jump{kind, before, wall};
    return true;
}

QString ClockWatch::describeLength(qint64 ms)
{
    qint64 seconds = (std::llabs(ms) + 500) / 1000; // two clocks read apart: ms of jitter
    const qint64 days = seconds / 86400;
    const qint64 hours = seconds / 3600 % 24;
    const qint64 minutes = seconds / 60 % 60;
    seconds %= 60;
    // The two largest units are enough to say what a sleep cost.
    QStringList parts;
    if (days > 0)
        parts << tr("%1 d").arg(days);
    if (hours > 0)
        parts << tr("%1 h").arg(hours);
    if (minutes > 0)
        parts << tr("%1 min").arg(minutes);
    if (seconds > 0 || parts.isEmpty())
        parts << tr("%1 s").arg(seconds);
    return parts.mid(0, 2).join(QLatin1Char(' '));
}

} // namespace hg
