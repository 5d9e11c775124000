#pragma once

#include "domain/builtinarguments.h"
#include "store/sqltarget.h"

#include <atomic>
#include <functional>
#include <mutex>

namespace hg {

// One COPY statement through libpq's COPY protocol, blocking, on a connection of its own
// (opened by Qt's PostgreSQL driver, whose libpq handle it then uses): its data read from or
// written to a file descriptor (a file, or a pipe to a program). Runs on a pool thread; the
// engine thread may cancel it at any time (cancel()).
class CopyTransfer final
{
public:
    enum class Direction { IntoDatabase, OutOfDatabase };
    struct Outcome
    {
        bool ok = false;
        qint64 rows = 0;
        QString error;
    };
    // The program's side of a pipe, told by the engine thread: before COPY FROM STDIN ends,
    // the transfer waits for the program's end, and aborts the COPY when it failed, so a
    // program that died halfway stores nothing.
    enum class ProgramState { None, Running, Succeeded, Failed };

    CopyTransfer(SqlTarget target, QString sql, Direction direction);
    ~CopyTransfer();
    CopyTransfer(const CopyTransfer &) = delete;
    CopyTransfer &operator=(const CopyTransfer &) = delete;

    // Reads from (IntoDatabase) or writes to (OutOfDatabase) `fd` until its end; `fd` is the
    // caller's to close. `written` is told each chunk (OutOfDatabase), for a file to commit.
    Outcome run(int fd, const std::function<bool(const QByteArray &)> &written = {});
    void cancel();
    bool isPostgres() const { return m_target.driver == QLatin1String("QPSQL"); }
    QString notPostgres() const
    {
        return QStringLiteral("COPY needs a PostgreSQL database; %1 is not one")
            .arg(m_target.displayName);
    }
    void setProgramState(ProgramState state) { m_program.store(state); }

private:
    Outcome into(void *connection, int fd);
    Outcome outOf(void *connection, int fd, const std::function<bool(const QByteArray &)> &written);

    SqlTarget m_target;
    QString m_sql;
    Direction m_direction;
    std::atomic<bool> m_cancelled{false};
    std::atomic<ProgramState> m_program{ProgramState::None};
    std::mutex m_mutex;
    void *m_canceller = nullptr; // PGcancel*, while the COPY runs
};

} // namespace hg
