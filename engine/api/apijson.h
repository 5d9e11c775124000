#pragma once

#include "domain/enginesession.h"
#include "domain/run.h"
#include "domain/schedule.h"
#include "domain/taskrun.h"

#include <QDateTime>
#include <QJsonObject>
#include <QJsonValue>

#include <optional>

namespace hg::apijson {

// The API's shapes, one place for each, so every endpoint says a run (a time, …) alike.
// Times are ISO 8601 in UTC with milliseconds, or null.
QJsonValue time(const QDateTime &time);
QJsonValue timeMs(std::optional<qint64> ms);
QJsonObject run(const Run &run, const QString &chainPath);
QJsonObject attempt(const TaskRun &attempt, const QString &taskName);
QJsonObject schedule(const Schedule &schedule, std::optional<qint64> nextFireMs);
QJsonObject engine(const EngineSession &session, bool serving);

} // namespace hg::apijson
