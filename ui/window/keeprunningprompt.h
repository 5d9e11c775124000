#pragma once

#include <QCoreApplication>

#include <functional>

class QMessageBox;
class QWidget;

namespace hg {

// Closing the window where there is no tray would stop every schedule: this asks whether to
// keep Hourglass running in the background (and how to get the window back) or to quit, with
// "remember my choice". Window-modal, no nested event loop.
class KeepRunningPrompt final
{
    Q_DECLARE_TR_FUNCTIONS(hg::KeepRunningPrompt)

public:
    KeepRunningPrompt() = delete;

    enum class Choice { KeepRunning, Quit };
    // Opens the question; `decided` runs unless the user cancels.
    static QMessageBox *open(QWidget *parent,
                             const std::function<void(Choice choice, bool remember)> &decided);
};

} // namespace hg
