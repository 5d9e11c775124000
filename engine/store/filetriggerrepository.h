#pragma once

#include "base/result.h"
#include "domain/filetriggerspec.h"
#include "domain/occurrence.h"

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
    // One pass: runs to start, versions now seen (waiting or not), paths gone, and what the
    // occurrence ledger says of it: files skipped, gathered into the pass's run (its runId is
    // filled in; no row when the run's key was used already) or waiting in the missed-runs
    // inbox (the versions in held, each with its event in waiting).
    struct Change
    {
        QList<RunStart> runs;
        QList<Seen> seen;
        QStringList forgotten;
        std::optional<Occurrence> ledger;
        QList<Seen> held;
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

    // The file versions an inbox row holds, by path.
    Result<QList<Seen>> held(qint64 occurrenceId) const;
    // "a.csv, b.csv, c.csv" (names only, sorted, control characters shown as '?', cut with
    // ", …" at about 160 characters): an occurrence's detail.
    static QString describe(const QList<Seen> &files);

private:
    Status writeSeen(qint64 triggerId, const QList<Seen> &seen);
    Status writeLedger(qint64 triggerId, qint64 chainId, const Change &change,
                       const QList<qint64> &started);

    Store &m_store;
};

} // namespace hg
