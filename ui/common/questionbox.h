#pragma once

#include <QMessageBox>

namespace hg {

// A question asked without a nested event loop: window-modal, deleted once answered, named so
// tests find it. The caller connects QMessageBox::finished (after adding any buttons) and
// calls open().
class QuestionBox final
{
public:
    QuestionBox() = delete;

    static QMessageBox *create(QWidget *parent, const QString &objectName, const QString &title,
                               const QString &text, const QString &details,
                               QMessageBox::StandardButtons buttons = QMessageBox::NoButton);
};

} // namespace hg
