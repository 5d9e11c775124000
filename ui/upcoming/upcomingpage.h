#pragma once

#include <QWidget>

class QLabel;
class QTableView;

namespace hg {

class Store;
class StoreReader;
class UpcomingModel;
class UpcomingTimeline;

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
    bool isReading() const { return m_reading; }
    void setSchedulesPaused(bool paused);
    UpcomingModel *fires() const { return m_fires; }
    UpcomingTimeline *timeline() const { return m_timeline; }
    QTableView *table() const { return m_table; }

Q_SIGNALS:
    void failed(const QString &message);

private:
    void showNote();

    StoreReader &m_reader;
    UpcomingModel *m_fires;
    UpcomingTimeline *m_timeline;
    QTableView *m_table;
    QLabel *m_note;
    QLabel *m_status;
    bool m_paused = false;
    bool m_reading = false;
    bool m_again = false;
};

} // namespace hg
