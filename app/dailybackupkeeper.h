#pragma once

#include "store/storelocation.h"

#include <QFutureWatcher>
#include <QObject>
#include <QTimer>

namespace hg {

// The desktop's rolling daily backup of a SQLite store (DailyBackups): at start and every
// hour after, today's copy is taken unless it exists -- in a pool thread with a connection of
// its own, so the window never waits for it -- and the oldest beyond the kept number go. A
// damaged store is never copied (its check at open refuses), a PostgreSQL one has pg_dump.
class DailyBackupKeeper final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DailyBackupKeeper)

public:
    DailyBackupKeeper(StoreLocation store, int keep, QObject *parent = nullptr);
    // Waits for a backup under way: the store must not be closed or replaced under it.
    ~DailyBackupKeeper() override;

    void start();
    // 0 takes none; checked again at once, so turning it on takes today's.
    void setKeep(int keep);
    // Starts today's backup if it is due and none is under way; false otherwise.
    bool backUpIfDue();
    bool isBusy() const { return m_watcher.isRunning(); }

Q_SIGNALS:
    void backupTaken(const QString &path);
    void backupFailed(const QString &message);

private:
    struct Outcome
    {
        QString path; // empty: nothing was due after all
        QString error;
    };

    StoreLocation m_store;
    int m_keep = 0;
    QTimer m_timer;
    QFutureWatcher<Outcome> m_watcher;
};

} // namespace hg
