#pragma once

#include <QDateTime>
#include <QString>

namespace hg {

struct EngineSession
{
    qint64 id = 0;
    QString name;
    QString host;
    qint64 pid = 0;
    QDateTime startedAt;
    QDateTime heartbeatAt;
    QDateTime leaseUntil; // past this instant other engines may take over its runs
    int capacity = 0;
    int load = 0;
    qint64 epoch = 0; // grows with every registration: the fencing token of its runs
    QString process;  // processinfo::identity of the engine's process; empty when not known
};

} // namespace hg
