#include "argumentlisteditor.h"

#include <QHBoxLayout>
#include <QListWidget>
#include <QToolButton>
#include <QVBoxLayout>

namespace hg {

ArgumentListEditor::ArgumentListEditor(QWidget *parent)
    : QWidget(parent)
    , m_list(new QListWidget(this))
{
    m_list->setObjectName(QStringLiteral("arguments"));
    m_list->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed
                            | QAbstractItemView::AnyKeyPressed);
    m_list->setMinimumHeight(90);
    setMaximumHeight(150);
    auto *buttons = new QVBoxLayout;
    const auto button = [&](const QString &text, const QString &tip, auto slot) {
        auto *b = new QToolButton(this);
        b->setText(text);
        b->setToolTip(tip);
        b->setAccessibleName(tip); // a screen reader says "Move up", not "↑"
        b->setAutoRaise(true);
        connect(b, &QToolButton::clicked, this, slot);
        buttons->addWidget(b);
    };
    button(QStringLiteral("+"), tr("Add an argument"), [this] {
        addArgument(QString());
        m_list->editItem(m_list->currentItem());
    });
    button(QStringLiteral("−"), tr("Remove the argument"), [this] {
        delete m_list->takeItem(m_list->currentRow());
        Q_EMIT changed();
    });
    button(QStringLiteral("↑"), tr("Move up"), [this] { moveCurrent(-1); });
    button(QStringLiteral("↓"), tr("Move down"), [this] { moveCurrent(1); });
    buttons->addStretch();
    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_list, 1);
    layout->addLayout(buttons);
    connect(m_list, &QListWidget::itemChanged, this, &ArgumentListEditor::changed);
}

void ArgumentListEditor::setArguments(const QStringList &arguments)
{
    const QSignalBlocker quiet(m_list);
    m_list->clear();
    for (const QString &argument : arguments) {
        auto *item = new QListWidgetItem(argument, m_list);
        item->setFlags(item->flags() | Qt::ItemIsEditable);
    }
}

QStringList ArgumentListEditor::arguments() const
{
    QStringList out;
    for (int row = 0; row < m_list->count(); ++row)
        out << m_list->item(row)->text();
    return out;
}

void ArgumentListEditor::addArgument(const QString &text)
{
    auto *item = new QListWidgetItem(text);
    item->setFlags(item->flags() | Qt::ItemIsEditable);
    {
        const QSignalBlocker quiet(m_list);
        m_list->addItem(item);
    }
    m_list->setCurrentItem(item);
    Q_EMIT changed();
}

void ArgumentListEditor::moveCurrent(int by)
{
    const int row = m_list->currentRow();
    const int to = row + by;
    if (row < 0 || to < 0 || to >= m_list->count())
        return;
    {
        const QSignalBlocker quiet(m_list);
        m_list->insertItem(to, m_list->takeItem(row));
    }
    m_list->setCurrentRow(to);
    Q_EMIT changed();
}

} // namespace hg
