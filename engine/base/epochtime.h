#pragma once

#include <QDateTime>

namespace hg {

// The engine keeps times as milliseconds since the epoch (the fire queue, the store's columns);
// this is the one way back to a QDateTime, always in UTC so no local-time rule slips in.
inline QDateTime utcFromMs(qint64 ms)
{
    return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC);
}

} // namespace hg
