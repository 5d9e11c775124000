#include "focusframestyle.h"

#include <QAbstractScrollArea>
#include <QApplication>
#include <QPainter>
#include <QStyleOption>

namespace hg {

FocusFrameStyle::FocusFrameStyle(QStyle *base)
    : QProxyStyle(base)
{}

void FocusFrameStyle::install(QStyle *base)
{
    QApplication::setStyle(new FocusFrameStyle(base));
}

QStyle *FocusFrameStyle::baseOf(QStyle *style)
{
    auto *frame = qobject_cast<FocusFrameStyle *>(style);
    return frame ? frame->baseStyle() : style;
}

void FocusFrameStyle::drawPrimitive(PrimitiveElement element, const QStyleOption *option,
                                    QPainter *painter, const QWidget *widget) const
{
    if (element != PE_FrameFocusRect || option == nullptr || painter == nullptr) {
        QProxyStyle::drawPrimitive(element, option, painter, widget);
        return;
    }
    // Inside the rectangle given, so a table cell's frame is not cut by its neighbour.
    const QRectF frame = QRectF(option->rect).adjusted(1, 1, -1, -1);
    if (frame.width() < 2 || frame.height() < 2)
        return;
    QColor colour = option->palette.color(QPalette::Active, QPalette::Highlight);
    // On a selected (highlighted) row the frame takes the text's colour instead.
    if (const auto *focus = qstyleoption_cast<const QStyleOptionFocusRect *>(option);
        focus && focus->backgroundColor == option->palette.color(QPalette::Highlight))
        colour = option->palette.color(QPalette::Active, QPalette::HighlightedText);
    drawFrame(frame, colour, painter);
}

void FocusFrameStyle::drawControl(ControlElement element, const QStyleOption *option,
                                  QPainter *painter, const QWidget *widget) const
{
    QProxyStyle::drawControl(element, option, painter, widget);
    if (element != CE_ShapedFrame || option == nullptr || painter == nullptr
        || qobject_cast<const QAbstractScrollArea *>(widget) == nullptr || !widget->hasFocus())
        return;
    drawFrame(QRectF(option->rect).adjusted(1, 1, -1, -1),
              option->palette.color(QPalette::Active, QPalette::Highlight), painter);
}

int FocusFrameStyle::pixelMetric(PixelMetric metric, const QStyleOption *option,
                                 const QWidget *widget) const
{
    const int base = QProxyStyle::pixelMetric(metric, option, widget);
    // Room outside the viewport for the two-pixel focus frame (Fusion leaves one).
    if (metric == PM_DefaultFrameWidth && qobject_cast<const QAbstractScrollArea *>(widget))
        return std::max(base, 2);
    return base;
}

void FocusFrameStyle::drawFrame(const QRectF &frame, const QColor &colour, QPainter *painter)
{
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing, true);
    painter->setPen(QPen(colour, 2));
    painter->setBrush(Qt::NoBrush);
    painter->drawRoundedRect(frame, 2, 2);
    painter->restore();
}

} // namespace hg
