#include "remoteinfo.h"

namespace hg {

QJsonObject RemoteInfo::toJson() const
{
    return QJsonObject{
        {QStringLiteral("system"), system},     {QStringLiteral("version"), version},
        {QStringLiteral("major"), major},       {QStringLiteral("server"), serverVersion},
        {QStringLiteral("timeZone"), timeZone}, {QStringLiteral("readOnly"), readOnly},
        {QStringLiteral("warning"), warning},   {QStringLiteral("advice"), advice}};
}

QString RemoteInfo::summary(const ConnectionProfile &profile) const
{
    const QString what = system + QLatin1Char(' ') + version;
    QString text = what == serverVersion
                       ? tr("remote '%1': %2").arg(profile.name, what)
                       : tr("remote '%1': %2 on %3").arg(profile.name, what, serverVersion);
    if (!timeZone.isEmpty())
        text += tr(", time zone %1").arg(timeZone);
    text += readOnly ? tr(", read-only") : tr(", read-write");
    if (!warning.isEmpty())
        text += QLatin1String("\nwarning: ") + warning;
    if (!advice.isEmpty())
        text += QLatin1String("\nadvice: ") + advice;
    return text;
}

} // namespace hg
