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

QMutex poolMutex;
QThreadPool *pool = nullptr;

void deletePool()
{
    QThreadPool *ending = nullptr;
    {
        const QMutexLocker lock(&poolMutex);
        std::swap(ending, pool);
    }
    delete ending; // waits for the work still running (unlocked: it may ask for the pool)
}

} // namespace

QThreadPool *waitingWorkPool()
{
    const QMutexLocker lock(&poolMutex);
    if (!pool) {
        pool = new QThreadPool;
        pool->setObjectName(QStringLiteral("hourglass waiting work"));
        pool->setMaxThreadCount(maximumThreads);
        qAddPostRoutine(deletePool);
    }
    return pool;
}

} // namespace hg
