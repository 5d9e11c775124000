#include "upcomingtimeline.h"

#include "displayformat.h"
#include "domain/enums.h"
#include "occurrencesmodel.h"
#include "statepresentation.h"
#include "upcomingmodel.h"

#include <QDateTime>
#include <QPainter>

namespace hg {
namespace {

constexpr int rowHeight = 22;
constexpr int axisHeight = 24;
constexpr int labelWidth = 180;

} // namespace

UpcomingTimeline::UpcomingTimeline(QAbstractItemModel *fires, QAbstractItemModel *past,
                                   QWidget *parent)
    : QWidget(parent)
    , m_fires(fires)
    , m_past(past)
{
    setObjectName(QStringLiteral("upcomingTimeline"));
    setAccessibleName(tr("Week timeline"));
    setBackgroundRole(QPalette::Base);
    setAutoFillBackground(true);
    for (QAbstractItemModel *model : {fires, past}) {
        connect(model, &QAbstractItemModel::modelReset, this, [this] {
            updateDescription();
            updateGeometry();
            update();
        });
    }
    updateDescription();
}

void UpcomingTimeline::updateDescription()
{
    const auto *past = qobject_cast<const OccurrencesModel *>(m_past);
    setAccessibleDescription(
        tr("A row per chain. Since yesterday: %1. The coming week: a tick per fire time; the "
           "table below lists them.")
            .arg(past ? past->summary() : tr("nothing")));
}

QSize UpcomingTimeline::sizeHint() const
{
    return {800, axisHeight + int(std::max<qsizetype>(3, rowLabels().size())) * rowHeight + 8};
}

QStringList UpcomingTimeline::rowLabels() const
{
    QStringList labels;
    for (const QAbstractItemModel *model : {m_past, m_fires}) {
        const int column =
            model == m_past ? int(OccurrencesModel::ChainColumn) : int(UpcomingModel::ChainColumn);
        for (int row = 0; row < model->rowCount(); ++row) {
            const QString chain = model->index(row, column).data().toString();
            if (!labels.contains(chain))
                labels << chain;
        }
    }
    return labels;
}

void UpcomingTimeline::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    const QStringList labels = rowLabels();
    const QColor text = palette().color(QPalette::Text);
    if (labels.isEmpty()) {
        painter.setPen(palette().color(QPalette::PlaceholderText));
        painter.drawText(rect(), Qt::AlignCenter,
                         tr("Nothing ran since yesterday and nothing is scheduled in the coming "
                            "week."));
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
    for (int row = 0; row < labels.size(); ++row) {
        painter.setPen(text);
        painter.drawText(
            QRect(6, axisHeight + row * rowHeight, labelWidth - 12, rowHeight),
            Qt::AlignVCenter | Qt::AlignLeft,
            fontMetrics().elidedText(labels.at(row), Qt::ElideMiddle, labelWidth - 12));
    }

    // What became of the past fire times: a tick per run in its state's colour; a ledger row
    // (skipped, missed, excluded, paused) hatched over the time it spans.
    for (int entry = 0; entry < m_past->rowCount(); ++entry) {
        const QModelIndex index = m_past->index(entry, 0);
        const int row = int(
            labels.indexOf(m_past->index(entry, OccurrencesModel::ChainColumn).data().toString()));
        const int top = axisHeight + row * rowHeight;
        const QColor fill = index.data(OccurrencesModel::FillRole).value<QColor>();
        const double from = x(index.data(OccurrencesModel::FirstFireRole).toLongLong());
        const double to = x(index.data(OccurrencesModel::LastFireRole).toLongLong());
        if (index.data(OccurrencesModel::UnrunRole).toBool()) {
            const QRectF band(from - 1, top + 4, std::max(2.0, to - from + 2), rowHeight - 8);
            painter.fillRect(band, fill);
            painter.fillRect(band, QBrush(fill.darker(170), Qt::BDiagPattern));
        } else {
            painter.setPen(QPen(fill.darker(115), 2));
            painter.drawLine(QPointF(from, top + 3), QPointF(from, top + rowHeight - 3));
        }
    }

    painter.setPen(QPen(StatePresentation::fill(RunState::Running).darker(140), 1.5));
    for (int fire = 0; fire < m_fires->rowCount(); ++fire) {
        const QModelIndex when = m_fires->index(fire, 0);
        const qint64 ms = when.data(UpcomingModel::FireTimeRole).toDateTime().toMSecsSinceEpoch();
        const int row =
            int(labels.indexOf(m_fires->index(fire, UpcomingModel::ChainColumn).data().toString()));
        const double at = x(ms);
        const int top = axisHeight + row * rowHeight;
        painter.drawLine(QPointF(at, top + 4), QPointF(at, top + rowHeight - 4));
        if (when.data(UpcomingModel::ContinuesRole).toBool()) {
            // Too many to list: the schedule goes on firing to the end of the week.
            QColor band = painter.pen().color();
            band.setAlpha(90);
            painter.fillRect(QRectF(at, top + 4, left + width - at, rowHeight - 8),
                             QBrush(band, Qt::BDiagPattern));
        }
    }
    painter.setPen(QPen(QColor(0xd9, 0x30, 0x25), 1.5));
    painter.drawLine(QPointF(now, axisHeight - 4), QPointF(now, height()));
}

} // namespace hg
