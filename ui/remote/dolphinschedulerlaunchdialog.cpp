#include "dolphinschedulerlaunchdialog.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDateTimeEdit>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QVBoxLayout>

#include <limits>

namespace hg {

DolphinSchedulerLaunchDialog::DolphinSchedulerLaunchDialog(const QString &path, bool complement,
                                                           const QTimeZone &zone,
                                                           const QList<DsTask> &tasks,
                                                           QWidget *parent)
    : QDialog(parent)
    , m_complement(complement)
    , m_zone(zone)
{
    setWindowTitle(complement ? tr("Complement %1").arg(path) : tr("Start %1").arg(path));
    auto *layout = new QVBoxLayout(this);
    auto *intro = new QLabel(complement ? tr("DolphinScheduler's master runs the workflow once "
                                             "for each fire time of its online schedules in the "
                                             "range (each midnight when it has none).")
                                        : tr("DolphinScheduler's master starts the workflow "
                                             "once, now."),
                             this);
    intro->setWordWrap(true);
    layout->addWidget(intro);
    auto *form = new QFormLayout;
    if (complement) {
        // The edits hold wall-clock times, read in the schedule's zone (Qt 6.4's QDateTimeEdit
        // has no time zone of its own): the past week by default.
        const QDate today = QDateTime::currentDateTime().toTimeZone(m_zone).date();
        m_from = new QDateTimeEdit(QDateTime(today.addDays(-7), QTime(0, 0)), this);
        m_to = new QDateTimeEdit(QDateTime(today.addDays(-1), QTime(0, 0)), this);
        for (QDateTimeEdit *edit : {m_from, m_to}) {
            edit->setDisplayFormat(QStringLiteral("yyyy-MM-dd HH:mm"));
            edit->setCalendarPopup(true);
        }
        form->addRow(tr("&From (%1):").arg(QString::fromUtf8(m_zone.id())), m_from);
        form->addRow(tr("&To:"), m_to);
        m_parallel = new QSpinBox(this);
        m_parallel->setRange(0, 100);
        m_parallel->setSpecialValueText(tr("one after another"));
        form->addRow(tr("&Runs at once:"), m_parallel);
        m_dependents = new QCheckBox(tr("Complement the workflows &waiting on it too"), this);
        m_dependents->setToolTip(tr("Online workflows with a DEPENDENT task on this one, by the "
                                    "cycle of its schedule (DolphinScheduler 3.1 and 3.2)"));
        m_allLevels = new QCheckBox(tr("And those waiting on them, at every &level"), this);
        m_allLevels->setEnabled(false);
        connect(m_dependents, &QCheckBox::toggled, m_allLevels, &QCheckBox::setEnabled);
        form->addRow(QString(), m_dependents);
        form->addRow(QString(), m_allLevels);
    }
    m_failureStrategy = new QComboBox(this);
    m_failureStrategy->addItem(tr("Continue with the other tasks"), 1);
    m_failureStrategy->addItem(tr("End the run"), 0);
    form->addRow(tr("When a task &fails:"), m_failureStrategy);
    // DolphinScheduler's WarningType and Priority, by code, at its API's defaults.
    m_warningType = new QComboBox(this);
    m_warningType->addItem(tr("Never"), 0);
    m_warningType->addItem(tr("When it succeeds"), 1);
    m_warningType->addItem(tr("When it fails"), 2);
    m_warningType->addItem(tr("When it ends"), 3);
    form->addRow(tr("Al&ert:"), m_warningType);
    m_warningGroup = new QSpinBox(this);
    m_warningGroup->setRange(0, std::numeric_limits<int>::max());
    m_warningGroup->setSpecialValueText(tr("none"));
    m_warningGroup->setToolTip(tr("The id of the DolphinScheduler alert group to alert"));
    form->addRow(tr("Alert &group:"), m_warningGroup);
    m_priority = new QComboBox(this);
    m_priority->addItem(tr("Highest"), 0);
    m_priority->addItem(tr("High"), 1);
    m_priority->addItem(tr("Medium"), 2);
    m_priority->addItem(tr("Low"), 3);
    m_priority->addItem(tr("Lowest"), 4);
    m_priority->setCurrentIndex(2);
    form->addRow(tr("Pri&ority:"), m_priority);
    m_workerGroup = new QLineEdit(QStringLiteral("default"), this);
    form->addRow(tr("&Worker group:"), m_workerGroup);
    m_environment = new QLineEdit(this);
    m_environment->setPlaceholderText(tr("none"));
    m_environment->setToolTip(tr("The code of a DolphinScheduler environment"));
    form->addRow(tr("En&vironment:"), m_environment);
    m_tenant = new QLineEdit(QStringLiteral("default"), this);
    m_tenant->setToolTip(tr("The tenant the tasks run as (DolphinScheduler 3.2 and later; 2.0 "
                            "takes the workflow's)"));
    form->addRow(tr("Te&nant:"), m_tenant);
    m_user = new QLineEdit(QStringLiteral("admin"), this);
    m_user->setToolTip(tr("The DolphinScheduler user the run is started as"));
    form->addRow(tr("Run &as user:"), m_user);
    m_parameters = new QPlainTextEdit(this);
    m_parameters->setPlaceholderText(tr("One NAME=VALUE per line"));
    m_parameters->setTabChangesFocus(true);
    m_parameters->setFixedHeight(m_parameters->fontMetrics().lineSpacing() * 4 + 12);
    form->addRow(tr("Start &parameters:"), m_parameters);
    m_dryRun = new QCheckBox(tr("&Dry run: the master goes through the DAG without running "
                                "the tasks"),
                             this);
    form->addRow(QString(), m_dryRun);
    m_startNodes = new QListWidget(this);
    m_startNodes->setAccessibleName(tr("Start from tasks"));
    m_startNodes->setToolTip(tr("None ticked: the whole DAG, from its first tasks"));
    for (const DsTask &task : tasks) {
        auto *item = new QListWidgetItem(tr("%1 (%2)").arg(task.name, task.type), m_startNodes);
        item->setData(Qt::UserRole, task.code);
        item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
        item->setCheckState(Qt::Unchecked);
    }
    m_startNodes->setFixedHeight(
        m_startNodes->sizeHintForRow(0) * int(std::min<qsizetype>(tasks.size(), 5) + 1) + 4);
    form->addRow(tr("Start from &tasks:"), m_startNodes);
    m_dependType = new QComboBox(this);
    m_dependType->addItem(tr("Them and the tasks after them"), 2);
    m_dependType->addItem(tr("Them and the tasks they need first"), 1);
    m_dependType->addItem(tr("Only them"), 0);
    m_dependType->setToolTip(tr("DolphinScheduler's node execution: backward, forward or only "
                                "the chosen tasks"));
    form->addRow(tr("R&un:"), m_dependType);
    layout->addLayout(form);
    m_problem = new QLabel(this);
    m_problem->setWordWrap(true);
    m_problem->hide();
    layout->addWidget(m_problem);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(complement ? tr("&Complement") : tr("&Start"));
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    layout->addWidget(buttons);
}

bool DolphinSchedulerLaunchDialog::parseParameters(QMap<QString, QString> *parameters) const
{
    const QStringList lines = m_parameters->toPlainText().split(QLatin1Char('\n'));
    for (const QString &line : lines) {
        if (line.trimmed().isEmpty())
            continue;
        const qsizetype equals = line.indexOf(QLatin1Char('='));
        if (equals <= 0)
            return false;
        if (parameters)
            parameters->insert(line.left(equals).trimmed(), line.mid(equals + 1));
    }
    return true;
}

void DolphinSchedulerLaunchDialog::accept()
{
    QString problem;
    if (!parseParameters(nullptr))
        problem = tr("Each start parameter is a line NAME=VALUE.");
    else if (m_complement && from() > to())
        problem = tr("The range ends before it begins.");
    else if (m_user->text().trimmed().isEmpty())
        problem = tr("Name the DolphinScheduler user the run starts as.");
    else if (bool numeric = false;
             !m_environment->text().trimmed().isEmpty()
             && (m_environment->text().trimmed().toLongLong(&numeric), !numeric))
        problem = tr("The environment is a DolphinScheduler environment's code, a number.");
    m_problem->setText(problem);
    m_problem->setVisible(!problem.isEmpty());
    if (problem.isEmpty())
        QDialog::accept();
}

DolphinSchedulerLauncher::Options DolphinSchedulerLaunchDialog::options() const
{
    DolphinSchedulerLauncher::Options options;
    options.userName = m_user->text().trimmed();
    options.failureStrategy = m_failureStrategy->currentData().toInt();
    options.workerGroup = m_workerGroup->text().trimmed().isEmpty()
                              ? QStringLiteral("default")
                              : m_workerGroup->text().trimmed();
    options.warningType = m_warningType->currentData().toInt();
    if (m_warningGroup->value() > 0)
        options.warningGroupId = m_warningGroup->value();
    options.priority = m_priority->currentData().toInt();
    if (!m_environment->text().trimmed().isEmpty())
        options.environmentCode = m_environment->text().trimmed().toLongLong();
    if (!m_tenant->text().trimmed().isEmpty())
        options.tenantCode = m_tenant->text().trimmed();
    parseParameters(&options.parameters);
    options.dryRun = m_dryRun->isChecked();
    for (int row = 0; row < m_startNodes->count(); ++row) {
        const QListWidgetItem *item = m_startNodes->item(row);
        if (item->checkState() == Qt::Checked)
            options.startNodes << item->data(Qt::UserRole).toLongLong();
    }
    options.taskDependType = m_dependType->currentData().toInt();
    options.complementDependents = m_dependents && m_dependents->isChecked();
    options.allLevels = options.complementDependents && m_allLevels->isChecked();
    return options;
}

QDateTime DolphinSchedulerLaunchDialog::from() const
{
    return m_from ? QDateTime(m_from->date(), m_from->time(), m_zone) : QDateTime();
}

QDateTime DolphinSchedulerLaunchDialog::to() const
{
    return m_to ? QDateTime(m_to->date(), m_to->time(), m_zone) : QDateTime();
}

int DolphinSchedulerLaunchDialog::parallel() const
{
    return m_parallel ? m_parallel->value() : 0;
}

} // namespace hg
