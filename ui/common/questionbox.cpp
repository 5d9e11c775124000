#include "questionbox.h"

namespace hg {

QMessageBox *QuestionBox::create(QWidget *parent, const QString &objectName, const QString &title,
                                 const QString &text, const QString &details,
                                 QMessageBox::StandardButtons buttons)
{
    auto *box = new QMessageBox(QMessageBox::Question, title, text, buttons, parent);
    box->setObjectName(objectName);
    box->setInformativeText(details);
    box->setWindowModality(Qt::WindowModal);
    box->setAttribute(Qt::WA_DeleteOnClose);
    return box;
}

} // namespace hg
