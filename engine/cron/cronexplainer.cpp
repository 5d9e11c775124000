#include "cronexplainer.h"

#include <bit>
#include <functional>

namespace hg {
namespace {

// A name with the comment that tells its uses apart, translated where it is used.
struct Name
{
    const char *source;
    const char *comment;
};

QString translated(const Name &name)
{
    return QCoreApplication::translate("hg::CronExplainer", name.source, name.comment);
}

const Name spokenMonths[] = {QT_TRANSLATE_NOOP3("hg::CronExplainer", "January", "month"),
                             QT_TRANSLATE_NOOP3("hg::CronExplainer", "February", "month"),
                             QT_TRANSLATE_NOOP3("hg::CronExplainer", "March", "month"),
                             QT_TRANSLATE_NOOP3("hg::CronExplainer", "April", "month"),
                             QT_TRANSLATE_NOOP3("hg::CronExplainer", "May", "month"),
                             QT_TRANSLATE_NOOP3("hg::CronExplainer", "June", "month"),
                             QT_TRANSLATE_NOOP3("hg::CronExplainer", "July", "month"),
                             QT_TRANSLATE_NOOP3("hg::CronExplainer", "August", "month"),
                             QT_TRANSLATE_NOOP3("hg::CronExplainer", "September", "month"),
                             QT_TRANSLATE_NOOP3("hg::CronExplainer", "October", "month"),
                             QT_TRANSLATE_NOOP3("hg::CronExplainer", "November", "month"),
                             QT_TRANSLATE_NOOP3("hg::CronExplainer", "December", "month")};

// One day: "the 2nd Monday of the month", "if it is a Monday".
const Name spokenDays[] = {QT_TRANSLATE_NOOP3("hg::CronExplainer", "Sunday", "one day"),
                           QT_TRANSLATE_NOOP3("hg::CronExplainer", "Monday", "one day"),
                           QT_TRANSLATE_NOOP3("hg::CronExplainer", "Tuesday", "one day"),
                           QT_TRANSLATE_NOOP3("hg::CronExplainer", "Wednesday", "one day"),
                           QT_TRANSLATE_NOOP3("hg::CronExplainer", "Thursday", "one day"),
                           QT_TRANSLATE_NOOP3("hg::CronExplainer", "Friday", "one day"),
                           QT_TRANSLATE_NOOP3("hg::CronExplainer", "Saturday", "one day")};

// Every such day, after "on": "on Monday through Friday" (German: "montags bis freitags").
const Name everyDayNames[] = {
    QT_TRANSLATE_NOOP3("hg::CronExplainer", "Sunday", "every week on this day"),
    QT_TRANSLATE_NOOP3("hg::CronExplainer", "Monday", "every week on this day"),
    QT_TRANSLATE_NOOP3("hg::CronExplainer", "Tuesday", "every week on this day"),
    QT_TRANSLATE_NOOP3("hg::CronExplainer", "Wednesday", "every week on this day"),
    QT_TRANSLATE_NOOP3("hg::CronExplainer", "Thursday", "every week on this day"),
    QT_TRANSLATE_NOOP3("hg::CronExplainer", "Friday", "every week on this day"),
    QT_TRANSLATE_NOOP3("hg::CronExplainer", "Saturday", "every week on this day")};

// An interval's parts, singular and plural: "2 hours and 30 minutes".
const char *const amounts[][2] = {{QT_TRANSLATE_NOOP("hg::CronExplainer", "%1 day"),
                                   QT_TRANSLATE_NOOP("hg::CronExplainer", "%1 days")},
                                  {QT_TRANSLATE_NOOP("hg::CronExplainer", "%1 hour"),
                                   QT_TRANSLATE_NOOP("hg::CronExplainer", "%1 hours")},
                                  {QT_TRANSLATE_NOOP("hg::CronExplainer", "%1 minute"),
                                   QT_TRANSLATE_NOOP("hg::CronExplainer", "%1 minutes")},
                                  {QT_TRANSLATE_NOOP("hg::CronExplainer", "%1 second"),
                                   QT_TRANSLATE_NOOP("hg::CronExplainer", "%1 seconds")}};

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
    //: The last two items of a list; %1 may itself be a list joined with ", ".
    return QCoreApplication::translate("hg::CronExplainer", "%1 and %2")
        .arg(parts.mid(0, parts.size() - 1).join(QLatin1String(", ")), parts.last());
}

QString ordinal(int n)
{
    if (n % 100 < 11 || n % 100 > 13) {
        if (n % 10 == 1)
            return QCoreApplication::translate("hg::CronExplainer", "%1st", "ordinal: 1st, 21st")
                .arg(n);
        if (n % 10 == 2)
            return QCoreApplication::translate("hg::CronExplainer", "%1nd", "ordinal: 2nd, 22nd")
                .arg(n);
        if (n % 10 == 3)
            return QCoreApplication::translate("hg::CronExplainer", "%1rd", "ordinal: 3rd, 23rd")
                .arg(n);
    }
    return QCoreApplication::translate("hg::CronExplainer", "%1th", "ordinal: 4th, 11th, 12th")
        .arg(n);
}

QString number(int n)
{
    return QString::number(n);
}

QString twoDigits(int n)
{
    return QString::number(n).rightJustified(2, QLatin1Char('0'));
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
            parts << QCoreApplication::translate("hg::CronExplainer", "%1 through %2",
                                                 "a range: Monday through Friday, 9 through 17")
                         .arg(name(values.at(i)), name(values.at(j)));
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
        return tr("Once each time the engine starts");
    case CronExpression::Kind::Every:
    case CronExpression::Kind::After: {
        const qint64 s = e.intervalSeconds();
        QStringList parts;
        const qint64 units[] = {86400, 3600, 60, 1};
        qint64 rest = s;
        for (int i = 0; i < 4; ++i) {
            const qint64 n = rest / units[i];
            rest %= units[i];
            if (n > 0)
                parts << tr(amounts[i][n == 1 ? 0 : 1]).arg(n);
        }
        //: %1 is an interval: "2 hours and 30 minutes"
        return e.kind() == CronExpression::Kind::Every
                   ? tr("Every %1").arg(joinAnd(parts))
                   : tr("%1 after the previous run ends").arg(joinAnd(parts));
    }
    case CronExpression::Kind::Cron:
        break;
    }
    // The time comes first, then the day, month and year, in English as in German.
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
        //: %1 is one or more clock times: "At 09:00 and 17:00"
        return tr("At %1").arg(joinAnd(times));
    }

    const auto unitPhrase = [](const QList<int> &values, int high, bool ofSeconds) -> QString {
        if (values.size() == high + 1)
            return ofSeconds ? tr("every second") : tr("every minute");
        if (const int step = uniformStep(values, 0, high))
            return (ofSeconds ? tr("every %1 seconds") : tr("every %1 minutes")).arg(step);
        const QString list = describeValues(values, number);
        if (values.size() == 1)
            return (ofSeconds ? tr("at second %1") : tr("at minute %1")).arg(list);
        //: %1 is a list: "0 and 30", "0 through 10"
        return (ofSeconds ? tr("at seconds %1") : tr("at minutes %1")).arg(list);
    };
    QStringList parts;
    if (!(seconds.size() == 1 && seconds.first() == 0))
        parts << unitPhrase(seconds, 59, true);
    if (!(seconds.size() > 1 && minutes.size() == 60))
        parts << unitPhrase(minutes, 59, false);
    if (hours.size() != 24) {
        if (const int step = uniformStep(hours, 0, 23)) {
            parts << tr("every %1 hours").arg(step);
        } else if (hours.size() == 1) {
            parts << tr("during hour %1", "one hour").arg(twoDigits(hours.first()));
        } else {
            //: %1 is a list of hours: "09 through 17"
            parts << tr("during hour %1", "several hours").arg(describeValues(hours, twoDigits));
        }
    }
    QString text = parts.join(QLatin1String(", "));
    text[0] = text.at(0).toUpper();
    return text;
}

