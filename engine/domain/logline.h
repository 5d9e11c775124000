#pragma once

#include "enums.h"

#include <QDateTime>
#include <QString>

namespace hg {

struct LogLine
{
    qint64 id = 0;
    qint64 runId = 0;
    qint64 taskRunId = 0; // 0: a line about the run as a whole
    LogStream stream = LogStream::Stdout;
    QDateTime at;
    QString text;
};

} // namespace hg
