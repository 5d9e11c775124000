#pragma once

#include "store/runrepository.h"

#include <QWidget>

class QPainter;

namespace hg {

// Runs as bars: one per run, oldest on the left, height by duration, colour by state. Small,
// it is a chain's sparkline on the overview; larger and with its median drawn, the duration
// trend above a chain's runs, so a job that slows down shows. Hovering a bar names its run.
class DurationBars final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(DurationBars)

public:
    explicit DurationBars(QWidget *parent = nullptr);

    void setRuns(const QList<RunSummary> &runs);
    const QList<RunSummary> &runs() const { return m_runs; }
    void setShowMedian(bool show);
    // The median of the finished runs' durations; -1 when none finished.
    qint64 medianMs() const { return m_medianMs; }
    // In words, for the tooltip and screen readers: "20 runs: 18 succeeded, 2 failed; median …".
    QString summary() const;
    QSize sizeHint() const override;
    // The bars alone, in AREA (a table cell's sparkline); at least minSlots bar widths.
    static void paintBars(QPainter &painter, const QRectF &area, const QList<RunSummary> &runs,
                          int minSlots = 20);

protected:
    void paintEvent(QPaintEvent *event) override;
    bool event(QEvent *event) override;

private:
    int runAt(int x) const;
    int minSlots() const;
    static QRectF barRect(const QRectF &area, const QList<RunSummary> &runs, int index,
                          int minSlots, qint64 maxMs);
    static qint64 longestMs(const QList<RunSummary> &runs);

    QList<RunSummary> m_runs;
    qint64 m_medianMs = -1;
    bool m_showMedian = false;
};

} // namespace hg
