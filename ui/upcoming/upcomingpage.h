#pragma once

#include "upcoming/upcomingtimeline.h"
#include "upcomingmodel.h"

#include <QSet>
#include <QWidget>

#include <optional>

class QLabel;
class QTableView;

namespace hg {

class Store;
class StoreReader;

// The Upcoming tab: a note (the legend; whether schedules are paused), the timeline of every
// chain from yesterday through the coming week, and the table of the coming fires. It reads
// on the StoreReader's thread and shows what it read when the answer comes: a store of
// 10,000 chains (a million fire times a week) never freezes the window.
class UpcomingPage final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(UpcomingPage)

public:
    UpcomingPage(StoreReader &reader, Store &store, QWidget *parent = nullptr);

    // Reads again; a reload asked while one reads runs once that one is shown.
    void reload();
    bool isReading() const { return m_reading || m_filterPending; } // or filtering
    void setSchedulesPaused(bool paused);
    // Only these chains (ids), as the tree's filter shows them; none: every chain.
    void setShownChains(const std::optional<QSet<qint64>> &chains);
    UpcomingModel *fires() const { return m_fires; }
    UpcomingTimeline *timeline() const { return m_timeline; }
    QTableView *table() const { return m_table; }

Q_SIGNALS:
    void failed(const QString &message);

private:
    void showNote();
    // The last answer, whole: the filter applies to it without reading again.
    struct Read
    {
        UpcomingModel::Week week;
        UpcomingTimeline::Rows rows;
    };
    void showRead(); // what was read, through the filter
    static Read filtered(const Read &read, const QSet<qint64> &chains, qint64 nowMs);
    void showFiltered(const Read &shown);

    StoreReader &m_reader;
    UpcomingModel *m_fires;
    UpcomingTimeline *m_timeline;
    QTableView *m_table;
    QLabel *m_note;
    QLabel *m_status;
    bool m_paused = false;
    bool m_reading = false;
    bool m_again = false;
    std::optional<Read> m_read;
    std::optional<QSet<qint64>> m_shownChains;
    int m_filtering = 0; // the newest filtering asked; older answers are dropped
    bool m_filterPending = false;
};

} // namespace hg
