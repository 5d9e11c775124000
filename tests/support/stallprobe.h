#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

namespace hg::test {

// How long the GUI thread is kept from its event loop: a timer due every 10 ms notes how late
// each tick comes. The longest lateness is the longest freeze a user would feel (a click not
// answered, a window not repainted). Start it, do the work, read longestMs().
//
// On a loaded machine the GUI thread is also late when the kernel gives its core to others
// (load 8 on 2 cores: 200 ms). longestBusyMs() tells the two apart: the CPU time the GUI
// thread itself spent between two ticks, which only its own work fills.
class StallProbe final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(StallProbe)

public:
    static constexpr int intervalMs = 10;

    explicit StallProbe(QObject *parent = nullptr);

    void start();
    void stop();
    // The longest lateness since start(), in ms; the time since the last tick counts too, so a
    // stall still going on when this is read is not missed.
    qint64 longestMs() const;
    // The most CPU time the GUI thread spent between two ticks (its own work), in ms.
    qint64 longestBusyMs() const;
    // Of the longest lateness, the time the GUI thread was ready to run and waited for a core
    // (the kernel's run delay, /proc/thread-self/schedstat): the machine's load, not the
    // window's work nor a wait of its own. -1 where the kernel does not say.
    qint64 longestStallRunDelayMs() const
    {
        return m_longestRunDelayUs < 0 ? -1 : m_longestRunDelayUs / 1000;
    }

private:
    void tick();

    QTimer m_timer;
    QElapsedTimer m_clock;
    qint64 m_lastMs = 0;
    qint64 m_longestMs = 0;
    qint64 m_lastCpuUs = 0;
    qint64 m_longestBusyUs = 0;
    qint64 m_lastRunDelayUs = -1;
    qint64 m_longestRunDelayUs = -1;
};

} // namespace hg::test
