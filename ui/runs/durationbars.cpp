#include "durationbars.h"

#include "displayformat.h"
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
    QList<qint64> durations;
    for (const RunSummary &run : runs) {
        if (run.durationMs >= 0)
            durations << run.durationMs;
    }
    m_medianMs = -1;
    if (!durations.isEmpty()) {
        const auto middle = durations.begin() + durations.size() / 2;
        std::nth_element(durations.begin(), middle, durations.end());
        m_medianMs = *middle;
    }
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
    if (m_runs.isEmpty())
        return tr("No runs yet");
    QMap<QString, int> byState;
    for (const RunSummary &run : m_runs)
        ++byState[StatePresentation::label(run.state)];
    QStringList parts;
    for (auto it = byState.cbegin(); it != byState.cend(); ++it)
        parts << QStringLiteral("%1 %2").arg(it.value()).arg(it.key());
    QString text =
        tr("%n run(s): %1", nullptr, int(m_runs.size())).arg(parts.join(QLatin1String(", ")));
    if (m_medianMs >= 0)
        text += tr("; median %1").arg(DisplayFormat::duration(m_medianMs));
    return text;
}

QSize DurationBars::sizeHint() const
{
    return {160, m_showMedian ? 72 : 18};
}

qint64 DurationBars::longestMs() const
{
    qint64 longest = 1;
    for (const RunSummary &run : m_runs)
        longest = std::max(longest, run.durationMs);
    return longest;
}

QRectF DurationBars::barRect(int index, qint64 maxMs) const
{
    const int slots = std::max<int>(int(m_runs.size()), m_showMedian ? 100 : 20);
    const qreal slot = qreal(width()) / slots;
    const qreal left = slot * (slots - m_runs.size() + index); // newest at the right edge
    const qint64 ms = m_runs.at(index).durationMs;
    // Unfinished or instant runs still show as a stub in their state's colour.
    const qreal share = ms < 0 ? 0.15 : std::max(0.08, qreal(ms) / qreal(maxMs));
    const qreal h = (height() - 2) * share;
    return {left + slot * 0.15, height() - 1 - h, std::max(1.0, slot * 0.7), h};
}

int DurationBars::runAt(int x) const
{
    const qint64 longest = longestMs();
    for (int index = 0; index < m_runs.size(); ++index) {
        const QRectF bar = barRect(index, longest);
        if (x >= bar.left() - 1 && x <= bar.right() + 1)
            return index;
    }
    return -1;
}

void DurationBars::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    const qint64 longest = longestMs();
    for (int index = 0; index < m_runs.size(); ++index)
        painter.fillRect(barRect(index, longest), StatePresentation::fill(m_runs.at(index).state));
    if (!m_showMedian || m_medianMs < 0)
        return;
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
