#pragma once

#include "clock.h"

#include <QCoreApplication>
#include <QString>

namespace hg {

// Notices, between two looks, the wall clock moving apart from the monotonic clock: the
// machine slept (the boot clock moved on with the wall clock), or the wall clock was stepped
// forward or back (an NTP correction, a user setting the time). Looks are about a second
// apart; drift below the tolerance is the ordinary jitter of two clocks read one after the
// other.
class ClockWatch final
{
    Q_DECLARE_TR_FUNCTIONS(hg::ClockWatch)

public:
    enum class JumpKind { Sleep, StepForward, StepBack };
    struct Jump
    {
        JumpKind kind = JumpKind::Sleep;
        qint64 fromMs = 0; // the wall clock when the jump began, as far as can be told
        qint64 toMs = 0;   // the wall clock now
        qint64 lengthMs() const { return toMs - fromMs; }
    };

    explicit ClockWatch(const Clock &clock, qint64 toleranceMs = 2000);

    void reset(); // a fresh reading: what happened before it is not a jump
    // True when the clocks moved apart since the last look; the jump goes to *jump.
    bool look(Jump *jump);
    // "7 h 12 min", "3 min 20 s", "1 d 2 h": the length of a sleep or step, for messages.
    static QString describeLength(qint64 ms);

private:
    const Clock &m_clock;
    qint64 m_toleranceMs = 0;
    qint64 m_wallMs = 0;
    qint64 m_monotonicMs = 0;
    qint64 m_bootMs = 0;
};

} // namespace hg
