#include "httpstream.h"

#include <cstring>

namespace hg {

void HttpStream::write(const QByteArray &bytes)
{
    if (m_closed || m_gone || bytes.isEmpty())
        return;
    m_buffer.append(bytes);
    if (m_wake)
        m_wake();
}

void HttpStream::close()
{
    if (m_closed)
        return;
    m_closed = true;
    if (m_wake)
        m_wake();
}

qsizetype HttpStream::take(char *into, qsizetype max)
{
    const qsizetype n = std::min(max, pending());
    if (n > 0) {
        std::memcpy(into, m_buffer.constData() + m_sent, size_t(n));
        m_sent += n;
    }
    // Sent text is dropped once it is most of the buffer: a long stream stays small.
    if (m_sent > 0 && m_sent * 2 >= m_buffer.size()) {
        m_buffer.remove(0, m_sent);
        m_sent = 0;
    }
    return n;
}

void HttpStream::markGone()
{
    if (m_gone)
        return;
    m_gone = true;
    m_wake = nullptr;
    if (closedByClient)
        closedByClient();
}

} // namespace hg
