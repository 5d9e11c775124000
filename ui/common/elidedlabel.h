#pragma once

#include <QLabel>

namespace hg {

// A one-line label that gives up width instead of pushing its neighbours out: its text is
// elided at the right to the width it gets, whole in its tooltip and accessible name. For
// titles that are whatever the user named something (a chain of 80 characters at 1024x640).
class ElidedLabel final : public QLabel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ElidedLabel)

public:
    explicit ElidedLabel(QWidget *parent = nullptr);

    void setFullText(const QString &text);
    const QString &fullText() const { return m_fullText; }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void resizeEvent(QResizeEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    void elide();

    QString m_fullText;
};

} // namespace hg
