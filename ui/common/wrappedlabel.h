#pragma once

#include <QLabel>

namespace hg {

// A word-wrapped label that asks for the height of the lines it wraps to. A splitter (or a
// layout's minimum size) knows nothing of a label's height for its width, so a plain wrapped
// label in a splitter pane was cut after its first lines.
class WrappedLabel final : public QLabel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(WrappedLabel)

public:
    explicit WrappedLabel(QWidget *parent = nullptr);

    // Use instead of setText(), which is not virtual: the height follows the new text.
    void setWrappedText(const QString &text);

protected:
    void resizeEvent(QResizeEvent *event) override;

private:
    void fitHeight();
};

} // namespace hg
