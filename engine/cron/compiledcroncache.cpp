#include "compiledcroncache.h"

#include <algorithm>

namespace hg {

CompiledCronCache::CompiledCronCache(qsizetype capacity)
    : m_capacity(std::max<qsizetype>(1, capacity))
    , m_compiled(m_capacity)
{}

CompiledCronCache &CompiledCronCache::shared()
{
    static CompiledCronCache cache;
    return cache;
}

Result<CronExpression> CompiledCronCache::compile(const QString &text, CronDialect dialect)
{
    const Key key{text, dialect};
    {
        const QMutexLocker locker(&m_mutex);
        if (const Result<CronExpression> *found = m_compiled.object(key)) {
            ++m_counters.hits;
            return *found; // a copy: the entry may be evicted once the lock is released
        }
        ++m_counters.misses;
    }
    // Parsed outside the lock: the other thread need not wait for it. Should both threads
    // parse the same text at once, the last result is kept and both are counted as misses.
    Result<CronExpression> compiled = CronExpression::parse(text, dialect);
    const QMutexLocker locker(&m_mutex);
    m_compiled.insert(key, new Result<CronExpression>(compiled));
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
    return m_compiled.size();
}

void CompiledCronCache::clear()
{
    const QMutexLocker locker(&m_mutex);
    m_compiled.clear();
}

} // namespace hg
