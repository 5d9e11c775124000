#include "durationbars.h"

#include "displayformat.h"
#include "runsummarytext.h"
#include "statepresentation.h"

#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>

namespace hg {

DurationBars::DurationBars(QWidget *parent)
    : QWidget(parent)
{
    setMinimumHeight(18);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
}

void DurationBars::setRuns(const QList<RunSummary> &runs)
{
    m_runs = runs;
    m_medianMs = RunSummaryText::medianMs(runs);
    setAccessibleDescription(summary());
    setToolTip(summary());
    update();
}

void DurationBars::setShowMedian(bool show)
{
    m_showMedian = show;
    update();
}

QString DurationBars::summary() const
{
    return RunSummaryText::describe(m_runs);
}

QSize DurationBars::sizeHint() const
{
    return {160, m_showMedian ? 72 : 18};
}

qint64 DurationBars::longestMs(const QList<RunSummary> &runs)
{
    qint64 longest = 1;
    for (const RunSummary &run : runs)
        longest = std::max(longest, run.durationMs);
    return longest;
}

QRectF DurationBars::barRect(const QRectF &area, const QList<RunSummary> &runs, int index,
                             int minSlots, qint64 maxMs)
{
    const int slots = std::max<int>(int(runs.size()), minSlots);
    const qreal slot = area.width() / slots;
    const qreal left = area.left() + slot * qreal(slots - runs.size() + index); // newest right
    const qint64 ms = runs.at(index).durationMs;
    // Unfinished or instant runs still show as a stub in their state's colour.
    const qreal share = ms < 0 ? 0.15 : std::max(0.08, qreal(ms) / qreal(maxMs));
    const qreal h = (area.height() - 2) * share;
    return {left + slot * 0.15, area.top() + area.height() - 1 - h, std::max(1.0, slot * 0.7), h};
}

int DurationBars::minSlots() const
{
    return m_showMedian ? 100 : 20;
}

int DurationBars::runAt(int x) const
{
    const qint64 longest = longestMs(m_runs);
    for (int index = 0; index < m_runs.size(); ++index) {
        const QRectF bar = barRect(rect(), m_runs, index, minSlots(), longest);
        if (x >= bar.left() - 1 && x <= bar.right() + 1)
            return index;
    }
    return -1;
}

void DurationBars::paintBars(QPainter &painter, const QRectF &area, const QList<RunSummary> &runs,
                             int minSlots)
{
    const qint64 longest = longestMs(runs);
    for (int index = 0; index < runs.size(); ++index)
        painter.fillRect(barRect(area, runs, index, minSlots, longest),
                         StatePresentation::fill(runs.at(index).state));
}

void DurationBars::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    paintBars(painter, rect(), m_runs, minSlots());
    if (!m_showMedian || m_medianMs < 0)
        return;
    const qint64 longest = longestMs(m_runs);
    const qreal y = height() - 1 - (height() - 2) * (qreal(m_medianMs) / qreal(longest));
    painter.setPen(QPen(palette().color(QPalette::WindowText), 1, Qt::DashLine));
    painter.drawLine(QPointF(0, y), QPointF(width(), y));
    const QString label = tr("median %1").arg(DisplayFormat::duration(m_medianMs));
    painter.drawText(QPointF(4, std::max<qreal>(y - 3, fontMetrics().ascent())), label);
}

bool DurationBars::event(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        auto *help = static_cast<QHelpEvent *>(event);
        const int index = runAt(help->pos().x());
        if (index < 0) {
            QToolTip::showText(help->globalPos(), summary(), this);
        } else {
            const RunSummary &run = m_runs.at(index);
            QToolTip::showText(help->globalPos(),
                               tr("Run %1: %2, %3")
                                   .arg(run.id)
                                   .arg(StatePresentation::label(run.state),
                                        run.durationMs < 0
                                            ? tr("not finished")
                                            : DisplayFormat::duration(run.durationMs)),
                               this);
        }
        return true;
    }
    return QWidget::event(event);
}

} // namespace hg
