#pragma once

#include <QWidget>

class QAbstractItemModel;
class QTimer;

namespace hg {

// A run's timeline: one row per task, one bar per attempt from its start to its end (to now
// while it runs), in the colour of its state, over a time axis. Drawn from a TaskRunsModel's
// Start/End/State roles and redrawn as the engine updates the model.
class RunGanttChart final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RunGanttChart)

public:
    explicit RunGanttChart(QAbstractItemModel *attempts, QWidget *parent = nullptr);

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;
    // The tasks shown, one per row, in the order they first ran.
    QStringList rowLabels() const;

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    void modelChanged();

    QAbstractItemModel *m_attempts;
    QTimer *m_tick; // moves running bars along while something runs
};

} // namespace hg
