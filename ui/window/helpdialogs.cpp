#include "helpdialogs.h"

#include "domain/version.h"

#include <QAction>
#include <QDesktopServices>
#include <QDir>
#include <QFileInfo>
#include <QMessageBox>
#include <QSet>
#include <QUrl>

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

void HelpDialogs::showGettingStarted(QWidget *parent)
{
    const QString text =
        tr("<h3>Getting started</h3>"
           "<ol>"
           "<li><b>A project and a chain.</b> File → New project (Ctrl+Shift+N), then New chain "
           "(Ctrl+N): a chain is one job, its tasks run in the order you give them.</li>"
           "<li><b>Tasks.</b> Add task (Ctrl+T), give it a name, a kind (a shell script, a "
           "program, SQL, HTTP, another chain…) and what it runs; Enter applies it.</li>"
           "<li><b>Their order.</b> Drag from one task's right-hand port to another, or select "
           "a task and press Ctrl+K: the second runs when the first succeeds (or ends, or "
           "fails).</li>"
           "<li><b>When.</b> Add schedule (Ctrl+Shift+S): a cron expression such as "
           "<tt>30 6 * * 1-5</tt>, its time zone, and what to do with fire times missed while "
           "the computer was off.</li>"
           "<li><b>Run it now</b> with Ctrl+R, and follow it in Runs (Ctrl+3): each attempt, its "
           "live output, and why it failed.</li>"
           "</ol>"
           "<p>The example project shows a finished chain. On a server, <tt>hourglass serve</tt> "
           "runs the same schedules without a window; <tt>man hourglass</tt> and "
           "<tt>hourglass --help</tt> list every command. Help → Keyboard shortcuts lists every "
           "key.</p>");
    auto *box = new QMessageBox(QMessageBox::Information, tr("Getting started"), text,
                                QMessageBox::Close, parent);
    box->setObjectName(QStringLiteral("gettingStarted"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

QString HelpDialogs::manualPath()
{
    const QString here = QCoreApplication::applicationDirPath();
    QStringList candidates{here + QLatin1String("/../share/doc/hourglass/README.md"),
                           QStringLiteral("/usr/share/doc/hourglass/README.md")};
    // A build run in place (build/app/hourglass): the source tree's, a few folders up.
    QDir up(here);
    for (int level = 0; level < 4 && up.cdUp(); ++level) {
        if (up.exists(QStringLiteral("CMakeLists.txt")))
            candidates << up.filePath(QStringLiteral("README.md"));
    }
    for (const QString &candidate : std::as_const(candidates)) {
        if (QFileInfo(candidate).isFile())
            return QFileInfo(candidate).canonicalFilePath();
    }
    return {};
}

void HelpDialogs::showManual(QWidget *parent)
{
    const QString path = manualPath();
    if (!path.isEmpty() && QDesktopServices::openUrl(QUrl::fromLocalFile(path)))
        return;
    const QString text =
        path.isEmpty()
            ? tr("The manual is not installed here. <tt>man hourglass</tt> describes the command "
                 "line; Help → Getting started the window.")
            : tr("No program here opens the manual. It is the file<br><tt>%1</tt><br>(Markdown: "
                 "any text editor reads it); <tt>man hourglass</tt> describes the command line.")
                  .arg(path.toHtmlEscaped());
    auto *box =
        new QMessageBox(QMessageBox::Information, tr("Manual"), text, QMessageBox::Close, parent);
    box->setObjectName(QStringLiteral("manual"));
    box->setTextInteractionFlags(Qt::TextSelectableByMouse);
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
