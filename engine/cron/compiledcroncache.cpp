#include "compiledcroncache.h"

#include <algorithm>

namespace hg {

CompiledCronCache::CompiledCronCache(qsizetype capacity)
    : m_capacity(std::max<qsizetype>(1, capacity))
{}

CompiledCronCache &CompiledCronCache::shared()
{
    static CompiledCronCache cache;
    return cache;
}

Result<CronExpression> CompiledCronCache::compile(const QString &text, CronDialect dialect)
{
    Key key{text, dialect};
    {
        const QMutexLocker locker(&m_mutex);
        if (const auto found = m_index.constFind(key); found != m_index.constEnd()) {
            ++m_counters.hits;
            m_entries.splice(m_entries.begin(), m_entries, found.value());
            return found.value()->compiled;
        }
        ++m_counters.misses;
    }
    // Parsed outside the lock: the other thread need not wait for it. Should both threads
    // parse the same text at once, the first result is kept and both are counted as misses.
    Result<CronExpression> compiled = CronExpression::parse(text, dialect);
    const QMutexLocker locker(&m_mutex);
    if (m_index.contains(key))
        return compiled;
    m_entries.push_front(Entry{key, compiled});
    m_index.insert(std::move(key), m_entries.begin());
    while (m_entries.size() > std::size_t(m_capacity)) {
        m_index.remove(m_entries.back().key);
        m_entries.pop_back();
    }
    return compiled;
}

CompiledCronCache::Counters CompiledCronCache::counters() const
{
    const QMutexLocker locker(&m_mutex);
    return m_counters;
}

qsizetype CompiledCronCache::size() const
{
    const QMutexLocker locker(&m_mutex);
    return m_index.size();
}

void CompiledCronCache::clear()
{
    const QMutexLocker locker(&m_mutex);
    m_index.clear();
    m_entries.clear();
}

} // namespace hg
