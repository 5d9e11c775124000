#pragma once

#include <QByteArray>

#include <functional>

namespace hg {

// The body of an answer that is written while it is sent (server-sent events): the handler
// keeps the stream and writes to it on the server's thread; the server sends what was written
// and waits, without a thread of its own, while nothing is. close() ends the answer. When the
// client leaves, closedByClient is called (once) and later writes are dropped.
class HttpStream final
{
public:
    void write(const QByteArray &bytes);
    void close();
    bool isClosed() const { return m_closed; }
    bool isGone() const { return m_gone; }
    // Bytes written and not yet sent: a reader too slow for what is written is cut off by the
    // writer before this grows without bound.
    qsizetype pending() const { return m_buffer.size() - m_sent; }
    std::function<void()> closedByClient;

    // For the server: takes up to `max` bytes; wakes() is called when more can be taken.
    qsizetype take(char *into, qsizetype max);
    void setWake(std::function<void()> wake) { m_wake = std::move(wake); }
    void markGone();

private:
    QByteArray m_buffer;
    qsizetype m_sent = 0;
    bool m_closed = false;
    bool m_gone = false;
    std::function<void()> m_wake;
};

} // namespace hg
