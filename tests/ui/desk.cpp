#include "desk.h"

#include <QApplication>
#include <QLineEdit>
#include <QPushButton>
#include <QTest>

namespace hg::test {

void answer(QWidget *window, const QString &name, QMessageBox::StandardButton button)
{
    QMessageBox *box = nullptr;
    QTRY_VERIFY((box = window->findChild<QMessageBox *>(name)) != nullptr && box->isVisible());
    QVERIFY(box->button(button));
    QTest::mouseClick(box->button(button), Qt::LeftButton);
    QTRY_VERIFY(window->findChild<QMessageBox *>(name) == nullptr);
}

void clickButtonNamed(QWidget *window, const QString &box, const QString &button)
{
    QMessageBox *prompt = nullptr;
    QTRY_VERIFY((prompt = window->findChild<QMessageBox *>(box)) != nullptr && prompt->isVisible());
    auto *target = prompt->findChild<QPushButton *>(button);
    QVERIFY(target);
    QTest::mouseClick(target, Qt::LeftButton);
    QTRY_VERIFY(window->findChild<QMessageBox *>(box) == nullptr);
}

QLineEdit *nameField(TaskForm *form)
{
    return form->findChild<QLineEdit *>(QStringLiteral("task.name"));
}

void press(QWidget *window, Qt::Key key, Qt::KeyboardModifiers modifiers)
{
    QTest::qWait(30);
    QWidget *focus = QApplication::focusWidget();
    QTest::keyClick(focus ? focus : window, key, modifiers);
}

void type(QWidget *window, const QString &text)
{
    QTest::qWait(30);
    QWidget *focus = QApplication::focusWidget();
    QTest::keyClicks(focus ? focus : window, text);
}

} // namespace hg::test
