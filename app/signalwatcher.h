#pragma once

#include <QObject>

class QSocketNotifier;

namespace hg {

// Turns SIGTERM, SIGINT and SIGHUP (unless ignored) into a Qt signal through a self-pipe, so
// `hourglass serve` can stop its engine in the event loop instead of inside a signal handler,
// and the desktop application quit as by File → Quit (its SQL tasks' statements cancelled on
// their servers; by SIGTERM's default they ran on there, helper-2).
class SignalWatcher final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SignalWatcher)

public:
    explicit SignalWatcher(QObject *parent = nullptr);
    ~SignalWatcher() override;

Q_SIGNALS:
    void terminationRequested(int signal);

private:
    QSocketNotifier *m_notifier = nullptr;
};

} // namespace hg
