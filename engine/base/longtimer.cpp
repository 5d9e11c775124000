#include "longtimer.h"

#include <QAtomicInteger>

#include <algorithm>
#include <limits>

namespace hg {
namespace {

QAtomicInteger<qint64> stepLimit = std::numeric_limits<int>::max();

} // namespace

LongTimer::LongTimer(QObject *parent)
    : QObject(parent)
{
    m_step.setSingleShot(true);
    m_step.setTimerType(Qt::PreciseTimer); // a coarse timer may be 5 % late: minutes in an hour
    connect(&m_step, &QTimer::timeout, this, [this] {
        if (m_deadline.remainingTime() > 0) {
            armStep();
            return;
        }
        Q_EMIT timeout();
    });
}

void LongTimer::start(qint64 ms)
{
    m_deadline = QDeadlineTimer(std::clamp<qint64>(ms, 0, maximumMs), Qt::PreciseTimer);
    armStep();
}

void LongTimer::stop()
{
    m_step.stop();
}

qint64 LongTimer::remainingMs() const
{
    return isActive() ? m_deadline.remainingTime() : -1;
}

void LongTimer::setStepLimitForTest(qint64 ms)
{
    stepLimit.storeRelaxed(std::clamp<qint64>(ms, 1, std::numeric_limits<int>::max()));
}

void LongTimer::armStep()
{
    const qint64 remaining = std::max<qint64>(m_deadline.remainingTime(), 0);
    m_step.start(int(std::min(remaining, stepLimit.loadRelaxed())));
}

} // namespace hg
