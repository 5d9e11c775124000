#include "filetriggerrepository.h"

#include "occurrencerepository.h"
#include "store.h"
#include "storequery.h"
#include "triggerrunwriter.h"

#include <QFileInfo>

#include <algorithm>

namespace hg {
namespace {

QString waitingName(const std::optional<FileEvent> &event)
{
    // The store keeps created, modified and deleted; a file moved in is one created.
    if (!event)
        return {};
    return *event == FileEvent::Moved ? enumName(FileEvent::Created) : enumName(*event);
}

} // namespace

QString FileTriggerRepository::Version::key() const
{
    return QStringLiteral("%1|%2|%3|%4").arg(path).arg(inode).arg(size).arg(mtimeMs);
}

Result<QHash<QString, FileTriggerRepository::Seen>>
FileTriggerRepository::seen(qint64 triggerId) const
{
    StoreQuery q(m_store, QStringLiteral("SELECT path, inode, size, mtime_ms, waiting FROM "
                                         "file_trigger_seen WHERE trigger_id = ?"));
    q.bind(triggerId);
    if (Status s = q.exec(tr("read what a file trigger has seen")); !s)
        return s.error();
    QHash<QString, Seen> seen;
    while (q.next()) {
        Seen row{{q.text(0), q.int64(1), q.int64(2), q.int64(3)},
                 enumFromString<FileEvent>(q.text(4))};
        seen.insert(row.version.path, row);
    }
    return seen;
}

Result<std::optional<qint64>> FileTriggerRepository::baselineAt(qint64 triggerId) const
{
    StoreQuery q(m_store, QStringLiteral("SELECT baseline_at FROM chain_trigger WHERE id = ?"));
    q.bind(triggerId);
    if (Status s = q.execSingle(tr("read a file trigger"), tr("no trigger %1").arg(triggerId)); !s)
        return s.error();
    if (q.value(0).isNull())
        return std::optional<qint64>();
    return std::optional<qint64>(q.int64(0));
}

Status FileTriggerRepository::takeBaseline(qint64 triggerId, const QList<Version> &present,
                                           qint64 nowMs)
{
    return m_store.transaction([&]() -> Status {
        QList<Seen> rows;
        rows.reserve(present.size());
        for (const Version &version : present)
            rows << Seen{version, std::nullopt};
        if (Status s = writeSeen(triggerId, rows); !s)
            return s;
        StoreQuery q(m_store,
                     QStringLiteral("UPDATE chain_trigger SET baseline_at = ? WHERE id = ?"));
        q.bind(nowMs).bind(triggerId);
        return q.exec(tr("note what a file trigger found first"));
    });
}

Status FileTriggerRepository::writeSeen(qint64 triggerId, const QList<Seen> &seen)
{
    // Many rows a statement: a baseline of 100,000 files took 8 s one row at a time. 500 rows
    // of 6 values stay far below SQLite's 32,766 host parameters.
    constexpr qsizetype rowsPerStatement = 500;
    for (qsizetype from = 0; from < seen.size(); from += rowsPerStatement) {
        const qsizetype count = std::min(rowsPerStatement, seen.size() - from);
        QString sql = QStringLiteral("INSERT INTO file_trigger_seen (trigger_id, path, inode, "
                                     "size, mtime_ms, waiting) VALUES ");
        sql.reserve(sql.size() + count * 20 + 200);
        for (qsizetype i = 0; i < count; ++i)
            sql += i == 0 ? QStringLiteral("(?, ?, ?, ?, ?, ?)")
                          : QStringLiteral(", (?, ?, ?, ?, ?, ?)");
        sql += QStringLiteral(" ON CONFLICT (trigger_id, path) DO UPDATE SET inode = "
                              "excluded.inode, size = excluded.size, mtime_ms = "
                              "excluded.mtime_ms, waiting = excluded.waiting");
        StoreQuery q(m_store, sql);
        for (qsizetype i = from; i < from + count; ++i) {
            const Seen &row = seen.at(i);
            q.bind(triggerId)
                .bind(row.version.path)
                .bind(row.version.inode)
                .bind(row.version.size)
                .bind(row.version.mtimeMs)
                .bind(waitingName(row.waiting));
        }
        if (Status s = q.exec(tr("note what a file trigger has seen")); !s)
            return s;
    }
    return {};
}

Status FileTriggerRepository::writeLedger(qint64 triggerId, qint64 chainId, const Change &change,
                                          const QList<qint64> &started)
{
    if (!change.ledger)
        return {};
    Occurrence row = *change.ledger;
    row.triggerId = triggerId;
    row.chainId = chainId;
    if (row.outcome == OccurrenceOutcome::Coalesced) {
        if (started.isEmpty()) // the run was made before: so were its rows
            return {};
        row.runId = started.constFirst();
    }
    const Result<qint64> id = OccurrenceRepository(m_store).insert(row);
    if (!id)
        return id.error();
    for (const Seen &file : change.held) {
        StoreQuery q(m_store, QStringLiteral("INSERT INTO file_trigger_held (occurrence_id, path, "
                                             "inode, size, mtime_ms, event) VALUES (?, ?, ?, ?, "
                                             "?, ?) ON CONFLICT (occurrence_id, path) DO NOTHING"));
        q.bind(id.value())
            .bind(file.version.path)
            .bind(file.version.inode)
            .bind(file.version.size)
            .bind(file.version.mtimeMs)
            .bind(waitingName(file.waiting.value_or(FileEvent::Created)));
        if (Status s = q.exec(tr("keep the files of a missed trigger")); !s)
            return s;
    }
    return {};
}

Result<QList<FileTriggerRepository::Seen>> FileTriggerRepository::held(qint64 occurrenceId) const
{
    StoreQuery q(m_store, QStringLiteral("SELECT path, inode, size, mtime_ms, event FROM "
                                         "file_trigger_held WHERE occurrence_id = ? ORDER BY "
                                         "mtime_ms, path"));
    q.bind(occurrenceId);
    if (Status s = q.exec(tr("read the files of a missed trigger")); !s)
        return s.error();
    QList<Seen> files;
    while (q.next())
        files << Seen{{q.text(0), q.int64(1), q.int64(2), q.int64(3)},
                      enumFromString<FileEvent>(q.text(4))};
    return files;
}

QString FileTriggerRepository::describe(const QList<Seen> &files)
{
    // Stored, so in no language: the window and the command line put the count before it.
    QStringList sorted;
    for (const Seen &file : files)
        sorted << QFileInfo(file.version.path).fileName();
    sorted.sort();
    QString names;
    for (QString &name : sorted) {
        for (QChar &c : name)
            if (c.category() == QChar::Other_Control || c.category() == QChar::Other_Format)
                c = QLatin1Char('?');
        if (!names.isEmpty() && names.size() + name.size() > 160)
            return names + QStringLiteral(", …");
        names += (names.isEmpty() ? QString() : QStringLiteral(", ")) + name.left(160);
    }
    return names;
}

Result<QList<qint64>> FileTriggerRepository::apply(qint64 triggerId, qint64 chainId,
                                                   const Change &change, qint64 nowMs)
{
    QList<qint64> started;
    const Status written = m_store.transaction([&]() -> Status {
        started.clear();
        for (const RunStart &run : change.runs) {
            const Result<std::optional<qint64>> id =
                TriggerRunWriter::insert(m_store, triggerId, chainId, run.key, run.parameters,
                                         nowMs, tr("start a run of a file trigger"));
            if (!id)
                return id.error();
            if (id->has_value())
                started << **id;
        }
        if (Status s = writeSeen(triggerId, change.seen); !s)
            return s;
        if (Status s = writeLedger(triggerId, chainId, change, started); !s)
            return s;
        for (const QString &path : change.forgotten) {
            StoreQuery q(m_store, QStringLiteral("DELETE FROM file_trigger_seen WHERE "
                                                 "trigger_id = ? AND path = ?"));
            q.bind(triggerId).bind(path);
            if (Status s = q.exec(tr("note what a file trigger has seen")); !s)
                return s;
        }
        return Status{};
    });
    if (!written)
        return written.error();
    return started;
}

} // namespace hg
