#pragma once

#include "base/result.h"
#include "domain/filetriggerspec.h"

#include <QCoreApplication>
#include <QHash>
#include <QJsonObject>
#include <QList>

#include <optional>

namespace hg {

class Store;

// What a file trigger has seen of its files (file_trigger_seen) and the runs it starts. The
// snapshot and the runs are written in one transaction, a run keyed by the file version that
// started it (UNIQUE (trigger_id, trigger_key)): a version starts at most one run, whatever
// restarts, and what was seen is what was run (or skipped, or gathered to wait).
class FileTriggerRepository final
{
    Q_DECLARE_TR_FUNCTIONS(hg::FileTriggerRepository)

public:
    struct Version
    {
        QString path;
        qint64 inode = 0;
        qint64 size = 0;
        qint64 mtimeMs = 0;
        bool operator==(const Version &other) const = default;
        // path|inode|size|mtime: the run key of this version.
        QString key() const;
    };
    struct Seen
    {
        Version version;
        std::optional<FileEvent> waiting; // an arrival gathered for the next run
    };
    struct RunStart
    {
        QString key;
        QJsonObject parameters;
    };
    // One pass: runs to start, versions now seen (waiting or not), paths gone.
    struct Change
    {
        QList<RunStart> runs;
        QList<Seen> seen;
        QStringList forgotten;
    };

    explicit FileTriggerRepository(Store &store)
        : m_store(store)
    {}

    Result<QHash<QString, Seen>> seen(qint64 triggerId) const;
    // When the engine first looked at the trigger's folder; nullopt: never.
    Result<std::optional<qint64>> baselineAt(qint64 triggerId) const;
    // The files there now are what was there when the trigger was made: no runs.
    Status takeBaseline(qint64 triggerId, const QList<Version> &present, qint64 nowMs);
    // Writes the pass; returns the ids of the runs it started (a key already used starts
    // none).
    Result<QList<qint64>> apply(qint64 triggerId, qint64 chainId, const Change &change,
                                qint64 nowMs);

private:
    Status writeSeen(qint64 triggerId, const QList<Seen> &seen);

    Store &m_store;
};

} // namespace hg
