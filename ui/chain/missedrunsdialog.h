#pragma once

#include "domain/chain.h"
#include "scheduler/missedrunsinbox.h"

#include <QDialog>

class QCheckBox;
class QLabel;
class QPushButton;
class QRadioButton;
class QSpinBox;

namespace hg {

class Store;

// The missed-runs inbox of one chain (misfire policy ask): what was missed, when and why, and
// the user's choice — run them all (oldest first, one after another or N at once), run the
// latest only, or dismiss them — optionally kept as the schedules' misfire policy. The same
// decision as `hourglass missed run|dismiss`, through MissedRunsInbox.
class MissedRunsDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(MissedRunsDialog)

public:
    MissedRunsDialog(Store &store, const Chain &chain, const MissedRunsInbox::Waiting &waiting,
                     QWidget *parent = nullptr);

    void choose(MissedRunsInbox::Choice choice);
    void setParallel(int parallel);
    void setKeep(bool keep);
    QPushButton *decideButton() const { return m_decide; }
    QString summary() const;
    // After accept(): what was decided.
    const MissedRunsInbox::Decided &decided() const { return m_decided; }

private:
    MissedRunsInbox::Choice choice() const;
    void refresh();
    void decide();

    Store &m_store;
    Chain m_chain;
    QLabel *m_summary = nullptr;
    QRadioButton *m_runAll = nullptr;
    QRadioButton *m_runLatest = nullptr;
    QRadioButton *m_dismiss = nullptr;
    QSpinBox *m_parallel = nullptr;
    QCheckBox *m_keep = nullptr;
    QLabel *m_error = nullptr;
    QPushButton *m_decide = nullptr;
    MissedRunsInbox::Decided m_decided;
};

} // namespace hg
