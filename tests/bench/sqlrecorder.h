#pragma once

#include <QList>
#include <QSqlDatabase>
#include <QString>

#include <cstdio>

struct pg_conn; // libpq's PGconn

namespace hg::bench {

// One statement as it was sent, its values written in.
struct RecordedStatement
{
    QString file; // SQLite: the database file it ran on; empty for a server's connection
    QString sql;
    bool reads = false; // a read a bare replay may repeat (no write, no transaction control)
};

// Records the SQL a piece of work sends, so a benchmark can set the work's time beside the same
// SQL run bare (replay()): the limit under that work, measured in the same run, with no SQL
// copied into the benchmark to drift from the code's.
//  - SQLite: every connection opened in this process once a recorder exists, and those
//    attach()ed, through sqlite3_trace_v2 (sqlite3_expanded_sql writes the bound values in).
//  - PostgreSQL: one attach()ed connection through libpq's PQtrace; Qt's driver sends
//    PREPARE and EXECUTE as plain queries, so the trace holds them whole.
// One recorder records at a time. Tracing costs microseconds a statement (SQLite) or a file
// write a message (PostgreSQL): record in a pass of its own where the work can be repeated.
class SqlRecorder final
{
public:
    SqlRecorder();
    ~SqlRecorder();
    SqlRecorder(const SqlRecorder &) = delete;
    SqlRecorder &operator=(const SqlRecorder &) = delete;

    // A connection opened before the recorder (SQLite), or the server connection to follow.
    void attach(const QSqlDatabase &db);
    void start();
    // What was sent since start(), in order.
    QList<RecordedStatement> stop();

    void add(RecordedStatement statement); // from SQLite's trace callback, any thread

private:
    QList<RecordedStatement> readPostgresTrace();

    QList<RecordedStatement> m_statements;
    pg_conn *m_postgres = nullptr;
    FILE *m_trace = nullptr;
};

// The time of one bare pass over the statements that read, each row's every value read.
struct Replayed
{
    double ms = 0;         // median of the passes
    double fastestMs = 0;  // the fastest pass
    qint64 statements = 0; // replayed (the writes and transaction control left out)
    qint64 rows = 0;       // in one pass
    qint64 bytes = 0;      // of the values read in one pass (text as UTF-16, numbers as 8)
};

// Runs the reads again with QSqlQuery: on `on` when it is valid (a server connection, or a
// SQLite file the work's statements should run on instead), else on a connection of its own to
// each SQLite file they ran on, opened before the clock starts. Fatal when a statement fails:
// then the figure beside it would be meaningless.
Replayed replay(const QList<RecordedStatement> &statements, int repeats,
                const QSqlDatabase &on = QSqlDatabase());

} // namespace hg::bench
