#include "missedfileruns.h"

#include "filetriggerruns.h"
#include "store/commandrepository.h"
#include "store/filetriggerrepository.h"
#include "store/runrepository.h"
#include "store/store.h"
#include "store/storequery.h"

#include <QDateTime>
#include <QMap>

#include <algorithm>

namespace hg {

Result<QList<MissedFileRuns::Planned>>
MissedFileRuns::plan(Store &store, const QList<Occurrence> &rows, bool oneEach)
{
    QMap<qint64, QList<FileTriggerRepository::Seen>> byTrigger;
    for (const Occurrence &row : rows) {
        const Result<QList<FileTriggerRepository::Seen>> files =
            FileTriggerRepository(store).held(row.id);
        if (!files)
            return files.error();
        byTrigger[row.triggerId] += files.value();
    }
    QList<Planned> planned;
    for (auto it = byTrigger.cbegin(); it != byTrigger.cend(); ++it) {
        QList<FileTriggerRepository::Seen> files = it.value();
        if (files.isEmpty())
            continue;
        std::sort(files.begin(), files.end(), [](const auto &a, const auto &b) {
            return a.version.mtimeMs != b.version.mtimeMs ? a.version.mtimeMs < b.version.mtimeMs
                                                          : a.version.path < b.version.path;
        });
        if (oneEach) {
            for (const FileTriggerRepository::Seen &file : std::as_const(files)) {
                const FileEvent event = file.waiting.value_or(FileEvent::Created);
                const QString key = file.version.key();
                planned << Planned{
                    it.key(), event == FileEvent::Deleted ? QStringLiteral("deleted|") + key : key,
                    QJsonObject{{QStringLiteral("trigger.path"), file.version.path},
                                {QStringLiteral("trigger.event"), enumName(event)},
                                {QStringLiteral("trigger.missed"), QStringLiteral("1")}},
                    file.version.mtimeMs};
            }
            continue;
        }
        const FileTriggerRepository::Seen &first = files.constFirst();
        const QString key = QStringLiteral("batch|") + first.version.key();
        const QString list = FileTriggerRuns::writeList(it.key(), files, key);
        if (list.isEmpty())
            return Error::storage(tr("cannot write the list of the missed files in %1")
                                      .arg(FileTriggerRuns::listFolder()));
        planned << Planned{
            it.key(), key,
            QJsonObject{{QStringLiteral("trigger.path"), first.version.path},
                        {QStringLiteral("trigger.event"),
                         enumName(first.waiting.value_or(FileEvent::Created))},
                        {QStringLiteral("trigger.paths"), list},
                        {QStringLiteral("trigger.count"), QString::number(files.size())},
                        {QStringLiteral("trigger.missed"), QStringLiteral("1")}},
            files.constLast().version.mtimeMs};
    }
    std::stable_sort(planned.begin(), planned.end(),
                     [](const Planned &a, const Planned &b) { return a.firedMs < b.firedMs; });
    return planned;
}

Result<QList<Run>> MissedFileRuns::enqueue(Store &store, const Chain &chain,
                                           const QList<Planned> &planned, int parallel)
{
    QList<qint64> ids;
    const qint64 nowMs = QDateTime::currentMSecsSinceEpoch();
    for (const Planned &run : planned) {
        StoreQuery q(store, QStringLiteral("INSERT INTO run (chain_id, trigger, scheduled_for, "
                                           "state, parameters, created_at, trigger_id, "
                                           "trigger_key, batch_id, batch_parallel) VALUES (?, "
                                           "'trigger', ?, 'queued', ?, ?, ?, ?, ?, ?) ON "
                                           "CONFLICT (trigger_id, trigger_key) DO NOTHING "
                                           "RETURNING id"));
        q.bind(chain.id)
            .bind(nowMs)
            .bind(StoreQuery::fromJson(run.parameters))
            .bind(nowMs)
            .bind(run.triggerId)
            .bind(run.key)
            .bind(StoreQuery::fromId(ids.isEmpty() ? 0 : ids.constFirst()))
            .bind(std::max(1, parallel));
        if (Status s = q.exec(tr("queue a missed run of a file trigger")); !s)
            return s.error();
        if (!q.next())
            continue; // this version ran already
        const qint64 id = q.int64(0);
        if (ids.isEmpty()) { // the batch is named after its first run
            if (Status s = RunRepository(store).setBatch(id, id); !s)
                return s.error();
        }
        ids << id;
        Command command;
        command.kind = CommandKind::Backfill;
        command.runId = id;
        if (const Result<Command> c = CommandRepository(store).enqueue(command); !c)
            return c.error();
    }
    Result<QList<Run>> runs = RunRepository(store).byIds(ids);
    if (!runs)
        return runs.error();
    std::sort(runs->begin(), runs->end(), [](const Run &a, const Run &b) { return a.id < b.id; });
    return runs;
}

} // namespace hg
