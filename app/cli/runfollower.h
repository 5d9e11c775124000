#pragma once

#include "base/result.h"
#include "domain/run.h"

#include <QHash>
#include <QTextStream>

#include <optional>

namespace hg {

class Store;
struct LogLine;

// Prints a run's log lines as "task | text" (stderr "task ! text", engine notes
// "task # text") and, when asked, keeps reading until the run has ended.
class RunFollower final
{
public:
    // Notes about the wait itself (the store away and back) go to err, the run's lines to out.
    RunFollower(Store &store, QTextStream &out, QTextStream &err);

    void print(const LogLine &line);
    // Prints what is new since the last call; the run as it is now.
    Result<Run> printNew(qint64 runId);
    // Polls until the run has ended and every line is printed. The wait watches the engines
    // too: once no engine will carry the run on (its engine was killed or left, or none
    // serves the store while it is queued) it ends with ErrorKind::Unavailable, saying so,
    // instead of waiting forever. While the store cannot be reached (a server restart, a
    // network cut) the wait goes on: the run goes on without it. After storeOutageMs of
    // outage it ends with a Runtime error saying the run's end is not known. A run that vanished
    // with its self-destructing chain is reported as it was last seen ended, or as unknown (an
    // error), never guessed.
    Result<Run> follow(qint64 runId);

    // How often the engines are looked at while following, and how long none may carry the
    // run before the wait gives up (tests shorten neither).
    static constexpr int pollMs = 200;
    static constexpr int engineCheckMs = 1000;
    static constexpr qint64 storeOutageMs = qint64(10) * 60 * 1000;
    // After an outage, how long engines have to renew their sessions before one that has
    // not is taken for gone (a heartbeat is a sixth of the lease: 5 s by default).
    static constexpr qint64 engineGraceAfterOutageMs = 15000;

private:
    QString taskName(qint64 taskRunId);
    bool someoneCarries(const Run &run);
    Result<Run> vanished(const Error &error);

    Store &m_store;
    QTextStream &m_out;
    QTextStream &m_err;
    qint64 m_lastLineId = 0;
    std::optional<Run> m_lastSeen;
    bool m_selfDestructs = false;       // the run's chain removes itself after success
    QHash<qint64, QString> m_taskNames; // task run id -> task name
};

} // namespace hg
