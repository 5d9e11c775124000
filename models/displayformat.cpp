#include "displayformat.h"

#include <QLocale>

namespace hg {
namespace {

QString local(const QDateTime &time, const QString &format)
{
    return time.isValid() ? QLocale().toString(time.toLocalTime(), format) : QString();
}

} // namespace

QString DisplayFormat::timeOfDay(const QDateTime &time)
{
    return local(time, QStringLiteral("HH:mm:ss"));
}

QString DisplayFormat::preciseTimeOfDay(const QDateTime &time)
{
    return local(time, QStringLiteral("HH:mm:ss.zzz"));
}

QString DisplayFormat::dateTime(const QDateTime &time)
{
    return local(time, QStringLiteral("yyyy-MM-dd HH:mm:ss"));
}

QString DisplayFormat::preciseDateTime(const QDateTime &time)
{
    return local(time, QStringLiteral("yyyy-MM-dd HH:mm:ss.zzz"));
}

QString DisplayFormat::weekdayDateTime(const QDateTime &time)
{
    return local(time, QStringLiteral("ddd yyyy-MM-dd HH:mm:ss"));
}

QString DisplayFormat::zonedDateTime(const QDateTime &time, const QTimeZone &zone)
{
    if (!time.isValid())
        return {};
    return QLocale().toString(time.toTimeZone(zone), QStringLiteral("ddd yyyy-MM-dd HH:mm:ss t"));
}

QString DisplayFormat::soon(const QDateTime &time, const QDateTime &now)
{
    if (!time.isValid())
        return {};
    const qint64 days = now.toLocalTime().date().daysTo(time.toLocalTime().date());
    return days >= 0 && days < 7 ? local(time, QStringLiteral("ddd HH:mm:ss"))
                                 : weekdayDateTime(time);
}

QString DisplayFormat::soonZoned(const QDateTime &time, const QDateTime &now)
{
    if (!time.isValid())
        return {};
    const qint64 days = now.toTimeZone(time.timeZone()).date().daysTo(time.date());
    return QLocale().toString(time, days >= 0 && days < 7
                                        ? QStringLiteral("ddd HH:mm:ss t")
                                        : QStringLiteral("ddd yyyy-MM-dd HH:mm:ss t"));
}

QString DisplayFormat::recent(const QDateTime &time, const QDateTime &now)
{
    if (!time.isValid())
        return {};
    const qint64 days = now.toLocalTime().date().daysTo(time.toLocalTime().date());
    if (days == 0)
        return timeOfDay(time);
    return days > -7 && days < 7 ? local(time, QStringLiteral("ddd HH:mm:ss")) : dateTime(time);
}

QString DisplayFormat::day(QDate date)
{
    return date.isValid() ? QLocale().toString(date, QStringLiteral("ddd d MMM")) : QString();
}

QString DisplayFormat::relative(const QDateTime &time, const QDateTime &now)
{
    if (!time.isValid() || !now.isValid())
        return {};
    const qint64 ms = now.msecsTo(time);
    if (ms > -1000 && ms < 1000)
        return tr("now");
    // Whole seconds: "in 42.7 s" says more than anyone wants to know about a fire time.
    const qint64 seconds = (ms < 0 ? -ms : ms) / 1000;
    const QString span = seconds < 60 ? tr("%1 s").arg(seconds) : duration(seconds * 1000);
    return ms > 0 ? tr("in %1").arg(span) : tr("%1 ago").arg(span);
}

QString DisplayFormat::duration(qint64 ms)
{
    if (ms < 0)
        return QLatin1Char('-') + duration(-ms);
    if (ms < 1000)
        return tr("%1 ms").arg(ms);
    if (ms < 60000) {
        const qint64 tenths = ms / 100; // cut, not rounded: 59.96 s is not yet a minute
        return tr("%1 s").arg(QLocale().toString(double(tenths) / 10.0, 'f', 1));
    }
    const qint64 seconds = ms / 1000;
    const auto twoDigits = [](qint64 n) {
        return QStringLiteral("%1").arg(n, 2, 10, QLatin1Char('0'));
    };
    if (seconds < 3600)
        return tr("%1 min %2 s").arg(seconds / 60).arg(twoDigits(seconds % 60));
    if (seconds < 86400)
        return tr("%1 h %2 min").arg(seconds / 3600).arg(twoDigits(seconds / 60 % 60));
    return tr("%1 d %2 h").arg(seconds / 86400).arg(twoDigits(seconds / 3600 % 24));
}

} // namespace hg
