#pragma once

#include "enums.h"

#include <QDateTime>
#include <QJsonObject>
#include <QString>

namespace hg {

// A control request written by the GUI or the command line and consumed by an engine, so
// a local engine and engines on other machines are driven the same way.
struct Command
{
    qint64 id = 0;
    CommandKind kind = CommandKind::Start;
    qint64 chainId = 0;
    qint64 runId = 0;
    QJsonObject payload;
    QString targetEngine; // empty: any engine
    QDateTime createdAt;
    QString claimedBy;
    QDateTime claimedAt;
    QDateTime doneAt;
    QString error; // empty when the command succeeded
};

} // namespace hg
