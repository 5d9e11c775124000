#pragma once

#include <QDeadlineTimer>
#include <QObject>
#include <QTimer>

namespace hg {

// A single-shot timer for any 64-bit millisecond delay. QTimer takes an int (about 24.8 days),
// and a longer count wraps into a short or negative one; this one re-arms in steps until its
// deadline. Every timeout and retry delay in the engine is one of these.
class LongTimer final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(LongTimer)

public:
    explicit LongTimer(QObject *parent = nullptr);

    // The longest delay honoured (a century): anything longer waits that long.
    static constexpr qint64 maximumMs = qint64(100) * 365 * 24 * 3600 * 1000;

    void start(qint64 ms);
    void stop();
    bool isActive() const { return m_step.isActive(); }
    qint64 remainingMs() const;

    // Tests shorten the step to see a long delay re-armed; QTimer's own limit otherwise.
    static void setStepLimitForTest(qint64 ms);

Q_SIGNALS:
    void timeout();

private:
    void armStep();

    QTimer m_step;
    QDeadlineTimer m_deadline;
};

} // namespace hg
