#include "logrepository.h"

#include "runselsewhere.h"
#include "store.h"
#include "storequery.h"

#include <algorithm>

namespace hg {

Status LogRepository::append(QList<LogLine> &lines)
{
    if (lines.isEmpty())
        return {};
    // Many rows a statement: a batch of 500 lines is 5 round trips on a server, not 500, and
    // a store that refuses now and then (a flaky link) refuses a batch far less often.
    constexpr qsizetype rowsPerStatement = 100;
    return m_store.transaction([&]() -> Status {
        for (qsizetype first = 0; first < lines.size(); first += rowsPerStatement) {
            const qsizetype count = qMin(rowsPerStatement, lines.size() - first);
            // A line may name an attempt whose row a refused commit took back (a retry's
            // waiting row, say): it is kept, on the run alone, rather than failing the whole
            // batch (and on PostgreSQL the transaction it shares with the engine's other
            // writes).
            QString sql = QStringLiteral(
                "INSERT INTO log_line (run_id, task_run_id, stream, at, text) VALUES ");
            for (qsizetype i = 0; i < count; ++i) {
                sql += i == 0 ? QLatin1String("") : QLatin1String(", ");
                sql += QLatin1String("(?, (SELECT id FROM task_run WHERE id = ?), ?, ?, ?)");
            }
            sql += QLatin1String(" RETURNING id");
            StoreQuery q(m_store, sql);
            for (qsizetype i = first; i < first + count; ++i) {
                const LogLine &line = lines.at(i);
                q.bind(line.runId)
                    .bind(StoreQuery::fromId(line.taskRunId))
                    .bind(enumName(line.stream))
                    .bind(StoreQuery::fromTime(line.at))
                    .bind(line.text);
            }
            if (Status s = q.exec(tr("write log lines")); !s)
                return s;
            // RETURNING gives no order, but both backends number one statement's rows upwards
            // in VALUES order: the sorted ids are the lines' (a live view tells them apart
            // from what it read).
            QList<qint64> ids;
            ids.reserve(count);
            while (q.next())
                ids << q.int64(0);
            if (ids.size() != count)
                return Error::storage(
                    tr("writing %1 log lines stored %2").arg(count).arg(ids.size()));
            std::sort(ids.begin(), ids.end());
            for (qsizetype i = 0; i < count; ++i)
                lines[first + i].id = ids.at(i);
        }
        return {};
    });
}

namespace {

QList<LogLine> readLines(StoreQuery &q)
{
    QList<LogLine> lines;
    while (q.next()) {
        lines << LogLine{
            q.int64(0), q.int64(1),
            q.int64(2), enumFromString<LogStream>(q.text(3)).value_or(LogStream::System),
            q.time(4),  q.text(5)};
    }
    return lines;
}

} // namespace

Result<QList<LogLine>> LogRepository::read(qint64 runId, qint64 afterId, int limit) const
{
    StoreQuery q(m_store, QStringLiteral("SELECT id, run_id, COALESCE(task_run_id, 0), stream, at, "
                                         "text FROM log_line WHERE run_id = ? AND id > ? "
                                         "ORDER BY id LIMIT ?"));
    q.bind(runId).bind(afterId).bind(qMax(limit, 1));
    if (Status s = q.exec(tr("read log")); !s)
        return s.error();
    return readLines(q);
}

Result<QList<LogLine>> LogRepository::readTail(qint64 runId, int limit) const
{
    StoreQuery q(m_store, QStringLiteral("SELECT id, run_id, COALESCE(task_run_id, 0), stream, at, "
                                         "text FROM log_line WHERE run_id = ? "
                                         "ORDER BY id DESC LIMIT ?"));
    q.bind(runId).bind(qMax(limit, 1));
    if (Status s = q.exec(tr("read log")); !s)
        return s.error();
    QList<LogLine> lines = readLines(q);
    std::reverse(lines.begin(), lines.end());
    return lines;
}

Result<QList<LogLine>> LogRepository::readElsewhere(qint64 afterId, qint64 sessionId,
                                                    const QList<qint64> &alsoRuns, int limit) const
{
    StoreQuery q(m_store,
                 QStringLiteral("SELECT id, run_id, COALESCE(task_run_id, 0), stream, at, text "
                                "FROM log_line WHERE id > ? AND %1 ORDER BY id LIMIT ?")
                     .arg(RunsElsewhere::lineCondition(alsoRuns)));
    q.bind(afterId).bind(sessionId).bind(sessionId).bind(qMax(limit, 1));
    if (Status s = q.exec(tr("read log")); !s)
        return s.error();
    return readLines(q);
}

Result<qint64> LogRepository::lastId() const
{
    StoreQuery q(m_store, QStringLiteral("SELECT COALESCE(MAX(id), 0) FROM log_line"));
    if (Status s = q.execSingle(tr("read log"), {}); !s)
        return s.error();
    return q.int64(0);
}

} // namespace hg
