#include "colorscheme.h"

#include "focusframestyle.h"

#include <QApplication>
#include <QPalette>
#include <QStyle>
#include <QStyleFactory>

namespace hg {
namespace {

QPalette darkPalette()
{
    QPalette p;
    const QColor window(0x2b, 0x2d, 0x31);
    const QColor base(0x1f, 0x21, 0x24);
    const QColor text(0xe8, 0xea, 0xed);
    const QColor disabledText(0x80, 0x86, 0x8b);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, QColor(0x35, 0x37, 0x3c));
    p.setColor(QPalette::ToolTipBase, QColor(0x3c, 0x40, 0x43));
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, QColor(0x9a, 0xa0, 0xa6));
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, QColor(0x3c, 0x40, 0x43));
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, QColor(0xff, 0x8a, 0x80));
    p.setColor(QPalette::Light, QColor(0x4a, 0x4d, 0x52));
    p.setColor(QPalette::Midlight, QColor(0x40, 0x43, 0x48));
    p.setColor(QPalette::Mid, QColor(0x30, 0x32, 0x36));
    p.setColor(QPalette::Dark, QColor(0x18, 0x19, 0x1c));
    p.setColor(QPalette::Shadow, QColor(0x00, 0x00, 0x00));
    p.setColor(QPalette::Highlight, QColor(0x8a, 0xb4, 0xf8));
    p.setColor(QPalette::HighlightedText, QColor(0x20, 0x21, 0x24));
    p.setColor(QPalette::Link, QColor(0x8a, 0xb4, 0xf8));
    for (QPalette::ColorRole role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        p.setColor(QPalette::Disabled, role, disabledText);
    return p;
}

} // namespace

void ColorScheme::apply(const QString &scheme)
{
    // The style the desktop gave, kept once so "system" can go back to it.
    static const QString platformStyle = FocusFrameStyle::baseOf(QApplication::style())->name();
    if (scheme == dark() || scheme == light()) {
        FocusFrameStyle::install(QStyleFactory::create(QStringLiteral("Fusion")));
        QApplication::setPalette(scheme == dark() ? darkPalette()
                                                  : QApplication::style()->standardPalette());
        return;
    }
    FocusFrameStyle::install(QStyleFactory::create(platformStyle));
    QApplication::setPalette(QApplication::style()->standardPalette());
}

} // namespace hg
