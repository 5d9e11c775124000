#pragma once

#include <QProxyStyle>

namespace hg {

// The desktop's style (or Fusion), with the keyboard focus drawn as a solid two-pixel frame
// in the highlight colour. Fusion's own focus frame is a faint line the colour of the
// selection: on a check box, a tab, a table cell or a tree row a keyboard user could not
// tell where Tab had gone (issue 34).
class FocusFrameStyle final : public QProxyStyle
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(FocusFrameStyle)

public:
    // Takes `base` (nullptr: the application's style now).
    explicit FocusFrameStyle(QStyle *base = nullptr);

    // Sets the application's style to `base` wrapped in a FocusFrameStyle.
    static void install(QStyle *base);
    // The style below the focus frames: what the desktop or the colour scheme chose.
    static QStyle *baseOf(QStyle *style);

    void drawPrimitive(PrimitiveElement element, const QStyleOption *option, QPainter *painter,
                       const QWidget *widget = nullptr) const override;
    // A framed view or editor with the focus (the canvas, a list, a table, a script) has its
    // frame drawn the same way: no style draws a focus frame around those.
    void drawControl(ControlElement element, const QStyleOption *option, QPainter *painter,
                     const QWidget *widget = nullptr) const override;
    int pixelMetric(PixelMetric metric, const QStyleOption *option = nullptr,
                    const QWidget *widget = nullptr) const override;

private:
    static void drawFrame(const QRectF &frame, const QColor &colour, QPainter *painter);
};

} // namespace hg
