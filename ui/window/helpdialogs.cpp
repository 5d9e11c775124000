#include "helpdialogs.h"

#include "domain/version.h"

#include <QAction>
#include <QMessageBox>
#include <QSet>

namespace hg {
void HelpDialogs::showShortcuts(QWidget *parent, const QList<QAction *> &actions)
{
    QStringList rows;
    const auto add = [&rows](const QString &what, const QKeySequence &keys) {
        rows << QStringLiteral("<tr><td>%1</td><td><b>%2</b></td></tr>")
                    .arg(what.toHtmlEscaped(),
                         keys.toString(QKeySequence::NativeText).toHtmlEscaped());
    };
    QSet<QString> listed;
    for (QAction *action : actions) {
        const QString text = action->text().remove(QLatin1Char('&'));
        if (!action->shortcut().isEmpty() && !listed.contains(text)) {
            listed.insert(text);
            add(text, action->shortcut());
        }
    }
    add(tr("Apply the task form"), QKeySequence(Qt::Key_Return));
    // The canvas's own keys (no action of the window has them).
    rows << QStringLiteral("<tr><td>%1</td><td><b>%2</b></td></tr>")
                .arg(tr("Canvas: move between tasks"), tr("Arrow keys"));
    add(tr("Canvas: edit the selected task"), QKeySequence(Qt::Key_Return));
    add(tr("Canvas: remove the selected task or dependency"), QKeySequence(Qt::Key_Delete));
    add(tr("Leave a table or a field"), QKeySequence(Qt::Key_Tab));
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
