#pragma once

#include "base/result.h"
#include "domain/enginesession.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QList>
#include <QString>

namespace hg {

class StoreLocation;

// `hourglass restore FILE` and the desktop's "Restore from backup…": puts a backup in the
// place of a SQLite store. The backup must pass integrity_check and have a schema this
// Hourglass understands; no engine may serve the store meanwhile (its engine_session says
// who); the store is replaced in one rename, and the one it replaces is kept beside it, with
// its write-ahead log, as <name>-before-restore-<time>.db.
class StoreRestore final
{
    Q_DECLARE_TR_FUNCTIONS(hg::StoreRestore)

public:
    struct Restored
    {
        QString keptAs; // empty when there was no store to keep
        int schemaVersion = 0;
    };

    // `force`: go on when the store is too damaged to tell who serves it (the caller has
    // made sure nobody does). The caller holds no connection to the store.
    static Result<Restored> restore(const StoreLocation &store, const QString &backupFile,
                                    bool force = false);
    // The backup's schema version once it passes integrity_check and is one we understand.
    static Result<int> check(const QString &backupFile);
    // The engines that serve the store now (empty when none, or when there is no store yet).
    // An error when the store cannot be read well enough to tell.
    static Result<QList<EngineSession>> servingEngines(const StoreLocation &store);
    static QString keepPath(const StoreLocation &store, const QDateTime &at);
};

} // namespace hg
