#include "keeprunningprompt.h"

#include "common/questionbox.h"

#include <QCheckBox>
#include <QPushButton>

namespace hg {
QMessageBox *KeepRunningPrompt::open(QWidget *parent,
                                     const std::function<void(Choice, bool)> &decided)
{
    QMessageBox *box = QuestionBox::create(
        parent, QStringLiteral("closePrompt"), tr("Keep Hourglass running?"),
        tr("Your schedules run only while Hourglass runs. Keep it running in the background, "
           "or quit and stop every schedule?"),
        tr("There is no system tray here. To bring this window back, start Hourglass again: "
           "the running one comes forward."));
    QPushButton *keep =
        box->addButton(tr("Keep running in the &background"), QMessageBox::AcceptRole);
    keep->setObjectName(QStringLiteral("keepRunning"));
    QPushButton *quit = box->addButton(tr("&Quit"), QMessageBox::DestructiveRole);
    quit->setObjectName(QStringLiteral("quit"));
    box->addButton(QMessageBox::Cancel);
    box->setDefaultButton(keep);
    box->setEscapeButton(QMessageBox::Cancel);
    auto *remember = new QCheckBox(tr("&Remember my choice"), box);
    remember->setObjectName(QStringLiteral("rememberChoice"));
    box->setCheckBox(remember);
    QObject::connect(box, &QMessageBox::finished, box, [box, keep, quit, remember, decided] {
        if (box->clickedButton() == keep)
            decided(Choice::KeepRunning, remember->isChecked());
        else if (box->clickedButton() == quit)
            decided(Choice::Quit, remember->isChecked());
        // anything else: cancelled, the window stays
    });
    box->open();
    return box;
}

} // namespace hg
