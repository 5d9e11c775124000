#pragma once

#include <QFontMetrics>

namespace hg {

// The width of an average lower-case letter of running text. QFontMetrics::averageCharWidth()
// is the font's own figure, which counts every glyph it has: DejaVu Sans says 18 px at 9 pt,
// twice a letter of a chain's name, and widths made from it ran off a 1024-pixel screen.
inline int letterWidth(const QFontMetrics &metrics)
{
    static const QString alphabet = QStringLiteral("abcdefghijklmnopqrstuvwxyz");
    return (metrics.horizontalAdvance(alphabet) + 25) / 26;
}

} // namespace hg
