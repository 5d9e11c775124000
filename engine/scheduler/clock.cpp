#include "clock.h"

#include <QDateTime>

namespace hg {

qint64 SystemClock::nowMs() const
{
    return QDateTime::currentMSecsSinceEpoch();
}

} // namespace hg
