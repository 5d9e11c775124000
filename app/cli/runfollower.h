#pragma once

#include "base/result.h"
#include "domain/run.h"

#include <QHash>
#include <QTextStream>

namespace hg {

class Store;
struct LogLine;

// Prints a run's log lines as "task | text" (stderr "task ! text", engine notes
// "task # text") and, when asked, keeps reading until the run has ended.
class RunFollower final
{
public:
    RunFollower(Store &store, QTextStream &out);

    void print(const LogLine &line);
    // Prints what is new since the last call; the run as it is now.
    Result<Run> printNew(qint64 runId);
    // Polls until the run has ended and every line is printed.
    Result<Run> follow(qint64 runId);

private:
    QString taskName(qint64 taskRunId);

    Store &m_store;
    QTextStream &m_out;
    qint64 m_lastLineId = 0;
    QHash<qint64, QString> m_taskNames; // task run id -> task name
};

} // namespace hg
