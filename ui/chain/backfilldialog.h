#pragma once

#include "domain/chain.h"
#include "domain/run.h"

#include <QDialog>
#include <QTimeZone>

class QComboBox;
class QDateTimeEdit;
class QLabel;
class QListWidget;
class QPushButton;
class QSpinBox;

namespace hg {

class Store;

// Backfill on a chain's context menu: a range, serially or N at once, oldest or newest first.
// It lists the fire times it will queue runs for before it queues them (Backfill::fireTimes(),
// the same as `hourglass backfill`), then queues the batch in one transaction.
class BackfillDialog final : public QDialog
{
    Q_OBJECT

public:
    BackfillDialog(Store &store, const Chain &chain, const QTimeZone &defaultZone,
                   QWidget *parent = nullptr);

    void setRange(const QDateTime &from, const QDateTime &to);
    void setParallel(int parallel);
    void setNewestFirst(bool newestFirst);
    QListWidget *preview() const { return m_preview; }
    QPushButton *queueButton() const { return m_queue; }
    QString summary() const;
    const QList<Run> &queued() const { return m_queued; }

private:
    void refresh();
    void queue();

    Store &m_store;
    Chain m_chain;
    QTimeZone m_zone;
    QDateTimeEdit *m_from = nullptr;
    QDateTimeEdit *m_to = nullptr;
    QSpinBox *m_parallel = nullptr;
    QComboBox *m_order = nullptr;
    QListWidget *m_preview = nullptr;
    QLabel *m_summary = nullptr;
    QPushButton *m_queue = nullptr;
    QList<QDateTime> m_fireTimes;
    QList<Run> m_queued;
};

} // namespace hg
