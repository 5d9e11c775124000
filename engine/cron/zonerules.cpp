#include "zonerules.h"

#include <QDateTime>
#include <QHash>
#include <QMutex>
#include <QTimeZone>

#include <algorithm>
#include <cstdlib>
#include <limits>

namespace hg {

std::shared_ptr<const ZoneRules> ZoneRules::forZone(const QTimeZone &zone)
{
    static QMutex mutex;
    static QHash<QByteArray, std::shared_ptr<const ZoneRules>> cache;
    const QByteArray id = zone.id();
    const QMutexLocker locker(&mutex);
    auto found = cache.constFind(id);
    if (found != cache.constEnd())
        return found.value();
    std::shared_ptr<const ZoneRules> rules(new ZoneRules(zone));
    cache.insert(id, rules);
    return rules;
}

ZoneRules::ZoneRules(const QTimeZone &zone)
{
    constexpr std::int64_t minimum = std::numeric_limits<std::int64_t>::min();
    constexpr std::int64_t maximum = std::numeric_limits<std::int64_t>::max();
    const QDateTime from(QDate(1900, 1, 1), QTime(0, 0), Qt::UTC);
    const QDateTime to(QDate(2200, 1, 1), QTime(0, 0), Qt::UTC);
    m_periods.append(Period{minimum, maximum, zone.offsetFromUtc(from)});
    const QTimeZone::OffsetDataList transitions = zone.transitions(from, to);
    for (const QTimeZone::OffsetData &transition : transitions) {
        // Zones without transitions (UTC) may report placeholder entries: keep real ones only.
        if (!transition.atUtc.isValid() || std::abs(transition.offsetFromUtc) > 18 * 3600)
            continue;
        const int offset = transition.offsetFromUtc;
        if (offset == m_periods.last().offset)
            continue; // only the abbreviation or the DST flag changed
        const std::int64_t at = transition.atUtc.toSecsSinceEpoch();
        if (at <= m_periods.last().start)
            continue;
        m_periods.last().end = at;
        m_periods.append(Period{at, maximum, offset});
    }
}

qsizetype ZoneRules::periodIndexAt(std::int64_t utcSeconds) const
{
    // The first period whose end lies beyond the instant.
    const auto it = std::upper_bound(m_periods.cbegin(), m_periods.cend(), utcSeconds,
                                     [](std::int64_t t, const Period &p) { return t < p.end; });
    return std::min<qsizetype>(it - m_periods.cbegin(), m_periods.size() - 1);
}

} // namespace hg
