#include "cronexplainer.h"

#include <bit>
#include <functional>

namespace hg {
namespace {

const char *const monthNames[] = {"January",   "February", "March",    "April",
                                  "May",       "June",     "July",     "August",
                                  "September", "October",  "November", "December"};
const char *const dayNames[] = {"Sunday",   "Monday", "Tuesday", "Wednesday",
                                "Thursday", "Friday", "Saturday"};

QList<int> valuesOf(std::uint64_t bits)
{
    QList<int> values;
    while (bits) {
        values << std::countr_zero(bits);
        bits &= bits - 1;
    }
    return values;
}

QString joinAnd(const QStringList &parts)
{
    if (parts.size() <= 1)
        return parts.join(QString());
    return parts.mid(0, parts.size() - 1).join(QLatin1String(", ")) + QLatin1String(" and ")
           + parts.last();
}

QString ordinal(int n)
{
    const char *suffix = "th";
    if (n % 100 < 11 || n % 100 > 13) {
        if (n % 10 == 1)
            suffix = "st";
        else if (n % 10 == 2)
            suffix = "nd";
        else if (n % 10 == 3)
            suffix = "rd";
    }
    return QString::number(n) + QLatin1String(suffix);
}

// "1 through 5, 10 and 12": consecutive runs of three or more become ranges.
QString describeValues(const QList<int> &values, const std::function<QString(int)> &name)
{
    QStringList parts;
    for (qsizetype i = 0; i < values.size();) {
        qsizetype j = i;
        while (j + 1 < values.size() && values.at(j + 1) == values.at(j) + 1)
            ++j;
        if (j - i >= 2) {
            parts << name(values.at(i)) + QLatin1String(" through ") + name(values.at(j));
        } else {
            for (qsizetype k = i; k <= j; ++k)
                parts << name(values.at(k));
        }
        i = j + 1;
    }
    return joinAnd(parts);
}

// A step from the field's start across the whole field ("*/15"): its step, else 0.
int uniformStep(const QList<int> &values, int low, int high)
{
    if (values.size() < 3 || values.first() != low)
        return 0;
    const int step = values.at(1) - values.at(0);
    for (qsizetype i = 1; i < values.size(); ++i) {
        if (values.at(i) - values.at(i - 1) != step)
            return 0;
    }
    return values.last() + step > high ? step : 0;
}

QString twoDigits(int n)
{
    return QString::number(n).rightJustified(2, QLatin1Char('0'));
}

} // namespace

CronExplainer::CronExplainer(const CronExpression &expression)
    : m_expression(expression)
{}

QString CronExplainer::describe(const QString &zoneName) const
{
    const CronExpression &e = m_expression;
    const QString zone = zoneName.isEmpty() ? QString() : QLatin1String(", ") + zoneName;
    switch (e.kind()) {
    case CronExpression::Kind::Reboot:
        return QStringLiteral("Once each time the engine starts");
    case CronExpression::Kind::Every:
    case CronExpression::Kind::After: {
        const qint64 s = e.intervalSeconds();
        QStringList parts;
        const qint64 units[] = {86400, 3600, 60, 1};
        const char *names[] = {"day", "hour", "minute", "second"};
        qint64 rest = s;
        for (int i = 0; i < 4; ++i) {
            const qint64 n = rest / units[i];
            rest %= units[i];
            if (n > 0)
                parts << QStringLiteral("%1 %2%3").arg(n).arg(
                    QLatin1String(names[i]), n == 1 ? QString() : QStringLiteral("s"));
        }
        return e.kind() == CronExpression::Kind::Every
                   ? QStringLiteral("Every %1").arg(joinAnd(parts))
                   : QStringLiteral("%1 after the previous run ends").arg(joinAnd(parts));
    }
    case CronExpression::Kind::Cron:
        break;
    }
    QStringList phrases{timePhrase()};
    for (const QString &phrase : {dayPhrase(), monthPhrase(), yearPhrase()}) {
        if (!phrase.isEmpty())
            phrases << phrase;
    }
    return phrases.join(QLatin1Char(' ')) + zone;
}

QString CronExplainer::timePhrase() const
{
    const CronSpec &s = m_expression.spec();
    const QList<int> seconds = valuesOf(s.seconds);
    const QList<int> minutes = valuesOf(s.minutes);
    const QList<int> hours = valuesOf(s.hours);

    // Few exact times read best as clock times: "At 02:30", "At 09:00 and 17:00".
    if (seconds.size() == 1 && minutes.size() * hours.size() <= 4) {
        QStringList times;
        for (int h : hours) {
            for (int m : minutes) {
                QString time = twoDigits(h) + QLatin1Char(':') + twoDigits(m);
                if (seconds.first() != 0)
                    time += QLatin1Char(':') + twoDigits(seconds.first());
                times << time;
            }
        }
        return QStringLiteral("At ") + joinAnd(times);
    }

    const auto unitPhrase = [](const QList<int> &values, int high, const char *unit,
                               const char *units) -> QString {
        if (values.size() == high + 1)
            return QStringLiteral("every %1").arg(QLatin1String(unit));
        if (const int step = uniformStep(values, 0, high))
            return QStringLiteral("every %1 %2").arg(step).arg(QLatin1String(units));
        return QStringLiteral("at %1 %2")
            .arg(QLatin1String(values.size() == 1 ? unit : units),
                 describeValues(values, [](int v) { return QString::number(v); }));
    };
    QStringList parts;
    if (!(seconds.size() == 1 && seconds.first() == 0))
        parts << unitPhrase(seconds, 59, "second", "seconds");
    if (!(seconds.size() > 1 && minutes.size() == 60))
        parts << unitPhrase(minutes, 59, "minute", "minutes");
    if (hours.size() != 24) {
        if (const int step = uniformStep(hours, 0, 23))
            parts << QStringLiteral("every %1 hours").arg(step);
        else
            parts << QStringLiteral("during hour %1").arg(describeValues(hours, [](int v) {
                return twoDigits(v);
            }));
    }
    QString text = parts.join(QLatin1String(", "));
    text[0] = text.at(0).toUpper();
    return text;
}

QString CronExplainer::dayPhrase() const
{
    const CronSpec &s = m_expression.spec();
    QString ofMonth;
    if (s.lastDayOfMonth) {
        ofMonth =
            s.lastDayOffset > 0
                ? QStringLiteral("%1 day(s) before the last day of the month").arg(s.lastDayOffset)
                : QStringLiteral("the last day of the month");
        if (s.nearestWeekday)
            ofMonth = QStringLiteral("the weekday nearest ") + ofMonth;
    } else if (s.nearestWeekday) {
        ofMonth = QStringLiteral("the weekday nearest day %1 of the month")
                      .arg(std::countr_zero(s.daysOfMonth));
    } else if (s.daysOfMonth != 0xFFFFFFFEu) {
        ofMonth = QStringLiteral("day %1 of the month")
                      .arg(describeValues(valuesOf(s.daysOfMonth),
                                          [](int v) { return QString::number(v); }));
    }
    QString ofWeek;
    const QList<int> weekdays = valuesOf(s.daysOfWeek);
    const auto dayName = [](int v) {
        return QString::fromLatin1(dayNames[v]);
    };
    if (s.nthWeekday > 0)
        ofWeek = QStringLiteral("the %1 %2 of the month")
                     .arg(ordinal(s.nthWeekday), dayName(weekdays.first()));
    else if (s.lastWeekdayOfMonth)
        ofWeek = QStringLiteral("the last %1 of the month").arg(dayName(weekdays.first()));
    else if (weekdays.size() != 7)
        ofWeek = describeValues(weekdays, dayName);

    switch (s.dayRule) {
    case CronSpec::DayRule::DayOfMonthOnly:
        return ofMonth.isEmpty() ? QString() : QLatin1String("on ") + ofMonth;
    case CronSpec::DayRule::DayOfWeekOnly:
        return ofWeek.isEmpty() ? QString() : QLatin1String("on ") + ofWeek;
    case CronSpec::DayRule::Either:
        return QStringLiteral("on %1 or on %2").arg(ofMonth, ofWeek);
    case CronSpec::DayRule::Both:
        if (ofMonth.isEmpty())
            return ofWeek.isEmpty() ? QString() : QLatin1String("on ") + ofWeek;
        if (ofWeek.isEmpty())
            return QLatin1String("on ") + ofMonth;
        return QStringLiteral("on %1 if it is a %2").arg(ofMonth, ofWeek);
    }
    return {};
}

QString CronExplainer::monthPhrase() const
{
    const QList<int> months = valuesOf(m_expression.spec().months);
    if (months.size() == 12)
        return {};
    if (const int step = uniformStep(months, 1, 12))
        return QStringLiteral("every %1 months from January").arg(step);
    return QLatin1String("in ")
           + describeValues(months, [](int v) { return QString::fromLatin1(monthNames[v - 1]); });
}

QString CronExplainer::yearPhrase() const
{
    const CronSpec &s = m_expression.spec();
    if (s.anyYear)
        return {};
    QList<int> years;
    for (int y = CronSpec::firstYear; y <= CronSpec::lastYear; ++y) {
        if (s.yearAllowed(y))
            years << y;
    }
    return QLatin1String("in ") + describeValues(years, [](int v) { return QString::number(v); });
}

QStringList CronExplainer::warnings() const
{
    const CronExpression &e = m_expression;
    if (e.kind() != CronExpression::Kind::Cron)
        return {};
    const CronSpec &s = e.spec();
    const QStringList fields = e.fields();
    const bool seconds = e.dialect() == CronDialect::Seconds || e.dialect() == CronDialect::Quartz;
    const QString dom = fields.value(seconds ? 3 : 2);
    const QString dow = fields.value(seconds ? 5 : 4);
    const bool domRestricted = dom != QLatin1String("*") && dom != QLatin1String("?");
    const bool dowRestricted = dow != QLatin1String("*") && dow != QLatin1String("?");
    QStringList warnings;
    switch (e.dialect()) {
    case CronDialect::Unix:
    case CronDialect::Seconds:
        if (s.dayRule == CronSpec::DayRule::Either)
            warnings << QStringLiteral(
                "day-of-month and day-of-week are both restricted: unix cron "
                "fires when EITHER matches (pg_timetable needs BOTH, Quartz "
                "takes only one)");
        else if (domRestricted && dowRestricted)
            warnings << QStringLiteral(
                            "a day field starting with '*' (%1) counts as unrestricted in "
                            "cronie, so BOTH day fields must match; most other crons "
                            "would fire when EITHER matches")
                            .arg(s.dayOfMonthStar ? dom : dow);
        break;
    case CronDialect::PgTimetable:
        if (domRestricted && dowRestricted)
            warnings << QStringLiteral("day-of-month and day-of-week are both restricted: "
                                       "pg_timetable fires only when BOTH match (unix cron fires "
                                       "when EITHER matches)");
        break;
    case CronDialect::Quartz:
        warnings << QStringLiteral("Quartz: '?' marks the day field that is ignored; day-of-week "
                                   "counts 1 = Sunday to 7 = Saturday (unix cron: 0 = Sunday)");
        break;
    case CronDialect::Auto:
        break;
    }
    return warnings;
}

} // namespace hg
