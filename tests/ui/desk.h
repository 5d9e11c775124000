#pragma once

#include "chain/chaineditor.h"
#include "dag/dagscene.h"
#include "domain/chain.h"
#include "fixtures.h"
#include "taskform/taskform.h"
#include "teststore.h"
#include "window/mainwindow.h"

#include <QMessageBox>
#include <QTest>

#include <memory>

class QLineEdit;

namespace hg {
class EngineHost;
}

namespace hg::test {

// Clicks `button` of the message box named `name` once it shows, and waits until it is gone.
void answer(QWidget *window, const QString &name, QMessageBox::StandardButton button);
// Clicks the button named `button` of the message box named `box` once it shows.
void clickButtonNamed(QWidget *window, const QString &box, const QString &button);
QLineEdit *nameField(TaskForm *form);
// Keys go where the focus is, as on a desktop, and with a person's pause before each: what
// the last one set off (a canvas redraw on a zero timer) has happened.
void press(QWidget *window, Qt::Key key, Qt::KeyboardModifiers modifiers = Qt::NoModifier);
void type(QWidget *window, const QString &text);

// A window at the size the issue was found at, on a chain with the given shell tasks.
struct Desk
{
    explicit Desk(test::TestStore &t, const QStringList &tasks = {QStringLiteral("first")},
                  EngineHost *engine = nullptr)
        : chain(test::makeChain(t.store(), QStringLiteral("ops"), QStringLiteral("nightly")))
    {
        for (const QString &name : tasks)
            taskIds << test::addTask(t.store(), chain.id, name, TaskKind::Shell,
                                     QStringLiteral("echo ") + name)
                           .id;
        window = std::make_unique<MainWindow>(t.store(), engine);
        window->resize(1280, 800);
        window->show();
        window->selectChain(chain.id);
        opened();
    }

    // The chain editor has what it reads on the reader's thread (after selecting a chain).
    void opened() const
    {
        (void)QTest::qWaitFor([this] { return !window->chainEditor()->isOpening(); }, 10000);
    }

    ChainEditor *editor() const { return window->chainEditor(); }
    TaskForm *form() const { return window->chainEditor()->taskForm(); }
    void selectTask(qint64 id) const { editor()->scene()->selectTask(id); }

    Chain chain;
    QList<qint64> taskIds;
    std::unique_ptr<MainWindow> window;
};

} // namespace hg::test
