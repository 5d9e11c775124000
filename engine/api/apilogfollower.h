#pragma once

#include "api/httpstream.h"

#include <QObject>
#include <QTimer>

#include <memory>

namespace hg {

class Store;

// GET /runs/{id}/log?follow=1: the run's log lines as server-sent events, read from the store
// (so a run on any engine of a shared store is followed alike) four times a second, until the
// run has ended and its last line is sent. A comment every 15 s keeps proxies from closing an
// idle stream and finds a client that left. A reader that falls 4 MB behind is cut off, and
// the stream ends once its token is removed or expires (looked at every five seconds).
class ApiLogFollower final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ApiLogFollower)

public:
    static constexpr qsizetype maxBehindBytes = qsizetype(4) * 1024 * 1024;
    static constexpr int pollMs = 250;
    static constexpr int heartbeatMs = 15000;

    // tokenId: the token that asked (0: none); a removed or expired one ends the stream.
    ApiLogFollower(Store &store, qint64 runId, qint64 afterLineId, qint64 tokenId, QObject *parent);
    qint64 tokenId() const { return m_tokenId; }
    std::shared_ptr<HttpStream> stream() const { return m_stream; }

private:
    void poll();
    void finish(const QByteArray &lastEvent);

    Store &m_store;
    qint64 m_runId = 0;
    qint64 m_after = 0;
    qint64 m_tokenId = 0;
    int m_polls = 0;
    std::shared_ptr<HttpStream> m_stream = std::make_shared<HttpStream>();
    QTimer m_poll;
    QTimer m_heartbeat;
};

} // namespace hg
