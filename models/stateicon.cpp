#include "stateicon.h"

#include "statepresentation.h"

#include <QHash>
#include <QPainter>
#include <QPainterPath>
#include <QPixmap>

namespace hg {
namespace {

enum class Mark { None, Check, Cross, Dot, Slash, Bang };

QPixmap draw(int size, const QColor &fill, const QColor &outline, Mark mark)
{
    QPixmap pixmap(size, size);
    pixmap.fill(Qt::transparent);
    QPainter painter(&pixmap);
    painter.setRenderHint(QPainter::Antialiasing);
    const qreal unit = size / 16.0;
    painter.scale(unit, unit);
    painter.setPen(QPen(outline, 1.2));
    painter.setBrush(fill.isValid() ? QBrush(fill) : QBrush(Qt::NoBrush));
    painter.drawEllipse(QRectF(1.5, 1.5, 13, 13));
    QPen markPen(Qt::white, 1.8, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin);
    painter.setPen(markPen);
    painter.setBrush(Qt::NoBrush);
    switch (mark) {
    case Mark::None:
        break;
    case Mark::Check: {
        QPainterPath check;
        check.moveTo(4.8, 8.2);
        check.lineTo(7.1, 10.5);
        check.lineTo(11.3, 5.8);
        painter.drawPath(check);
        break;
    }
    case Mark::Cross:
        painter.drawLine(QPointF(5.5, 5.5), QPointF(10.5, 10.5));
        painter.drawLine(QPointF(10.5, 5.5), QPointF(5.5, 10.5));
        break;
    case Mark::Dot:
        painter.setBrush(Qt::white);
        painter.setPen(Qt::NoPen);
        painter.drawEllipse(QRectF(5.5, 5.5, 5, 5));
        break;
    case Mark::Slash:
        painter.setPen(QPen(outline, 1.4, Qt::SolidLine, Qt::RoundCap));
        painter.drawLine(QPointF(4, 12), QPointF(12, 4));
        break;
    case Mark::Bang:
        painter.drawLine(QPointF(8, 4.5), QPointF(8, 9));
        painter.drawPoint(QPointF(8, 11.5));
        break;
    }
    return pixmap;
}

QIcon make(const QColor &fill, const QColor &outline, Mark mark)
{
    QIcon icon;
    for (int size : {16, 24, 32})
        icon.addPixmap(draw(size, fill, outline, mark));
    return icon;
}

QIcon cached(int key, const std::function<QIcon()> &build)
{
    // Keyed by palette too: the colours change between light and dark.
    static QHash<int, QIcon> icons;
    const int fullKey = key * 2 + (StatePresentation::darkPalette() ? 1 : 0);
    if (const auto known = icons.constFind(fullKey); known != icons.constEnd())
        return known.value();
    return icons.insert(fullKey, build()).value();
}

} // namespace

QIcon StateIcon::forState(RunState state)
{
    return cached(int(state), [state] {
        const QColor fill = StatePresentation::fill(state);
        const QColor outline = fill.darker(140);
        switch (state) {
        case RunState::Succeeded:
            return make(QColor(0x2e, 0x8b, 0x3e), QColor(0x1e, 0x6b, 0x2e), Mark::Check);
        case RunState::Failed:
        case RunState::TimedOut:
        case RunState::Interrupted:
            return make(QColor(0xd3, 0x2f, 0x2f), QColor(0xa0, 0x20, 0x20), Mark::Cross);
        case RunState::Running:
        case RunState::Queued:
        case RunState::Waiting:
            return make(QColor(0x1e, 0x6f, 0xd9), QColor(0x15, 0x55, 0xa8), Mark::Dot);
        case RunState::Paused:
        case RunState::Cancelled:
            return make(fill, outline, Mark::None);
        }
        return make(fill, outline, Mark::None);
    });
}

QIcon StateIcon::forChain(std::optional<RunState> lastState, bool enabled)
{
    if (!enabled)
        return cached(100, [] { return make({}, QColor(0x8a, 0x8a, 0x8a), Mark::Slash); });
    if (!lastState)
        return cached(101, [] { return make({}, QColor(0x9a, 0xa0, 0xa6), Mark::None); });
    return forState(*lastState);
}

QIcon StateIcon::failureBadge()
{
    return cached(
        102, [] { return make(QColor(0xd3, 0x2f, 0x2f), QColor(0xa0, 0x20, 0x20), Mark::Bang); });
}

QIcon StateIcon::forConnection(ConnectionCheck::State state)
{
    return cached(110 + int(state), [state] {
        switch (state) {
        case ConnectionCheck::State::Checking:
            return make({}, QColor(0x1e, 0x6f, 0xd9), Mark::None);
        case ConnectionCheck::State::Connected:
            return make(QColor(0x2e, 0x8b, 0x3e), QColor(0x1e, 0x6b, 0x2e), Mark::Check);
        case ConnectionCheck::State::ReadOnly:
            return make(QColor(0xc7, 0x7c, 0x02), QColor(0x9a, 0x5f, 0x00), Mark::Bang);
        case ConnectionCheck::State::Failed:
            return make(QColor(0xd3, 0x2f, 0x2f), QColor(0xa0, 0x20, 0x20), Mark::Cross);
        }
        return make({}, QColor(0x9a, 0xa0, 0xa6), Mark::None);
    });
}

} // namespace hg
