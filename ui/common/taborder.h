#pragma once

#include <QWidget>

namespace hg {

// Sets the Tab order part by part: every focusable widget in parts[0] (in the order they
// have now), then those in parts[1], and so on. QWidget::setTabOrder() on containers moves
// only the container's own place in the focus chain, not its children's, which keep the
// order they were created in.
inline void setTabOrderOf(const QList<QWidget *> &parts)
{
    QList<QWidget *> ordered;
    for (QWidget *part : parts) {
        if (part == nullptr)
            continue;
        QWidget *start = part->window();
        QWidget *widget = start;
        do {
            if ((widget == part || part->isAncestorOf(widget))
                && (widget->focusPolicy() & Qt::TabFocus) && !ordered.contains(widget))
                ordered << widget;
            widget = widget->nextInFocusChain();
        } while (widget != nullptr && widget != start);
    }
    for (qsizetype n = 1; n < ordered.size(); ++n)
        QWidget::setTabOrder(ordered.at(n - 1), ordered.at(n));
}

} // namespace hg
