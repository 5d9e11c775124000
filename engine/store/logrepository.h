#pragma once

#include "base/result.h"
#include "domain/logline.h"

#include <QCoreApplication>
#include <QList>

namespace hg {

class Store;

class LogRepository final
{
    Q_DECLARE_TR_FUNCTIONS(hg::LogRepository)

public:
    explicit LogRepository(Store &store)
        : m_store(store)
    {}

    // One transaction per batch: the engine collects lines and writes them together. Each
    // line gets its id.
    Status append(QList<LogLine> &lines);
    // Lines of a run after afterId, oldest first (follow mode pages with the last id seen).
    Result<QList<LogLine>> read(qint64 runId, qint64 afterId = 0, int limit = 1000) const;
    // The last `limit` lines of a run, oldest first (where a live view starts).
    Result<QList<LogLine>> readTail(qint64 runId, int limit) const;
    // Lines after afterId of the runs other engines execute (not this session's), and of
    // alsoRuns, oldest first: what a window shows live from a shared store.
    Result<QList<LogLine>> readElsewhere(qint64 afterId, qint64 sessionId,
                                         const QList<qint64> &alsoRuns, int limit) const;
    Result<qint64> lastId() const;

private:
    Store &m_store;
};

} // namespace hg
