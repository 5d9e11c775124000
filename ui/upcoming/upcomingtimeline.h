#pragma once

#include <QWidget>

class QAbstractItemModel;

namespace hg {

// The coming week at a glance: a row per chain, a column per day, a tick at each fire time
// (frequent schedules become a solid band). Drawn from an UpcomingModel; the table below it
// lists the same fires one by one.
class UpcomingTimeline final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(UpcomingTimeline)

public:
    explicit UpcomingTimeline(QAbstractItemModel *fires, QWidget *parent = nullptr);

    QSize sizeHint() const override;
    QStringList rowLabels() const; // the chains, in the order of their first fire

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    QAbstractItemModel *m_fires;
};

} // namespace hg
