#pragma once

#include <QByteArray>
#include <QList>

#include <cstdint>
#include <memory>

class QTimeZone;

namespace hg {

// A zone's UTC offsets as a sorted list of periods, built once per zone from QTimeZone's
// transitions (1900–2200) and shared between threads. QTimeZone answers the same question,
// but one offset lookup there costs more than a whole cron next-fire computation should;
// this table keeps a lookup to a binary search.
class ZoneRules final
{
public:
    struct Period
    {
        std::int64_t start; // UTC seconds, inclusive
        std::int64_t end;   // UTC seconds, exclusive
        int offset;         // seconds east of UTC during the period
    };

    static std::shared_ptr<const ZoneRules> forZone(const QTimeZone &zone);

    qsizetype periodIndexAt(std::int64_t utcSeconds) const;
    const Period &period(qsizetype index) const { return m_periods.at(index); }
    qsizetype periodCount() const { return m_periods.size(); }
    int offsetAt(std::int64_t utcSeconds) const { return period(periodIndexAt(utcSeconds)).offset; }

private:
    explicit ZoneRules(const QTimeZone &zone);

    QList<Period> m_periods;
};

} // namespace hg
