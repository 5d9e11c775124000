#pragma once

#include "enums.h"

#include <QJsonObject>
#include <QPointF>
#include <QString>
#include <QStringList>

#include <optional>

namespace hg {

struct Task
{
    qint64 id = 0;
    qint64 chainId = 0;
    QString name;
    TaskKind kind = TaskKind::Program;
    QString command;
    QStringList arguments;
    QString workingDirectory;
    QJsonObject environment; // name -> value; the child gets only these plus a safe base
    QString connectionName;  // SQL tasks: a connection profile; empty means the store itself
    bool ignoreError = false;
    bool autonomous = false; // SQL: runs outside the chain's transaction
    int timeoutSeconds = 0;
    int maxRetries = 0;
    int retryDelaySeconds = 0;
    double retryBackoff = 2.0; // delay multiplier between attempts
    Priority priority = Priority::Medium;
    std::optional<QPointF> position; // saved canvas position, if the user placed it
};

} // namespace hg
