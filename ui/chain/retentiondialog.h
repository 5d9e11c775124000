#pragma once

#include "domain/chain.h"

#include <QDialog>

class QSpinBox;

namespace hg {

// How long a chain's finished runs are kept: the newest N, those of the last N days, and for
// failed runs limits of their own. 0 means no limit ("all"); the engines remove what is past
// the limits, a run's attempts and log with it.
class RetentionDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RetentionDialog)

public:
    explicit RetentionDialog(const Retention &retention, QWidget *parent = nullptr);

    Retention retention() const;
    // One line for the chain editor: "History: all runs kept", "History: newest 100 runs …".
    static QString summary(const Retention &retention);

private:
    QSpinBox *spinBox(int value, const QString &noLimit, const QString &suffix,
                      const QString &objectName);

    QSpinBox *m_keepRuns;
    QSpinBox *m_keepDays;
    QSpinBox *m_keepFailedRuns;
    QSpinBox *m_keepFailedDays;
};

} // namespace hg
