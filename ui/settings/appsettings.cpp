#include "appsettings.h"

#include <QSettings>

namespace hg {

AppSettings AppSettings::load()
{
    const QSettings s;
    AppSettings out;
    out.storeLocation = s.value(QStringLiteral("store/location")).toString();
    out.slotCount = s.value(QStringLiteral("engine/slots"), 0).toInt();
    out.defaultZone = s.value(QStringLiteral("engine/defaultZone")).toString();
    out.notifications = s.value(QStringLiteral("tray/notifications"), true).toBool();
    out.closeToTray = s.value(QStringLiteral("tray/closeToTray"), true).toBool();
    out.startAtLogin = s.value(QStringLiteral("session/startAtLogin"), false).toBool();
    out.schedulesPaused = s.value(QStringLiteral("engine/schedulesPaused"), false).toBool();
    return out;
}

void AppSettings::save() const
{
    QSettings s;
    s.setValue(QStringLiteral("store/location"), storeLocation);
    s.setValue(QStringLiteral("engine/slots"), slotCount);
    s.setValue(QStringLiteral("engine/defaultZone"), defaultZone);
    s.setValue(QStringLiteral("tray/notifications"), notifications);
    s.setValue(QStringLiteral("tray/closeToTray"), closeToTray);
    s.setValue(QStringLiteral("session/startAtLogin"), startAtLogin);
    s.setValue(QStringLiteral("engine/schedulesPaused"), schedulesPaused);
}

} // namespace hg
