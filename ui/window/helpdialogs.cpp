#include "helpdialogs.h"

#include "domain/version.h"

#include <QAction>
#include <QMessageBox>

namespace hg {
void HelpDialogs::showShortcuts(QWidget *parent, const QList<QAction *> &actions)
{
    QStringList rows;
    const auto add = [&rows](const QString &what, const QKeySequence &keys) {
        rows << QStringLiteral("<tr><td>%1</td><td><b>%2</b></td></tr>")
                    .arg(what.toHtmlEscaped(),
                         keys.toString(QKeySequence::NativeText).toHtmlEscaped());
    };
    for (QAction *action : actions) {
        if (!action->shortcut().isEmpty())
            add(action->text().remove(QLatin1Char('&')), action->shortcut());
    }
    add(tr("Apply the task form"), QKeySequence(Qt::Key_Return));
    add(tr("Undo"), QKeySequence::Undo);
    add(tr("Redo"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z));
    auto *box =
        new QMessageBox(QMessageBox::NoIcon, tr("Keyboard shortcuts"),
                        QStringLiteral("<table cellspacing=6>%1</table>").arg(rows.join(QString())),
                        QMessageBox::Close, parent);
    box->setObjectName(QStringLiteral("shortcuts"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

void HelpDialogs::showAbout(QWidget *parent, const QString &storeName)
{
    QMessageBox::about(parent, tr("About Hourglass"),
                       tr("<h3>Hourglass %1</h3><p>A desktop job scheduler: chains of tasks, "
                          "second-precise cron, live logs.</p><p>Store: %2</p>")
                           .arg(versionString(), storeName.toHtmlEscaped()));
}

} // namespace hg
