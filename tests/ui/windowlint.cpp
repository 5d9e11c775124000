#include "windowlint.h"

#include "common/elidedlabel.h"
#include "definitioneditor.h"
#include "desk.h"
#include "fixtures.h"
#include "runs/runsview.h"
#include "store/runrepository.h"
#include "window/mainwindow.h"

#include <QAbstractButton>
#include <QAbstractScrollArea>
#include <QApplication>
#include <QComboBox>
#include <QCoreApplication>
#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QMenuBar>
#include <QMultiHash>
#include <QTableView>
#include <QTabWidget>
#include <QTest>

namespace hg::test {
namespace {

// The letter Alt reaches in a text ("Fo&llow": l), or none ("&&" is an ampersand).
QChar mnemonicOf(const QString &text)
{
    for (qsizetype i = 0; i + 1 < text.size(); ++i) {
        if (text.at(i) != QLatin1Char('&'))
            continue;
        if (text.at(i + 1) != QLatin1Char('&'))
            return text.at(i + 1).toLower();
        ++i;
    }
    return {};
}

QString nameOf(const QWidget *widget)
{
    QString name = widget->objectName();
    if (name.isEmpty())
        name = widget->accessibleName();
    return QStringLiteral("%1 '%2'").arg(QString::fromLatin1(widget->metaObject()->className()),
                                         name);
}

// Shown in the window, not in a scroll area's hidden part or a collapsed splitter pane.
bool shown(const QWidget *widget, const QWidget *window)
{
    return widget->isVisibleTo(window) && !widget->visibleRegion().isEmpty();
}

} // namespace

QStringList altKeyClashes(MainWindow &window)
{
    QStringList clashes;
    for (int tab = 0; tab < window.tabs()->count(); ++tab) {
        window.tabs()->setCurrentIndex(tab);
        QCoreApplication::processEvents();
        QMultiHash<QChar, QString> owners;
        const auto claim = [&owners](const QString &text, const QString &what) {
            if (const QChar letter = mnemonicOf(text); !letter.isNull())
                owners.insert(letter, what + QLatin1String(" '") + text + QLatin1Char('\''));
        };
        for (QAction *menu : window.menuBar()->actions())
            claim(menu->text(), QStringLiteral("menu"));
        for (int i = 0; i < window.tabs()->count(); ++i)
            claim(window.tabs()->tabText(i), QStringLiteral("tab"));
        for (QAbstractButton *button : window.findChildren<QAbstractButton *>()) {
            if (button->isVisibleTo(&window))
                claim(button->text(), QStringLiteral("button"));
        }
        for (QLabel *label : window.findChildren<QLabel *>()) {
            if (label->buddy() && label->isVisibleTo(&window))
                claim(label->text(), QStringLiteral("label"));
        }
        for (QGroupBox *box : window.findChildren<QGroupBox *>()) {
            if (box->isCheckable() && box->isVisibleTo(&window))
                claim(box->title(), QStringLiteral("box"));
        }
        for (const QChar letter : owners.uniqueKeys()) {
            if (owners.count(letter) > 1)
                clashes << QStringLiteral("tab %1, Alt+%2: %3")
                               .arg(window.tabs()->tabText(tab))
                               .arg(letter.toUpper())
                               .arg(owners.values(letter).join(QLatin1String(", ")));
        }
    }
    return clashes;
}

QStringList deadLabelMnemonics(MainWindow &window)
{
    QStringList dead;
    for (int tab = 0; tab < window.tabs()->count(); ++tab) {
        window.tabs()->setCurrentIndex(tab);
        QCoreApplication::processEvents();
        for (QLabel *label : window.findChildren<QLabel *>()) {
            const QChar letter = mnemonicOf(label->text());
            if (letter.isNull() || !label->buddy() || !label->isVisibleTo(&window)
                || !label->buddy()->isEnabled())
                continue;
            window.tabs()->setFocus();
            QCoreApplication::processEvents();
            // Qt's key codes are the upper-case letter's code point in Latin-1 (Ä is
            // Key_Adiaeresis).
            QTest::keyClick(&window, Qt::Key(letter.toUpper().unicode()), Qt::AltModifier);
            QCoreApplication::processEvents();
            QWidget *focus = QApplication::focusWidget();
            QWidget *buddy = label->buddy();
            if (focus != buddy && focus != buddy->focusProxy() && !buddy->isAncestorOf(focus))
                dead << QStringLiteral("tab %1: Alt+%2 ('%3') reached %4, not %5")
                            .arg(window.tabs()->tabText(tab))
                            .arg(letter.toUpper())
                            .arg(label->text())
                            .arg(focus ? nameOf(focus) : QStringLiteral("nothing"))
                            .arg(nameOf(buddy));
        }
    }
    return dead;
}

QStringList cutWidgets(MainWindow &window)
{
    QStringList cut;
    const auto narrower = [&cut](const QWidget *widget, const QString &text) {
        if (widget->width() < widget->sizeHint().width())
            cut << QStringLiteral("%1 (%2): %3 px of the %4 its text needs")
                       .arg(nameOf(widget), text)
                       .arg(widget->width())
                       .arg(widget->sizeHint().width());
    };
    for (QAbstractButton *button : window.findChildren<QAbstractButton *>()) {
        if (shown(button, &window) && !button->text().isEmpty())
            narrower(button, button->text());
    }
    for (QComboBox *box : window.findChildren<QComboBox *>()) {
        if (shown(box, &window) && box->sizeAdjustPolicy() == QComboBox::AdjustToContents)
            narrower(box, box->currentText());
    }
    for (QLabel *label : window.findChildren<QLabel *>()) {
        if (!shown(label, &window) || label->text().isEmpty() || label->pixmap().isNull() == false)
            continue;
        if (label->wordWrap()) {
            if (label->height() < label->heightForWidth(label->width()))
                cut << QStringLiteral("%1: %2 px high, its lines need %3")
                           .arg(nameOf(label))
                           .arg(label->height())
                           .arg(label->heightForWidth(label->width()));
        } else if (!qobject_cast<ElidedLabel *>(label)
                   && label->sizePolicy().horizontalPolicy() != QSizePolicy::Ignored) {
            narrower(label, label->text());
        }
    }
    for (QTableView *table : window.findChildren<QTableView *>()) {
        if (!shown(table, &window) || table->model() == nullptr
            || table->model()->columnCount() == 0)
            continue;
        const QHeaderView *header = table->horizontalHeader();
        if (header->length() <= table->viewport()->width())
            continue;
        QStringList widths;
        for (int column = 0; column < header->count(); ++column) {
            if (!header->isSectionHidden(column))
                widths << QStringLiteral("%1 %2")
                              .arg(table->model()->headerData(column, Qt::Horizontal).toString())
                              .arg(header->sectionSize(column));
        }
        cut << QStringLiteral("%1: its columns take %2 px of a %3 px view (%4)")
                   .arg(nameOf(table))
                   .arg(header->length())
                   .arg(table->viewport()->width())
                   .arg(widths.join(QLatin1String(", ")));
    }
    return cut;
}

QStringList cutAt1024x640(TestStore &t)
{
    Desk desk(t, {QStringLiteral("extract-and-verify-the-nightly-dump")});
    Chain chain = desk.chain;
    chain.name = QStringLiteral("nightly-database-backup-to-the-offsite-store-and-verify");
    if (!desk.window->definitionEditor()->updateChain(chain))
        return {QStringLiteral("the chain could not be renamed")};
    Schedule schedule;
    schedule.chainId = chain.id;
    schedule.expression = QStringLiteral("0 9-17 * * MON-FRI");
    schedule.timeZone = QStringLiteral("Europe/Berlin");
    if (!desk.window->definitionEditor()->addSchedule(schedule))
        return {QStringLiteral("the schedule could not be added")};
    RunRepository runs(t.store());
    const QDateTime start = QDateTime::currentDateTimeUtc().addSecs(-3600);
    for (int n = 0; n < 3; ++n) {
        const Run run = queueRun(t.store(), chain.id);
        (void)runs.setState(run.id, RunState::Running, start.addSecs(n * 60));
        (void)runs.setState(run.id, RunState::Failed, start.addSecs(n * 60 + 754));
    }
    desk.window->resize(1024, 640);
    if (!QTest::qWaitForWindowExposed(desk.window.get()))
        return {QStringLiteral("the window was not shown")};
    desk.window->selectChain(chain.id);
    QStringList cut;
    for (QWidget *tab :
         std::initializer_list<QWidget *>{desk.editor(), desk.window->findChild<RunsView *>()}) {
        if (tab == nullptr)
            return {QStringLiteral("a tab is missing")};
        desk.window->tabs()->setCurrentWidget(tab);
        // Layouts settle over a few turns of the event loop (a relayout asks for another).
        for (int turn = 0; turn < 5; ++turn)
            QCoreApplication::processEvents();
        for (const QString &problem : cutWidgets(*desk.window))
            cut << desk.window->tabs()->tabText(desk.window->tabs()->currentIndex())
                       + QLatin1String(" tab: ") + problem;
    }
    return cut;
}

} // namespace hg::test
