#pragma once

#include "domain/logline.h"
#include "domain/taskrun.h"

#include <QHash>
#include <QList>
#include <QObject>
#include <QSet>
#include <QTimer>

#include <functional>

namespace hg {

class Store;

// What a window shows live of the runs other engines execute on a shared store: their
// attempts and their output, told as its own engine's are (Engine::taskRunChanged,
// Engine::logLinesWritten). Woken by the store's 'taskruns' and 'logs' notifications
// (migration 010), it reads at most a few times a second, whatever the traffic.
class ElsewhereWatch final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ElsewhereWatch)

public:
    // sessionId: the engine's own session, whose runs it tells itself.
    ElsewhereWatch(Store &store, std::function<qint64()> sessionId, QObject *parent = nullptr);
    ~ElsewhereWatch() override;

    // From here on: output written before is not told (a window reads it when it opens a run).
    void start();
    void attemptsChanged();
    void linesWritten();
    // A run another engine ended: its last attempts and lines are read once more.
    void runEnded(qint64 runId);

Q_SIGNALS:
    void taskRunChanged(const hg::TaskRun &taskRun);
    void logLinesWritten(const QList<hg::LogLine> &lines);

private:
    void look();
    void lookAtAttempts(const QList<qint64> &ended);
    // False when there may be more to read at once.
    bool lookAtLines(const QList<qint64> &ended);

    Store &m_store;
    std::function<qint64()> m_sessionId;
    QTimer m_timer;
    bool m_attempts = false; // changed since the last look
    bool m_lines = false;
    QSet<qint64> m_ended;
    QHash<qint64, TaskRun> m_toldAttempts; // attempt id -> as last told
    qint64 m_linesSeenUpTo = 0;
    QSet<qint64> m_toldLines; // ids near m_linesSeenUpTo, which commits may still fill in
};

} // namespace hg
