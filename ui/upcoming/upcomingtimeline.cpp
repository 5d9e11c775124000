#include "upcomingtimeline.h"

#include "displayformat.h"
#include "domain/enums.h"
#include "occurrencepresentation.h"
#include "occurrencesmodel.h"
#include "statepresentation.h"
#include "upcomingmodel.h"

#include <QDateTime>
#include <QPainter>
#include <QPaintEvent>

namespace hg {
namespace {

constexpr int rowHeight = 22;
constexpr int axisHeight = 24;
constexpr int labelWidth = 180;

} // namespace

UpcomingTimeline::UpcomingTimeline(QWidget *parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("upcomingTimeline"));
    setAccessibleName(tr("Week timeline"));
    setBackgroundRole(QPalette::Base);
    setAutoFillBackground(true);
    showRows({});
}

UpcomingTimeline::UpcomingTimeline(UpcomingModel *fires, OccurrencesModel *past, QWidget *parent)
    : UpcomingTimeline(parent)
{
    m_fires = fires;
    m_past = past;
    const auto follow = [this] {
        showRows(layOut(m_past->occurrences(), m_past->paths(), m_fires->fires()));
    };
    connect(fires, &QAbstractItemModel::modelReset, this, follow);
    connect(past, &QAbstractItemModel::modelReset, this, follow);
    follow();
}

UpcomingTimeline::Rows UpcomingTimeline::layOut(const QList<Occurrence> &past,
                                                const QHash<qint64, QString> &paths,
                                                const QList<UpcomingModel::Fire> &fires)
{
    Rows laid;
    QHash<qint64, qsizetype> rowOfChain;
    const auto rowOf = [&](qint64 chainId, const QString &label) -> Row & {
        auto found = rowOfChain.constFind(chainId);
        if (found == rowOfChain.cend()) {
            found = rowOfChain.insert(chainId, laid.rows.size());
            laid.rows.append(Row{chainId, label, {}, {}});
        }
        return laid.rows[found.value()];
    };
    for (const Occurrence &occurrence : past)
        rowOf(occurrence.chainId, paths.value(occurrence.chainId)).past << occurrence;
    for (const UpcomingModel::Fire &fire : fires)
        rowOf(fire.chainId, fire.chainPath).future << Fire{fire.atMs, fire.continues};
    laid.pastSummary = OccurrencesModel::summary(past);
    return laid;
}

void UpcomingTimeline::showRows(Rows rows)
{
    m_rows = std::move(rows.rows);
    m_shown = true;
    setAccessibleDescription(
        tr("A row per chain. Since yesterday: %1. The coming week: a tick per fire time; the "
           "table below lists them.")
            .arg(rows.pastSummary.isEmpty() ? tr("nothing") : rows.pastSummary));
    setMinimumHeight(sizeHint().height());
    updateGeometry();
    update();
}

QSize UpcomingTimeline::sizeHint() const
{
    return {800, axisHeight + int(std::max<qsizetype>(3, m_rows.size())) * rowHeight + 8};
}

QStringList UpcomingTimeline::rowLabels() const
{
    QStringList labels;
    labels.reserve(m_rows.size());
    for (const Row &row : m_rows)
        labels << row.label;
    return labels;
}

void UpcomingTimeline::paintEvent(QPaintEvent *event)
{
    QPainter painter(this);
    const QColor text = palette().color(QPalette::Text);
    if (m_rows.isEmpty()) {
        painter.setPen(palette().color(QPalette::PlaceholderText));
        painter.drawText(rect(), Qt::AlignCenter,
                         m_shown ? tr("Nothing ran since yesterday and nothing is scheduled in "
                                      "the coming week.")
                                 : tr("Reading the fire times…"));
        return;
    }
    // Local days, from the start of yesterday.
    constexpr int days = pastDays + futureDays;
    const QDateTime start(QDate::currentDate().addDays(-pastDays), QTime(0, 0));
    const qint64 startMs = start.toMSecsSinceEpoch();
    const qint64 spanMs = qint64(days) * 86400000;
    const int left = labelWidth;
    const double width = std::max(100, this->width() - left - 8);
    const auto x = [&](qint64 ms) {
        return left
               + double(std::clamp(ms, startMs, startMs + spanMs) - startMs) * width
                     / double(spanMs);
    };
    const double now = x(QDateTime::currentMSecsSinceEpoch());
    const QRect exposed = event->rect();

    // The past shaded, day columns, weekends shaded, "now" in red.
    QColor pastShade = palette().color(QPalette::AlternateBase);
    painter.fillRect(QRectF(left, axisHeight, now - left, height() - axisHeight),
                     pastShade.darker(104));
    for (int day = 0; day < days; ++day) {
        const QDate date = start.date().addDays(day);
        const double from = left + width * day / days;
        if (date.dayOfWeek() >= 6)
            painter.fillRect(QRectF(from, axisHeight, width / days, height() - axisHeight),
                             palette().color(QPalette::AlternateBase));
        painter.setPen(palette().color(QPalette::Mid));
        painter.drawLine(QPointF(from, 2), QPointF(from, height()));
        painter.setPen(text);
        painter.drawText(QRectF(from + 4, 2, width / days - 8, axisHeight - 4),
                         Qt::AlignVCenter | Qt::AlignLeft, DisplayFormat::day(date));
    }
    const int firstRow = std::max(0, (exposed.top() - axisHeight) / rowHeight);
    const int lastRow =
        std::min(int(m_rows.size()) - 1, (exposed.bottom() - axisHeight) / rowHeight);
    const QPen tick(StatePresentation::fill(RunState::Running).darker(140), 1.5);
    for (int index = firstRow; index <= lastRow; ++index) {
        const Row &row = m_rows.at(index);
        const int top = axisHeight + index * rowHeight;
        painter.setPen(text);
        painter.drawText(QRect(6, top, labelWidth - 12, rowHeight),
                         Qt::AlignVCenter | Qt::AlignLeft,
                         fontMetrics().elidedText(row.label, Qt::ElideMiddle, labelWidth - 12));
        // What became of the past fire times: a tick per run in its state's colour; a ledger
        // row (skipped, missed, excluded, paused) hatched over the time it spans.
        for (const Occurrence &occurrence : row.past) {
            const double from = x(occurrence.firstFireMs);
            const double to = x(occurrence.lastFireMs);
            const QColor fill = OccurrencePresentation::fill(occurrence);
            if (OccurrencePresentation::unrun(occurrence)) {
                const QRectF band(from - 1, top + 4, std::max(2.0, to - from + 2), rowHeight - 8);
                painter.fillRect(band, fill);
                painter.fillRect(band, QBrush(fill.darker(170), Qt::BDiagPattern));
            } else {
                painter.setPen(QPen(fill.darker(115), 2));
                painter.drawLine(QPointF(from, top + 3), QPointF(from, top + rowHeight - 3));
            }
        }
        painter.setPen(tick);
        for (const Fire &fire : row.future) {
            const double at = x(fire.atMs);
            painter.drawLine(QPointF(at, top + 4), QPointF(at, top + rowHeight - 4));
            if (fire.continues) {
                // Too many to list: the schedule goes on firing to the end of the week.
                QColor band = tick.color();
                band.setAlpha(90);
                painter.fillRect(QRectF(at, top + 4, left + width - at, rowHeight - 8),
                                 QBrush(band, Qt::BDiagPattern));
            }
        }
    }
    painter.setPen(QPen(QColor(0xd9, 0x30, 0x25), 1.5));
    painter.drawLine(QPointF(now, axisHeight - 4), QPointF(now, height()));
}

} // namespace hg
