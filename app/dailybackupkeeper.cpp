#include "dailybackupkeeper.h"

#include "base/waitingworkpool.h"
#include "store/dailybackups.h"
#include "store/store.h"

#include <QFileInfo>
#include <QtConcurrent>

namespace hg {

DailyBackupKeeper::DailyBackupKeeper(StoreLocation store, int keep, QObject *parent)
    : QObject(parent)
    , m_store(std::move(store))
    , m_keep(keep)
{
    // Hourly: a window left open over midnight takes the new day's backup within the hour.
    m_timer.setInterval(60 * 60 * 1000);
    connect(&m_timer, &QTimer::timeout, this, &DailyBackupKeeper::backUpIfDue);
    connect(&m_watcher, &QFutureWatcher<Outcome>::finished, this, [this] {
        const Outcome outcome = m_watcher.result();
        if (!outcome.error.isEmpty())
            Q_EMIT backupFailed(outcome.error);
        else if (!outcome.path.isEmpty())
            Q_EMIT backupTaken(outcome.path);
    });
}

DailyBackupKeeper::~DailyBackupKeeper()
{
    m_watcher.waitForFinished();
}

void DailyBackupKeeper::start()
{
    m_timer.start();
    backUpIfDue();
}

void DailyBackupKeeper::setKeep(int keep)
{
    m_keep = keep;
    backUpIfDue();
}

bool DailyBackupKeeper::backUpIfDue()
{
    const QDate today = QDate::currentDate();
    if (m_keep <= 0 || m_store.backend() != StoreBackend::Sqlite || isBusy()
        || QFileInfo::exists(DailyBackups::pathFor(m_store, today)))
        return false;
    m_watcher.setFuture(
        QtConcurrent::run(waitingWorkPool(), [store = m_store, today, keep = m_keep]() -> Outcome {
            // A connection of this thread's own; as it is, never migrated from here.
            Store::Options asItIs;
            asItIs.mode = Store::OpenMode::AsIs;
            Result<std::unique_ptr<Store>> opened =
                Store::open(store, QStringLiteral("backup"), asItIs);
            if (!opened)
                return {QString(), opened.error().message};
            const Result<QString> taken = DailyBackups::takeIfDue(*opened.value(), today, keep);
            return taken ? Outcome{taken.value(), QString()}
                         : Outcome{QString(), taken.error().message};
        }));
    return true;
}

} // namespace hg
