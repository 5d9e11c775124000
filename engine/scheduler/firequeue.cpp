#include "firequeue.h"

namespace hg {

void FireQueue::set(qint64 scheduleId, qint64 dueMs)
{
    const quint64 version = m_nextVersion++;
    m_current.insert(scheduleId, version);
    m_heap.push(Entry{dueMs, scheduleId, version});
}

void FireQueue::remove(qint64 scheduleId)
{
    m_current.remove(scheduleId);
}

void FireQueue::dropStale()
{
    while (!m_heap.empty()) {
        const Entry &top = m_heap.top();
        const auto live = m_current.constFind(top.scheduleId);
        if (live != m_current.constEnd() && live.value() == top.version)
            return;
        m_heap.pop();
    }
}

qint64 FireQueue::nextDueMs()
{
    dropStale();
    return m_heap.empty() ? -1 : m_heap.top().dueMs;
}

std::vector<FireQueue::Due> FireQueue::takeDue(qint64 nowMs)
{
    std::vector<Due> due;
    for (dropStale(); !m_heap.empty() && m_heap.top().dueMs <= nowMs; dropStale()) {
        const Entry top = m_heap.top();
        m_heap.pop();
        m_current.remove(top.scheduleId);
        due.push_back(Due{top.scheduleId, top.dueMs});
    }
    return due;
}

} // namespace hg
