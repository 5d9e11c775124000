#pragma once

#include <QCoreApplication>
#include <QList>

class QAction;
class QString;
class QWidget;

namespace hg {

// Help menu contents: the keyboard shortcuts (read from the actions themselves, so the list
// never drifts from what the keys do) and About.
class HelpDialogs final
{
    Q_DECLARE_TR_FUNCTIONS(hg::HelpDialogs)

public:
    HelpDialogs() = delete;

    static void showShortcuts(QWidget *parent, const QList<QAction *> &actions);
    static void showAbout(QWidget *parent, const QString &storeName);
};

} // namespace hg
