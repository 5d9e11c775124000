#include "focusframestyle.h"

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
    painter->save();
    painter->setRenderHint(QPainter::Antialiasing, true);
    QPen pen(option->palette.color(QPalette::Active, QPalette::Highlight), 2);
    // On a selected (highlighted) row the frame takes the text's colour instead.
    if (const auto *focus = qstyleoption_cast<const QStyleOptionFocusRect *>(option);
        focus && focus->backgroundColor == option->palette.color(QPalette::Highlight))
        pen.setColor(option->palette.color(QPalette::Active, QPalette::HighlightedText));
    painter->setPen(pen);
    painter->setBrush(Qt::NoBrush);
    painter->drawRoundedRect(frame, 2, 2);
    painter->restore();
}

} // namespace hg
