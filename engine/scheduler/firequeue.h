#pragma once

#include <QHash>
#include <queue>

#include <vector>

namespace hg {

// The next fire time of every active schedule, earliest first: one min-heap drives one timer.
// Updating a schedule pushes a new entry; the old one is recognised as stale and skipped when
// it reaches the top, which keeps every operation O(log n).
class FireQueue final
{
public:
    struct Due
    {
        qint64 scheduleId = 0;
        qint64 dueMs = 0;
    };

    void set(qint64 scheduleId, qint64 dueMs);
    void remove(qint64 scheduleId);
    bool contains(qint64 scheduleId) const { return m_current.contains(scheduleId); }
    qsizetype size() const { return m_current.size(); }

    // The earliest due time, or -1 when nothing is scheduled.
    qint64 nextDueMs();
    // Removes and returns every entry due at or before nowMs, earliest first.
    std::vector<Due> takeDue(qint64 nowMs);

private:
    struct Entry
    {
        qint64 dueMs;
        qint64 scheduleId;
        quint64 version;
        bool operator>(const Entry &other) const
        {
            return dueMs != other.dueMs ? dueMs > other.dueMs : scheduleId > other.scheduleId;
        }
    };
    void dropStale();

    std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> m_heap;
    QHash<qint64, quint64> m_current; // schedule -> version of its live entry
    quint64 m_nextVersion = 1;
};

} // namespace hg
