#include "connecttaskdialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QPushButton>
#include <QSet>
#include <QStandardItemModel>
#include <QVBoxLayout>

namespace hg {

ConnectTaskDialog::ConnectTaskDialog(const Task &upstream, const QList<Task> &candidates,
                                     const QList<Dependency> &edges, QWidget *parent)
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
    // What `upstream` waits for, at any depth: connecting it to one of them closes a loop.
    QSet<qint64> before{upstream.id};
    for (bool grew = true; grew;) {
        grew = false;
        for (const Dependency &edge : edges) {
            if (before.contains(edge.taskId) && !before.contains(edge.upstreamId)) {
                before.insert(edge.upstreamId);
                grew = true;
            }
        }
    }
    QSet<qint64> after;
    for (const Dependency &edge : edges) {
        if (edge.upstreamId == upstream.id)
            after.insert(edge.taskId);
    }
    auto *items = qobject_cast<QStandardItemModel *>(m_downstream->model());
    int first = -1;
    for (const Task &task : candidates) {
        if (task.id == upstream.id)
            continue;
        const bool loop = before.contains(task.id);
        const bool already = after.contains(task.id);
        m_downstream->addItem(loop      ? tr("%1 (it runs before: a loop)").arg(task.name)
                              : already ? tr("%1 (already after it)").arg(task.name)
                                        : task.name,
                              task.id);
        const int index = m_downstream->count() - 1;
        if (loop || already)
            items->item(index)->setEnabled(false);
        else if (first < 0)
            first = index;
    }
    m_downstream->setCurrentIndex(first);
    m_condition->addItem(tr("when it succeeds"), int(DependencyCondition::Success));
    m_condition->addItem(tr("when it ends, however"), int(DependencyCondition::Completion));
    m_condition->addItem(tr("when it fails"), int(DependencyCondition::Failure));

    auto *form = new QFormLayout;
    form->addRow(tr("&Then run:"), m_downstream);
    form->addRow(tr("&Condition:"), m_condition);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("&Connect"));
    buttons->button(QDialogButtonBox::Ok)->setEnabled(first >= 0);
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