QString CronExplainer::dayPhrase() const
{
    const CronSpec &s = m_expression.spec();
    // What follows "on": English reads "on day 1 of the month"; a translation may put its
    // preposition into each phrase instead ("am Tag 1 des Monats").
    QString ofMonth;
    if (s.lastDayOfMonth && s.nearestWeekday) {
        ofMonth = s.lastDayOffset > 0
                      ? tr("the weekday nearest %1 day(s) before the last day of the month")
                            .arg(s.lastDayOffset)
                      : tr("the weekday nearest the last day of the month");
    } else if (s.lastDayOfMonth) {
        ofMonth = s.lastDayOffset > 0
                      ? tr("%1 day(s) before the last day of the month").arg(s.lastDayOffset)
                      : tr("the last day of the month");
    } else if (s.nearestWeekday) {
        ofMonth =
            tr("the weekday nearest day %1 of the month").arg(std::countr_zero(s.daysOfMonth));
    } else if (s.daysOfMonth != 0xFFFFFFFEu) {
        //: %1 is a list of days: "1 and 15", "1 through 5"
        ofMonth = tr("day %1 of the month").arg(describeValues(valuesOf(s.daysOfMonth), number));
    }
    QString ofWeek;
    const QList<int> weekdays = valuesOf(s.daysOfWeek);
    const auto dayName = [](int v) {
        return translated(spokenDays[v]);
    };
    if (s.nthWeekday > 0) {
        //: %1 is an ordinal ("2nd"), %2 a day: "the 2nd Monday of the month"
        ofWeek = tr("the %1 %2 of the month").arg(ordinal(s.nthWeekday), dayName(weekdays.first()));
    } else if (s.lastWeekdayOfMonth) {
        ofWeek = tr("the last %1 of the month").arg(dayName(weekdays.first()));
    } else if (weekdays.size() != 7) {
        ofWeek = describeValues(weekdays, [](int v) { return translated(everyDayNames[v]); });
    }

    //: %1 is a day of the month: "day 1 of the month", "the last day of the month"
    const auto onMonth = [&] {
        return tr("on %1", "a day of the month").arg(ofMonth);
    };
    //: %1 is days of the week: "Monday through Friday", "the 2nd Monday of the month"
    const auto onWeek = [&] {
        return tr("on %1", "days of the week").arg(ofWeek);
    };
    switch (s.dayRule) {
    case CronSpec::DayRule::DayOfMonthOnly:
        return ofMonth.isEmpty() ? QString() : onMonth();
    case CronSpec::DayRule::DayOfWeekOnly:
        return ofWeek.isEmpty() ? QString() : onWeek();
    case CronSpec::DayRule::Either:
        //: unix cron fires on either: "on day 1 of the month or on Monday"
        return tr("on %1 or on %2").arg(ofMonth, ofWeek);
    case CronSpec::DayRule::Both:
        if (ofMonth.isEmpty())
            return ofWeek.isEmpty() ? QString() : onWeek();
        if (ofWeek.isEmpty())
            return onMonth();
        //: %1 is a day of the month, %2 one or more single days: "on day 1 of the month if
        //: it is a Monday"
        return tr("on %1 if it is a %2").arg(ofMonth, describeValues(weekdays, dayName));
    }
    return {};
}

