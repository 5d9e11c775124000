#pragma once

#include "base/result.h"
#include "domain/chaintrigger.h"

#include <QDialog>

#include <functional>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QSpinBox;
class QStackedWidget;

namespace hg {

// A new trigger of a chain: after other chains, when files arrive, or on a desktop event,
// with the settings the command line has. OK hands the trigger to `submit` (the editor's
// undoable add); a refusal is shown in the dialog, which stays open with what was typed.
class TriggerDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TriggerDialog)

public:
    // Finds a chain by PROJECT/CHAIN for an "after" trigger's upstreams.
    using ChainLookup = std::function<Result<qint64>(const QString &path)>;
    using Submit = std::function<Status(const ChainTrigger &trigger)>;

    TriggerDialog(qint64 chainId, TriggerKind kind, ChainLookup lookup, Submit submit,
                  QWidget *parent = nullptr);

    void accept() override;

private:
    QWidget *buildAfterPage();
    QWidget *buildFilePage();
    QWidget *buildDesktopPage();
    // The trigger as typed; an error names the field.
    Result<ChainTrigger> trigger() const;

    qint64 m_chainId;
    ChainLookup m_lookup;
    Submit m_submit;
    QComboBox *m_kind;
    QStackedWidget *m_pages;
    QLabel *m_problem;
    QLineEdit *m_upstreams = nullptr;
    QComboBox *m_on = nullptr;
    QSpinBox *m_withinMinutes = nullptr;
    QLineEdit *m_glob = nullptr;
    QList<QCheckBox *> m_events; // created, modified, deleted, moved
    QSpinBox *m_settleMs = nullptr;
    QSpinBox *m_maxPerMinute = nullptr;
    QSpinBox *m_pollSeconds = nullptr;
    QComboBox *m_misfire = nullptr;
    QComboBox *m_desktopEvent = nullptr;
    QSpinBox *m_idleMinutes = nullptr;
};

} // namespace hg
