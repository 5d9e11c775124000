#pragma once

#include <QWidget>

class QAbstractItemModel;

namespace hg {

// Yesterday and today so far beside the coming week: a row per chain, a column per day. The
// past shows what became of each fire time, coloured by outcome (a run by its state; skipped,
// missed and excluded hatched), from an OccurrencesModel; the future shows a tick at each fire
// time (frequent schedules become a solid band), from an UpcomingModel. The table below lists
// the coming fires one by one.
class UpcomingTimeline final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(UpcomingTimeline)

public:
    UpcomingTimeline(QAbstractItemModel *fires, QAbstractItemModel *past,
                     QWidget *parent = nullptr);

    QSize sizeHint() const override;
    // The chains: those with a past occurrence first, then in the order of their next fire.
    QStringList rowLabels() const;
    static constexpr int pastDays = 1; // before today
    static constexpr int futureDays = 7;

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    void updateDescription();

    QAbstractItemModel *m_fires;
    QAbstractItemModel *m_past;
};

} // namespace hg
