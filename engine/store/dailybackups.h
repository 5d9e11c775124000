#pragma once

#include "base/result.h"

#include <QCoreApplication>
#include <QDate>
#include <QStringList>

namespace hg {

class Store;
class StoreLocation;

// The desktop's rolling daily backups of a SQLite store: one file a day beside the store
// (<name>-daily-20240501.db), the newest `keep` of them kept. Only these files are ever
// removed: a backup the user took (hourglass backup) or a store a restore kept is theirs.
class DailyBackups final
{
    Q_DECLARE_TR_FUNCTIONS(hg::DailyBackups)

public:
    static constexpr int defaultKeep = 7;

    static QString pathFor(const StoreLocation &store, QDate day);
    // The daily backups of this store, newest first.
    static QStringList existing(const StoreLocation &store);
    // Takes the backup of `today` unless it exists, then removes the oldest beyond `keep`.
    // `store` is open in this thread. The new file's path, or empty when there was none to
    // take (already taken today, or keep is 0: daily backups are off).
    static Result<QString> takeIfDue(const Store &store, QDate today, int keep);
    // Removes the oldest daily backups beyond `keep` (at least one is always kept); returns
    // what it removed.
    static QStringList prune(const StoreLocation &store, int keep);
};

} // namespace hg
