#include "clock.h"

#include <QDateTime>

#include <ctime>

namespace hg {
namespace {

qint64 readMs(clockid_t clock)
{
    timespec now{};
    clock_gettime(clock, &now);
    return qint64(now.tv_sec) * 1000 + now.tv_nsec / 1000000;
}

} // namespace

qint64 SystemClock::nowMs() const
{
    return QDateTime::currentMSecsSinceEpoch();
}

qint64 SystemClock::monotonicMs() const
{
    return readMs(CLOCK_MONOTONIC);
}

qint64 SystemClock::bootMs() const
{
    return readMs(CLOCK_BOOTTIME);
}

} // namespace hg
