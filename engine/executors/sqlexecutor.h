#pragma once

#include "base/longtimer.h"
#include "store/sqltarget.h"
#include "taskexecutor.h"

#include <QFutureWatcher>
#include <QStringList>
#include <QTimer>

#include <memory>

namespace hg {

// SQL tasks. The script runs on the thread pool over a connection of its own, opened there
// and closed afterwards (Qt Sql connections belong to their thread): its statements one by one
// (sqlscript::split) inside one transaction, committed when all succeeded and rolled back at
// the first failure, on every backend (MySQL and MariaDB commit DDL at once: a failure there
// says which statements were committed). Parameters are bound to `?` placeholders of a
// one-statement script, never spliced into the text. A SELECT logs its rows (tab-separated, at most
// maxLoggedRows); other statements log how many rows they changed. A stop or timeout cancels the
// statement on the server (pg_cancel_backend, KILL QUERY, sqlite3_interrupt) and the attempt ends
// once it has stopped.
class SqlExecutor final : public TaskExecutor
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SqlExecutor)

public:
    struct Control; // shared with the worker: how to cancel the running statement
    struct Outcome
    {
        QStringList lines;
        QString error;
    };

    SqlExecutor(SqlTarget target, QString sql, QStringList parameters, qint64 timeoutMs,
                QObject *parent = nullptr);
    ~SqlExecutor() override;

    void start() override;
    void stop(RunState reason) override;

    static constexpr int maxLoggedRows = 1000;

private:
    SqlTarget m_target;
    QString m_sql;
    QStringList m_parameters;
    qint64 m_timeoutMs = 0;
    std::shared_ptr<Control> m_control;
    QFutureWatcher<Outcome> m_watcher;
    LongTimer m_timeout;
    std::optional<RunState> m_stopReason;
};

} // namespace hg
