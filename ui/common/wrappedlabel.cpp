#include "wrappedlabel.h"

namespace hg {

WrappedLabel::WrappedLabel(QWidget *parent)
    : QLabel(parent)
{
    setWordWrap(true);
    // Its width comes from the pane; its height from that width.
    setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
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
    if (width() <= 0)
        return;
    if (const int needed = heightForWidth(width()); needed > 0 && needed != minimumHeight())
        setMinimumHeight(needed);
}

} // namespace hg
