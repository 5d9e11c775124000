#pragma once

#include <QWidget>

class QAbstractItemModel;

namespace hg {

// The chain's recent fire times as a strip of cells, oldest at the left, coloured by what
// became of each (a run by its state; skipped, missed, excluded and paused hatched, so colour
// is not the only cue). A ledger row of many fire times is one cell carrying its count. The
// cell's tooltip tells the outcome; a click on a run opens it. Drawn from an OccurrencesModel.
class OccurrenceStrip final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(OccurrenceStrip)

public:
    explicit OccurrenceStrip(QAbstractItemModel *occurrences, QWidget *parent = nullptr);

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;
    // The model row drawn at pos, -1 for none.
    int rowAt(const QPoint &pos) const;

Q_SIGNALS:
    void runActivated(qint64 runId);

protected:
    bool event(QEvent *event) override;
    void paintEvent(QPaintEvent *event) override;
    void mouseReleaseEvent(QMouseEvent *event) override;

private:
    int visibleCells() const;
    int firstVisibleRow() const;
    QRect cellRect(int cell) const;

    QAbstractItemModel *m_occurrences;
};

} // namespace hg
