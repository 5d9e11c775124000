#pragma once

#include "base/result.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QList>

namespace hg {

class Store;

// Which processes serve the local API on this store, where, and how busy: written by each
// API server as it starts and every ten seconds, removed when it stops; read by
// `hourglass api status`. A row not refreshed for a minute is a process that died.
class ApiListenerRepository final
{
    Q_DECLARE_TR_FUNCTIONS(hg::ApiListenerRepository)

public:
    struct Listener
    {
        QString host;
        qint64 pid = 0;
        QString engineName;
        QString url;
        bool insecure = false;
        QDateTime startedAt;
        QDateTime seenAt;
        qint64 requests = 0;
        QDateTime lastRequestAt;
    };
    static constexpr qint64 refreshMs = 10000;
    static constexpr qint64 staleMs = 60000;

    explicit ApiListenerRepository(Store &store)
        : m_store(store)
    {}

    Status announce(const Listener &listener);
    Status refresh(const QString &host, qint64 pid, qint64 requests, const QDateTime &lastRequestAt,
                   const QDateTime &now);
    Status remove(const QString &host, qint64 pid);
    // Newest first; rows older than a day are dropped as they are read past.
    Result<QList<Listener>> list(const QDateTime &now);

private:
    Store &m_store;
};

} // namespace hg
