#include "tableavesfield.h"

#include <QKeyEvent>
#include <QPlainTextEdit>

namespace hg {

TabLeavesField::TabLeavesField(QPlainTextEdit *field)
    : QObject(field)
{
    field->setTabChangesFocus(true);
    field->installEventFilter(this);
}

void TabLeavesField::install(QPlainTextEdit *field)
{
    new TabLeavesField(field);
}

bool TabLeavesField::eventFilter(QObject *watched, QEvent *event)
{
    if (event->type() == QEvent::KeyPress) {
        const auto *key = static_cast<QKeyEvent *>(event);
        if (key->key() == Qt::Key_Tab && key->modifiers() == Qt::ControlModifier) {
            static_cast<QPlainTextEdit *>(watched)->insertPlainText(QStringLiteral("\t"));
            return true;
        }
    }
    return QObject::eventFilter(watched, event);
}

} // namespace hg