QString CronExplainer::monthPhrase() const
{
    const QList<int> months = valuesOf(m_expression.spec().months);
    if (months.size() == 12)
        return {};
    if (const int step = uniformStep(months, 1, 12))
        return tr("every %1 months from January").arg(step);
    //: %1 is a list of months: "January and July", "March through May"
    return tr("in %1", "months").arg(describeValues(months, [](int v) {
        return translated(spokenMonths[v - 1]);
    }));
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
    const QString list = describeValues(years, number);
    //: %1 is a list of years: "2027 through 2029"
    return years.size() == 1 ? tr("in %1", "one year").arg(list)
                             : tr("in %1", "several years").arg(list);
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
            warnings << tr("day-of-month and day-of-week are both restricted: unix cron "
                           "fires when EITHER matches (pg_timetable needs BOTH, Quartz "
                           "takes only one)");
        else if (domRestricted && dowRestricted)
            warnings << tr("a day field starting with '*' (%1) counts as unrestricted in "
                           "cronie, so BOTH day fields must match; most other crons "
                           "would fire when EITHER matches")
                            .arg(s.dayOfMonthStar ? dom : dow);
        break;
    case CronDialect::PgTimetable:
        if (domRestricted && dowRestricted)
            warnings << tr("day-of-month and day-of-week are both restricted: "
                           "pg_timetable fires only when BOTH match (unix cron fires "
                           "when EITHER matches)");
        break;
    case CronDialect::Quartz:
        warnings << tr("Quartz: '?' marks the day field that is ignored; day-of-week "
                       "counts 1 = Sunday to 7 = Saturday (unix cron: 0 = Sunday)");
        break;
    case CronDialect::Auto:
        break;
    }
    return warnings;
}

} // namespace hg
