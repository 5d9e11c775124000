#include "wrappedlabel.h"

namespace hg {

WrappedLabel::WrappedLabel(QWidget *parent)
    : QLabel(parent)
{
    setWordWrap(true);
    setTextFormat(Qt::PlainText); // its text holds what users typed (an expression, a name)
    setAlignment(Qt::AlignLeft | Qt::AlignTop);
    // Its width comes from the pane; its height from that width, and no more: room left
    // over goes to the widgets beside it, not to blank lines around the text.
    setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Maximum);
}

void WrappedLabel::setWrappedText(const QString &text)
{
    setText(text);
    fitHeight();
}

void WrappedLabel::resizeEvent(QResizeEvent *event)
{
    QLabel::resizeEvent(event);
    fitHeight();
}

void WrappedLabel::fitHeight()
{
    // Measured here: QLabel::heightForWidth() never answers less than the minimum height
    // set, so a height taken while the pane was still narrow stayed for good.
    const QMargins margins = contentsMargins();
    const int textWidth = width() - margins.left() - margins.right() - 2 * margin();
    if (textWidth <= 0)
        return;
    const int needed = text().isEmpty()
                           ? 0
                           : fontMetrics()
                                     .boundingRect(QRect(0, 0, textWidth, 1 << 20),
                                                   Qt::TextWordWrap | int(alignment()), text())
                                     .height()
                                 + margins.top() + margins.bottom() + 2 * margin();
    if (needed != minimumHeight())
        setMinimumHeight(needed);
}

} // namespace hg
