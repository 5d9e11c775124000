#include "remoteinfo.h"

namespace hg {

QJsonObject RemoteInfo::toJson() const
{
    return QJsonObject{
        {QStringLiteral("system"), system},     {QStringLiteral("version"), version},
        {QStringLiteral("major"), major},       {QStringLiteral("server"), serverVersion},
        {QStringLiteral("timeZone"), timeZone}, {QStringLiteral("readOnly"), readOnly},
        {QStringLiteral("warning"), warning}};
}

QString RemoteInfo::summary(const ConnectionProfile &profile) const
{
    QString text = tr("remote '%1': %2 %3 on %4").arg(profile.name, system, version, serverVersion);
    if (!timeZone.isEmpty())
        text += tr(", time zone %1").arg(timeZone);
    text += readOnly ? tr(", read-only") : tr(", read-write");
    if (!warning.isEmpty())
        text += QLatin1String("\nwarning: ") + warning;
    return text;
}

} // namespace hg
