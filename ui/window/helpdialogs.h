#pragma once

#include <QCoreApplication>
#include <QList>

class QAction;
class QString;
class QWidget;

namespace hg {

// Help menu contents: getting started, the keyboard shortcuts (read from the actions
// themselves, so the list never drifts from what the keys do), the manual and About.
class HelpDialogs final
{
    Q_DECLARE_TR_FUNCTIONS(hg::HelpDialogs)

public:
    HelpDialogs() = delete;

    static void showShortcuts(QWidget *parent, const QList<QAction *> &actions);
    static void showAbout(QWidget *parent, const QString &storeName);
    // The first steps, in the window itself (no network, no browser): a chain, its tasks and
    // their order, a schedule, a run and its log; the command line and its manual page.
    static void showGettingStarted(QWidget *parent);
    // The manual (README.md, installed beside the package's other documentation), opened in
    // the desktop's viewer; where none opens it, a box says where it is.
    static void showManual(QWidget *parent);
    // The installed manual, or the source tree's for a build run in place; empty if none.
    static QString manualPath();
};

} // namespace hg
