#pragma once

#include "remote/dolphinschedulerlauncher.h"
#include "remote/dolphinschedulertypes.h"

#include <QDialog>
#include <QTimeZone>

class QCheckBox;
class QComboBox;
class QDateTimeEdit;
class QLabel;
class QLineEdit;
class QListWidget;
class QPlainTextEdit;
class QSpinBox;

namespace hg {

// What DolphinScheduler's own start dialog asks before it starts a workflow definition — the
// failure strategy, the alerts (when, and to which group), the priority, the worker group, the
// environment and tenant, the user it runs as, start parameters, a dry run, the tasks to start
// from and what else runs with them — and,
// to complement (backfill), the range of fire times, in the schedule's zone, and how many run
// at once.
class DolphinSchedulerLaunchDialog final : public QDialog
{
    Q_OBJECT

public:
    // TASKS: the definition's, to start from some of them rather than from the DAG's roots.
    DolphinSchedulerLaunchDialog(const QString &path, bool complement, const QTimeZone &zone,
                                 const QList<DsTask> &tasks, QWidget *parent = nullptr);

    bool isComplement() const { return m_complement; }
    // The options as entered (accept() has checked the parameter lines are NAME=VALUE).
    DolphinSchedulerLauncher::Options options() const;
    QDateTime from() const;
    QDateTime to() const;
    int parallel() const; // 0: one after another

    void accept() override;

private:
    bool parseParameters(QMap<QString, QString> *parameters) const;

    bool m_complement = false;
    QTimeZone m_zone;
    QComboBox *m_failureStrategy = nullptr;
    QComboBox *m_warningType = nullptr;
    QSpinBox *m_warningGroup = nullptr;
    QComboBox *m_priority = nullptr;
    QLineEdit *m_workerGroup = nullptr;
    QLineEdit *m_environment = nullptr;
    QLineEdit *m_tenant = nullptr;
    QLineEdit *m_user = nullptr;
    QPlainTextEdit *m_parameters = nullptr;
    QCheckBox *m_dryRun = nullptr;
    QListWidget *m_startNodes = nullptr;
    QComboBox *m_dependType = nullptr;
    QDateTimeEdit *m_from = nullptr;
    QDateTimeEdit *m_to = nullptr;
    QSpinBox *m_parallel = nullptr;
    QCheckBox *m_dependents = nullptr;
    QCheckBox *m_allLevels = nullptr;
    QLabel *m_problem = nullptr;
};

} // namespace hg
