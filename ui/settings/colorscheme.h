#pragma once

#include <QString>

namespace hg {

// Light, dark, or the desktop's own colours. "system" leaves Qt to follow the platform's
// palette (a dark desktop gives a dark window); light and dark use the Fusion style with a
// palette of their own, so they look the same on every desktop.
class ColorScheme final
{
public:
    ColorScheme() = delete;

    static QString system() { return QStringLiteral("system"); }
    static QString light() { return QStringLiteral("light"); }
    static QString dark() { return QStringLiteral("dark"); }
    static void apply(const QString &scheme);
};

} // namespace hg
