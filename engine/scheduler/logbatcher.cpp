#include "logbatcher.h"

#include "store/logrepository.h"

namespace hg {

LogBatcher::LogBatcher(Store &store, QObject *parent)
    : QObject(parent)
    , m_store(store)
{
    m_timer.setSingleShot(true);
    m_timer.setInterval(100);
    connect(&m_timer, &QTimer::timeout, this, &LogBatcher::flush);
}

LogBatcher::~LogBatcher()
{
    flush();
}

void LogBatcher::add(const LogLine &line)
{
    m_pending << line;
    if (m_pending.size() >= 500)
        flush();
    else if (!m_timer.isActive())
        m_timer.start();
}

void LogBatcher::flush()
{
    m_timer.stop();
    if (m_pending.isEmpty())
        return;
    QList<LogLine> batch = std::exchange(m_pending, {});
    if (LogRepository(m_store).append(batch))
        Q_EMIT linesWritten(batch);
}

} // namespace hg
