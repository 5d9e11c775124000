#pragma once

#include <QtGlobal>

namespace hg {

// Where the engine reads the time. Tests use ManualClock to move through DST days or days
// of downtime in milliseconds; everything else uses SystemClock.
//
// Three clocks, as Linux keeps them: the wall clock (what fire times are), the monotonic
// clock (stops while the machine sleeps, never steps) and the boot clock (runs on through a
// sleep, never steps). The wall clock moving apart from the monotonic one is a sleep (the
// boot clock moved with it) or a step of the wall clock (it did not).
class Clock
{
public:
    virtual ~Clock() = default;
    virtual qint64 nowMs() const = 0; // milliseconds since the epoch, UTC
    virtual qint64 monotonicMs() const = 0;
    virtual qint64 bootMs() const = 0;
};

class SystemClock final : public Clock
{
public:
    qint64 nowMs() const override;
    qint64 monotonicMs() const override;
    qint64 bootMs() const override;
};

// Moved by hand. advanceMs() and setMs() move every clock together (time passing while the
// engine is up, or down: a stopped engine does not see its clocks); sleepMs() moves the wall
// and boot clocks only, stepWallMs() the wall clock only.
class ManualClock final : public Clock
{
public:
    explicit ManualClock(qint64 startMs)
        : m_nowMs(startMs)
    {}

    qint64 nowMs() const override { return m_nowMs; }
    qint64 monotonicMs() const override { return m_monotonicMs; }
    qint64 bootMs() const override { return m_bootMs; }
    void setMs(qint64 ms) { advanceMs(ms - m_nowMs); }
    void advanceMs(qint64 ms)
    {
        m_nowMs += ms;
        m_monotonicMs += ms;
        m_bootMs += ms;
    }
    void sleepMs(qint64 ms)
    {
        m_nowMs += ms;
        m_bootMs += ms;
    }
    void stepWallMs(qint64 ms) { m_nowMs += ms; }

private:
    qint64 m_nowMs = 0;
    qint64 m_monotonicMs = 0;
    qint64 m_bootMs = 0;
};

} // namespace hg
