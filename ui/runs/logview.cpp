#include "logview.h"

#include "common/taborder.h"
#include "logmodel.h"
#include "statepresentation.h"

#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QFileDialog>
#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QMessageBox>
#include <QPushButton>
#include <QSaveFile>
#include <QVBoxLayout>

namespace hg {

LogView::LogView(Store &store, QWidget *parent)
    : QWidget(parent)
    , m_model(new LogModel(store, this))
    , m_list(new QListView(this))
    , m_search(new QLineEdit(this))
    , m_follow(new QCheckBox(tr("Fo&llow"), this))
{
    m_list->setModel(m_model);
    m_list->setUniformItemSizes(true); // 100,000 lines: no per-row size queries
    m_list->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_list->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_search->setPlaceholderText(tr("Search the log (Enter: next, Shift+Enter: previous)"));
    m_search->setClearButtonEnabled(true);
    m_search->setAccessibleName(tr("Search the log"));
    m_list->setAccessibleName(tr("Log"));
    m_follow->setChecked(true);
    m_follow->setToolTip(tr("Keep the newest line in view"));
    auto *copy = new QPushButton(tr("Cop&y"), this);
    auto *save = new QPushButton(tr("Sa&ve…"), this);
    m_save = save;
    save->setEnabled(false); // until a run is shown: there is no log to save (helper-13)
    copy->setToolTip(tr("Copy the selected lines, or the whole log when none is selected"));
    save->setToolTip(tr("Save the log to a text file"));
    m_list->setAccessibleDescription(tr("The output of the selected run, newest at the bottom"));

    auto *bar = new QHBoxLayout;
    bar->addWidget(m_search, 1);
    bar->addWidget(m_follow);
    bar->addWidget(copy);
    bar->addWidget(save);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(bar);
    // A run of more lines than the view holds starts later, and says so (helper-1 searched in
    // vain for the first lines of 150,000).
    m_cut = new QLabel(this);
    m_cut->setObjectName(QStringLiteral("log.startsLater"));
    m_cut->setWordWrap(true);
    m_cut->hide();
    layout->addWidget(m_cut);
    layout->addWidget(m_list, 1);
    setTabOrderOf({m_search, m_follow, copy, save, m_list}); // the bar above the lines

    connect(m_model, &QAbstractItemModel::rowsInserted, this, [this] {
        if (m_follow->isChecked())
            m_list->scrollToBottom();
    });
    // A run's tail read on the store's reader thread arrives as a reset.
    connect(m_model, &QAbstractItemModel::modelReset, m_list, &QListView::scrollToBottom);
    const auto sayWhereItStarts = [this] {
        m_cut->setText(tr("Only the last %L1 lines are shown here; hourglass logs %2 prints "
                          "them all.")
                           .arg(m_model->capacity())
                           .arg(m_model->runId()));
        m_cut->setVisible(m_model->startsLater());
    };
    connect(m_model, &QAbstractItemModel::modelReset, this, sayWhereItStarts);
    connect(m_model, &QAbstractItemModel::rowsRemoved, this, sayWhereItStarts);
    connect(m_search, &QLineEdit::returnPressed, this,
            [this] { findNext(!(QApplication::keyboardModifiers() & Qt::ShiftModifier)); });
    connect(copy, &QPushButton::clicked, this, [this] {
        const QModelIndexList selected = m_list->selectionModel()->selectedRows();
        if (selected.isEmpty()) {
            QApplication::clipboard()->setText(m_model->text());
            return;
        }
        int first = selected.first().row();
        int last = first;
        for (const QModelIndex &index : selected) {
            first = std::min(first, index.row());
            last = std::max(last, index.row());
        }
        QApplication::clipboard()->setText(m_model->text(first, last));
    });
    connect(save, &QPushButton::clicked, this, &LogView::saveToFile);
}

void LogView::follow(qint64 runId, qint64 taskRunId)
{
    (void)m_model->follow(runId, taskRunId);
    m_save->setEnabled(runId > 0);
    m_list->scrollToBottom();
}

void LogView::focusLines()
{
    m_list->setFocus(Qt::ShortcutFocusReason);
}

bool LogView::isFollowing() const
{
    return m_follow->isChecked();
}

void LogView::appendLines(const QList<LogLine> &lines)
{
    m_model->appendLines(lines);
}

void LogView::findNext(bool forward)
{
    if (m_search->text().isEmpty())
        return;
    const int current = m_list->currentIndex().isValid() ? m_list->currentIndex().row() : -1;
    int row = m_model->find(m_search->text(), forward ? current + 1 : current - 1, forward);
    if (row < 0) // wrap around once
        row = m_model->find(m_search->text(), forward ? 0 : m_model->rowCount() - 1, forward);
    if (row < 0) {
        m_search->setStyleSheet(
            QStringLiteral("color: %1").arg(StatePresentation::errorText().name()));
        return;
    }
    m_search->setStyleSheet({});
    m_follow->setChecked(false); // looking at a match: stop jumping to the end
    m_list->setCurrentIndex(m_model->index(row));
    m_list->scrollTo(m_model->index(row), QAbstractItemView::PositionAtCenter);
}

void LogView::saveToFile()
{
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Save log"), QStringLiteral("run-%1.log").arg(m_model->runId()));
    if (path.isEmpty())
        return;
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(m_model->text().toUtf8() + '\n') < 0
        || !file.flush() || !file.commit()) // commit() alone misses a full disk
        QMessageBox::warning(this, tr("Save log"),
                             tr("Cannot write %1: %2").arg(path, file.errorString()));
}

} // namespace hg
