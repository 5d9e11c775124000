#include "runganttchart.h"

#include "displayformat.h"
#include "domain/enums.h"
#include "statepresentation.h"
#include "taskrunsmodel.h"

#include <QDateTime>
#include <QPainter>
#include <QTimer>

#include <algorithm>

namespace hg {
namespace {

constexpr int rowHeight = 24;
constexpr int axisHeight = 22;
constexpr int labelWidth = 120;

struct Bar
{
    int row;
    qint64 startMs;
    qint64 endMs;
    RunState state;
    int attempt;
};

} // namespace

RunGanttChart::RunGanttChart(QAbstractItemModel *attempts, QWidget *parent)
    : QWidget(parent)
    , m_attempts(attempts)
    , m_tick(new QTimer(this))
{
    setAccessibleName(tr("Run timeline"));
    setAccessibleDescription(tr("A row per task, a bar per attempt; the Attempts tab lists them"));
    setObjectName(QStringLiteral("gantt"));
    setBackgroundRole(QPalette::Base);
    setAutoFillBackground(true);
    m_tick->setInterval(1000);
    connect(m_tick, &QTimer::timeout, this, qOverload<>(&QWidget::update));
    connect(attempts, &QAbstractItemModel::modelReset, this, &RunGanttChart::modelChanged);
    connect(attempts, &QAbstractItemModel::rowsInserted, this, &RunGanttChart::modelChanged);
    connect(attempts, &QAbstractItemModel::dataChanged, this, &RunGanttChart::modelChanged);
}

QSize RunGanttChart::sizeHint() const
{
    return {420, axisHeight + 4 * rowHeight};
}

QSize RunGanttChart::minimumSizeHint() const
{
    return {200, axisHeight + rowHeight};
}

QStringList RunGanttChart::rowLabels() const
{
    QStringList labels;
    for (int row = 0; row < m_attempts->rowCount(); ++row) {
        const QString task = m_attempts->index(row, TaskRunsModel::TaskColumn).data().toString();
        if (!labels.contains(task))
            labels << task;
    }
    return labels;
}

void RunGanttChart::modelChanged()
{
    bool running = false;
    for (int row = 0; row < m_attempts->rowCount() && !running; ++row)
        running = RunState(m_attempts->index(row, 0).data(TaskRunsModel::StateRole).toInt())
                  == RunState::Running;
    if (running && !m_tick->isActive())
        m_tick->start();
    else if (!running)
        m_tick->stop();
    update();
}

void RunGanttChart::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    const QStringList labels = rowLabels();
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    QList<Bar> bars;
    qint64 first = std::numeric_limits<qint64>::max();
    qint64 last = 0;
    for (int row = 0; row < m_attempts->rowCount(); ++row) {
        const QModelIndex index = m_attempts->index(row, 0);
        const QDateTime start = index.data(TaskRunsModel::StartRole).toDateTime();
        if (!start.isValid())
            continue; // queued, never started: nothing to draw
        const QDateTime end = index.data(TaskRunsModel::EndRole).toDateTime();
        const Bar bar{int(labels.indexOf(
                          m_attempts->index(row, TaskRunsModel::TaskColumn).data().toString())),
                      start.toMSecsSinceEpoch(), end.isValid() ? end.toMSecsSinceEpoch() : now,
                      RunState(index.data(TaskRunsModel::StateRole).toInt()),
                      m_attempts->index(row, TaskRunsModel::AttemptColumn).data().toInt()};
        first = std::min(first, bar.startMs);
        last = std::max(last, bar.endMs);
        bars << bar;
    }
    const QColor text = palette().color(QPalette::Text);
    if (bars.isEmpty()) {
        painter.setPen(palette().color(QPalette::PlaceholderText));
        painter.drawText(rect(), Qt::AlignCenter, tr("No task has started in this run yet."));
        return;
    }
    // At least one second wide, so a run of instant tasks still shows bars.
    const qint64 span = std::max<qint64>(1000, last - first);
    const int left = labelWidth;
    const int width = std::max(50, this->width() - left - 36); // room for the last label
    const auto x = [&](qint64 ms) {
        return left + double(ms - first) * width / double(span);
    };

    // Axis: five ticks with the offset from the run's first start.
    painter.setPen(palette().color(QPalette::Mid));
    for (int tick = 0; tick <= 4; ++tick) {
        const double at = left + width * tick / 4.0;
        painter.drawLine(QPointF(at, axisHeight - 4), QPointF(at, height()));
        const QString label = QLatin1Char('+') + DisplayFormat::duration(span * tick / 4);
        painter.setPen(text);
        painter.drawText(QRectF(at - 40, 2, 80, axisHeight - 6), Qt::AlignCenter, label);
        painter.setPen(palette().color(QPalette::Mid));
    }
    for (int row = 0; row < labels.size(); ++row) {
        const int top = axisHeight + row * rowHeight;
        painter.setPen(text);
        painter.drawText(QRect(6, top, labelWidth - 12, rowHeight),
                         Qt::AlignVCenter | Qt::AlignLeft,
                         fontMetrics().elidedText(labels.at(row), Qt::ElideRight, labelWidth - 12));
    }
    for (const Bar &bar : bars) {
        const int top = axisHeight + bar.row * rowHeight;
        const double from = x(bar.startMs);
        const double to = std::max(from + 3, x(bar.endMs));
        const QRectF box(from, top + 4, to - from, rowHeight - 8);
        const QColor fill = StatePresentation::fill(bar.state);
        painter.setPen(QPen(fill.darker(150), 1));
        painter.setBrush(fill);
        painter.drawRoundedRect(box, 3, 3);
        if (bar.attempt > 1 && box.width() > 24) {
            painter.setPen(text);
            painter.drawText(box, Qt::AlignCenter, QStringLiteral("#%1").arg(bar.attempt));
        }
    }
}

} // namespace hg
