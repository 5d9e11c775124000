#include "waitingworkpool.h"

#include <QCoreApplication>
#include <QMutex>
#include <QThreadPool>

#include <utility>

namespace hg {
namespace {

// Each thread waits, none computes: as many as the work there is, up to a bound only a
// runaway reaches (the engine's slots bound its SQL tasks long before).
constexpr int maximumThreads = 256;

constexpr int remoteReadThreads = 4;

QMutex poolMutex;
QThreadPool *waitingPool = nullptr;
QThreadPool *remotePool = nullptr;

void deletePools()
{
    QThreadPool *waiting = nullptr;
    QThreadPool *remote = nullptr;
    {
        const QMutexLocker lock(&poolMutex);
        std::swap(waiting, waitingPool);
        std::swap(remote, remotePool);
    }
    delete remote; // each waits for the work still running (unlocked: it may ask for a pool)
    delete waiting;
}

QThreadPool *pool(QThreadPool *&slot, const QString &name, int threads)
{
    const QMutexLocker lock(&poolMutex);
    if (!slot) {
        if (!waitingPool && !remotePool)
            qAddPostRoutine(deletePools);
        slot = new QThreadPool;
        slot->setObjectName(name);
        slot->setMaxThreadCount(threads);
    }
    return slot;
}

} // namespace

QThreadPool *waitingWorkPool()
{
    return pool(waitingPool, QStringLiteral("hourglass waiting work"), maximumThreads);
}

QThreadPool *remoteReadPool()
{
    return pool(remotePool, QStringLiteral("hourglass remote reads"), remoteReadThreads);
}

} // namespace hg
