#include "connecttaskdialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace hg {

ConnectTaskDialog::ConnectTaskDialog(const Task &upstream, const QList<Task> &candidates,
                                     QWidget *parent)
    : QDialog(parent)
    , m_downstream(new QComboBox(this))
    , m_condition(new QComboBox(this))
{
    setWindowTitle(tr("Connect “%1”").arg(upstream.name));
    setObjectName(QStringLiteral("connectTaskDialog"));
    m_downstream->setObjectName(QStringLiteral("connect.downstream"));
    m_condition->setObjectName(QStringLiteral("connect.condition"));
    m_downstream->setAccessibleName(tr("Task that runs after it"));
    m_condition->setAccessibleName(tr("Condition"));
    for (const Task &task : candidates) {
        if (task.id != upstream.id)
            m_downstream->addItem(task.name, task.id);
    }
    m_condition->addItem(tr("when it succeeds"), int(DependencyCondition::Success));
    m_condition->addItem(tr("when it ends, however"), int(DependencyCondition::Completion));
    m_condition->addItem(tr("when it fails"), int(DependencyCondition::Failure));

    auto *form = new QFormLayout;
    form->addRow(tr("&Then run:"), m_downstream);
    form->addRow(tr("&Condition:"), m_condition);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("&Connect"));
    buttons->button(QDialogButtonBox::Ok)->setEnabled(m_downstream->count() > 0);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(new QLabel(tr("After “%1”:").arg(upstream.name), this));
    layout->addLayout(form);
    layout->addWidget(buttons);
}

qint64 ConnectTaskDialog::downstreamId() const
{
    return m_downstream->currentData().toLongLong();
}

DependencyCondition ConnectTaskDialog::condition() const
{
    return DependencyCondition(m_condition->currentData().toInt());
}

} // namespace hg
