#pragma once

#include "base/result.h"

#include <QCoreApplication>
#include <QList>
#include <QObject>
#include <QTimer>

namespace hg {

class Store;

// Engine events as notifications, for the global routes that ask for `engine`: this engine
// lost its lease (another took its session over), and the store was unreachable for longer
// than `awayMs`. The second is told once the store is back: no outbox row can be written
// while it is away, and a message kept only in memory would be lost with the engine.
class EngineEventRecorder final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(EngineEventRecorder)

public:
    EngineEventRecorder(Store &store, QString engineName, qint64 awayMs, QObject *parent = nullptr);

    // Engine::leaseLost.
    void leaseLost(const QString &why);
    // Engine::storeReachabilityChanged: sinceMs when it went away, -1 when it is back.
    void reachabilityChanged(qint64 sinceMs, const QString &why);

Q_SIGNALS:
    // Rows were written: the deliverer may send them now.
    void recorded();

private:
    void record(const QString &key, const QString &kind, const QString &subject,
                const QString &text, qint64 sinceMs, const QString &why);

    struct Pending
    {
        QString key;
        QString subject;
        QString body;
    };
    // Writes what waits; what the store refuses now (its connection not back yet) is tried
    // again every few seconds, for an hour.
    void writePending();

    Store &m_store;
    QList<Pending> m_pending;
    QTimer m_retry;
    qint64 m_firstPendingMs = -1;
    QString m_engineName;
    qint64 m_awayMs;
    qint64 m_awaySinceMs = -1;
    QString m_awayWhy;
};

} // namespace hg
