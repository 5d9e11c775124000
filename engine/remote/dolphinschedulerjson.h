#pragma once

#include "dolphinschedulerprotocol.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QString>

namespace hg::dolphinscheduler {

// JSON text as DolphinScheduler stores it in its columns: compact.
inline QString compactJson(const QJsonObject &object)
{
    return QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Compact));
}

inline QString compactJson(const QJsonArray &array)
{
    return QString::fromUtf8(QJsonDocument(array).toJson(QJsonDocument::Compact));
}

// One entry of an instance's state_history as 3.3's master appends it when it (re)submits the
// instance, `desc` naming why ("START_PROCESS", "COMPLEMENT_DATA", ...).
inline QJsonObject submittedHistoryEntry(const QString &desc)
{
    return QJsonObject{{QLatin1String(kStateHistoryTime),
                        QDateTime::currentDateTime().toString(QLatin1String(kDateTimeFormat))},
                       {QLatin1String(kStateHistoryState), QStringLiteral("SUBMITTED_SUCCESS")},
                       {QLatin1String(kStateHistoryDesc), desc}};
}

} // namespace hg::dolphinscheduler
