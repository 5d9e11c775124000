#pragma once

#include <QtGlobal>

namespace hg {

// Where the engine reads the time. Tests use ManualClock to move through DST days or days
// of downtime in milliseconds; everything else uses SystemClock.
class Clock
{
public:
    virtual ~Clock() = default;
    virtual qint64 nowMs() const = 0; // milliseconds since the epoch, UTC
};

class SystemClock final : public Clock
{
public:
    qint64 nowMs() const override;
};

class ManualClock final : public Clock
{
public:
    explicit ManualClock(qint64 startMs)
        : m_nowMs(startMs)
    {}
    qint64 nowMs() const override { return m_nowMs; }
    void setMs(qint64 ms) { m_nowMs = ms; }
    void advanceMs(qint64 ms) { m_nowMs += ms; }

private:
    qint64 m_nowMs = 0;
};

} // namespace hg
