#pragma once

#include "cronexpression.h"

#include <QCache>
#include <QHash>
#include <QMutex>

namespace hg {

// Expressions compiled once and shared: the schedule dialog (validation, meaning and preview
// on every keystroke), the schedules model, the store's validation and the engine all ask for
// the same few expressions again and again. Keyed by text and dialect (a compiled expression
// does not depend on a zone; zone tables are shared by ZoneRules::forZone). Errors are kept
// too, so a bad expression is not parsed again either.
//
// Bounded by QCache (least recently used goes first) and safe across threads: the engine runs in
// its own thread and CronExpression is a value whose members are implicitly shared, so a copy
// handed out under the lock may be read anywhere.
class CompiledCronCache final
{
public:
    struct Counters
    {
        qint64 hits = 0;
        qint64 misses = 0; // each miss is one parse
    };

    static constexpr qsizetype defaultCapacity = 4096;

    explicit CompiledCronCache(qsizetype capacity = defaultCapacity);
    Q_DISABLE_COPY_MOVE(CompiledCronCache)

    // The one cache of the process, shared by the GUI thread and the engine thread.
    static CompiledCronCache &shared();

    Result<CronExpression> compile(const QString &text, CronDialect dialect = CronDialect::Auto);

    Counters counters() const;
    qsizetype size() const;
    qsizetype capacity() const { return m_capacity; }
    // Forgets every compiled expression (the counters keep counting).
    void clear();

private:
    struct Key
    {
        QString text;
        CronDialect dialect = CronDialect::Auto;
        bool operator==(const Key &other) const = default;
    };
    friend size_t qHash(const Key &key, size_t seed) noexcept
    {
        return qHashMulti(seed, key.text, int(key.dialect));
    }
    const qsizetype m_capacity;
    mutable QMutex m_mutex; // QCache itself is not thread-safe
    QCache<Key, Result<CronExpression>> m_compiled;
    Counters m_counters;
};

} // namespace hg
