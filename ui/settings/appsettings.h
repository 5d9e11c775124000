#pragma once

#include <QString>

namespace hg {

// The desktop application's preferences, kept with QSettings (~/.config/hourglass/).
// Store location and slots apply at the next start; the rest at once.
struct AppSettings
{
    QString storeLocation; // as for --db; empty: the default store
    int slotCount = 0;     // 0: twice the processor count
    QString defaultZone;   // IANA id; empty: the system's zone
    bool notifications = true;
    bool closeToTray = true;
    bool startAtLogin = false;
    bool schedulesPaused = false;

    static AppSettings load();
    void save() const;
};

} // namespace hg
