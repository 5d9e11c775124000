#pragma once

#include <QDateTime>
#include <QString>

namespace hg {

// ISO 8601 with seconds and the UTC offset spelled out, also for UTC:
// 2026-03-29T03:00:00+02:00. What `hourglass cron next` prints and scripts parse.
QString isoWithOffset(const QDateTime &time);

} // namespace hg
