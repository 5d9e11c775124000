#include "connectionpage.h"

#include "connectionscontroller.h"
#include "domain/connectionurl.h"
#include "projecttreemodel.h"

#include <QAction>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace hg {

ConnectionPage::ConnectionPage(ConnectionsController *controller, QWidget *parent)
    : QWidget(parent)
    , m_controller(controller)
    , m_title(new QLabel(this))
    , m_state(new QLabel(this))
    , m_edit(new QPushButton(tr("Ed&it…"), this))
    , m_test(new QPushButton(tr("&Test"), this))
    , m_remove(new QPushButton(tr("Re&move…"), this))
{
    QFont bigger = m_title->font();
    bigger.setPointSizeF(bigger.pointSizeF() * 1.3);
    bigger.setBold(true);
    m_title->setFont(bigger);
    m_state->setWordWrap(true);
    m_state->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_state->setAccessibleName(tr("Connection state"));
    auto *add = new QPushButton(tr("Add co&nnection…"), this);
    auto *buttons = new QHBoxLayout;
    for (QPushButton *button : {add, m_edit, m_test, m_remove})
        buttons->addWidget(button);
    buttons->addStretch(1);
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_title);
    layout->addWidget(m_state);
    layout->addLayout(buttons);
    layout->addStretch(1);
    connect(add, &QPushButton::clicked, controller, &ConnectionsController::addConnection);
    const auto name = [this] {
        return m_index.data(ProjectTreeModel::ConnectionNameRole).toString();
    };
    connect(m_edit, &QPushButton::clicked, this,
            [this, name] { m_controller->editConnection(name()); });
    connect(m_remove, &QPushButton::clicked, this,
            [this, name] { m_controller->removeConnection(name()); });
    connect(m_test, &QPushButton::clicked, this, [this, name] {
        if (!model())
            return; // the tree was reloaded under the page
        if (const std::optional<ConnectionProfile> profile = model()->connection(name()))
            m_controller->check(*profile);
    });
}

void ConnectionPage::showNode(const QModelIndex &index)
{
    if (m_index.model() != index.model()) {
        if (m_index.model())
            disconnect(m_index.model(), nullptr, this, nullptr);
        connect(index.model(), &QAbstractItemModel::dataChanged, this,
                [this](const QModelIndex &from, const QModelIndex &to) {
                    if (m_index.isValid() && m_index.parent() == from.parent()
                        && m_index.row() >= from.row() && m_index.row() <= to.row())
                        refresh();
                });
    }
    m_index = index;
    refresh();
}

const ProjectTreeModel *ConnectionPage::model() const
{
    return qobject_cast<const ProjectTreeModel *>(m_index.model());
}

QString ConnectionPage::stateText() const
{
    return m_state->text();
}

void ConnectionPage::refresh()
{
    const QString name = m_index.data(ProjectTreeModel::ConnectionNameRole).toString();
    for (QPushButton *button : {m_edit, m_test, m_remove})
        button->setVisible(!name.isEmpty());
    if (name.isEmpty()) {
        m_title->setText(tr("Connections"));
        m_state->setText(
            tr("A connection reaches a pg_timetable, DolphinScheduler or pgAgent database, or a "
               "database that SQL tasks use. Its password is kept in the desktop's keychain "
               "(or in ~/.pgpass and ~/.my.cnf where none runs), never in the store.\n\nSelect "
               "a pg_timetable chain under its connection to see, edit, start and stop it."));
        return;
    }
    const std::optional<ConnectionProfile> profile =
        model() ? model()->connection(name) : std::nullopt;
    const QString url = profile ? ConnectionUrl::format(*profile) : QString();
    m_title->setText(name);
    m_state->setText(url + QStringLiteral("\n\n") + m_index.data(Qt::ToolTipRole).toString());
}

} // namespace hg
