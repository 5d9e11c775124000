#pragma once

#include "base/result.h"

#include <QString>

namespace hg {

// "Start at login" on Linux desktops: a desktop entry in $XDG_CONFIG_HOME/autostart
// (the freedesktop.org Desktop Application Autostart Specification).
class XdgAutostart final
{
public:
    static QString entryPath();
    static bool isEnabled();
    // Writes the entry (starting `executable` minimised to the tray) or removes it.
    static Status setEnabled(bool enabled, const QString &executable);
};

} // namespace hg
