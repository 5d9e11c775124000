#include "systemdcalendar.h"

#include <QHash>
#include <QStringList>
#include <QTimeZone>

namespace hg {

Result<SystemdCalendar::Cron> SystemdCalendar::toCron(const QString &spec)
{
    // systemd.time(7): the shorthands, as their normalized forms.
    static const QHash<QString, QString> shorthands{
        {QStringLiteral("minutely"), QStringLiteral("*-*-* *:*:00")},
        {QStringLiteral("hourly"), QStringLiteral("*-*-* *:00:00")},
        {QStringLiteral("daily"), QStringLiteral("*-*-* 00:00:00")},
        {QStringLiteral("weekly"), QStringLiteral("Mon *-*-* 00:00:00")},
        {QStringLiteral("monthly"), QStringLiteral("*-*-01 00:00:00")},
        {QStringLiteral("quarterly"), QStringLiteral("*-01,04,07,10-01 00:00:00")},
        {QStringLiteral("semiannually"), QStringLiteral("*-01,07-01 00:00:00")},
        {QStringLiteral("yearly"), QStringLiteral("*-01-01 00:00:00")},
        {QStringLiteral("annually"), QStringLiteral("*-01-01 00:00:00")}};
    QStringList tokens = spec.simplified().split(QLatin1Char(' '), Qt::SkipEmptyParts);
    if (tokens.isEmpty())
        return Error::invalid(tr("OnCalendar= is empty"));
    Cron cron;
    if (tokens.size() > 1 && !tokens.constLast().contains(QLatin1Char(':'))
        && !tokens.constLast().front().isDigit() && !tokens.constLast().startsWith(QLatin1Char('*'))
        && QTimeZone(tokens.constLast().toUtf8()).isValid()) {
        cron.timeZone = tokens.takeLast();
    }
    if (tokens.size() == 1 && shorthands.contains(tokens.constFirst().toLower()))
        tokens = shorthands.value(tokens.constFirst().toLower()).split(QLatin1Char(' '));

    QString weekday = QStringLiteral("*");
    QString date = QStringLiteral("*-*-*");
    QString time = QStringLiteral("00:00:00");
    for (const QString &token : std::as_const(tokens)) {
        if (token.contains(QLatin1Char(':')))
            time = token;
        else if (token.front().isDigit() || token.startsWith(QLatin1Char('*')))
            date = token;
        else if (token.front().isLetter()) {
            const Result<QString> days = weekdays(token);
            if (!days)
                return days.error();
            weekday = days.value();
        } else
            return Error::invalid(tr("'%1' is neither a weekday, a date nor a time").arg(token));
    }

    if (date.contains(QLatin1Char('~')))
        return Error::invalid(
            tr("'%1': the last days of a month ('~') have no cron counterpart").arg(date));
    QStringList dateParts = date.split(QLatin1Char('-'));
    if (dateParts.size() == 2) // MM-DD
        dateParts.prepend(QStringLiteral("*"));
    if (dateParts.size() != 3)
        return Error::invalid(tr("'%1' is not a date (YYYY-MM-DD or MM-DD)").arg(date));
    if (dateParts.at(0) != QLatin1String("*"))
        return Error::invalid(
            tr("year '%1': cron has no years; only '*' can be imported").arg(dateParts.at(0)));
    QStringList timeParts = time.split(QLatin1Char(':'));
    if (timeParts.size() == 2)
        timeParts << QStringLiteral("00");
    if (timeParts.size() != 3)
        return Error::invalid(tr("'%1' is not a time (HH:MM or HH:MM:SS)").arg(time));
    if (timeParts.at(2).contains(QLatin1Char('.'))) {
        const QString whole = timeParts.at(2).section(QLatin1Char('.'), 0, 0);
        const QString fraction = timeParts.at(2).section(QLatin1Char('.'), 1);
        if (fraction.count(QLatin1Char('0')) != fraction.size())
            return Error::invalid(
                tr("'%1': fractions of a second have no cron counterpart").arg(time));
        timeParts[2] = whole;
    }

    const Result<QString> second = field(timeParts.at(2), 0, 59, tr("second"));
    const Result<QString> minute = field(timeParts.at(1), 0, 59, tr("minute"));
    const Result<QString> hour = field(timeParts.at(0), 0, 23, tr("hour"));
    const Result<QString> day = field(dateParts.at(2), 1, 31, tr("day"));
    const Result<QString> month = field(dateParts.at(1), 1, 12, tr("month"));
    for (const Result<QString> *part : {&second, &minute, &hour, &day, &month}) {
        if (!*part)
            return part->error();
    }
    if (day.value() != QLatin1String("*") && weekday != QLatin1String("*"))
        return Error::invalid(tr("'%1' needs both a weekday and a day of the month to match; "
                                 "cron fires when either matches")
                                  .arg(spec.simplified()));
    cron.expression = QStringList{second.value(), minute.value(), hour.value(),
                                  day.value(),    month.value(),  weekday}
                          .join(QLatin1Char(' '));
    return cron;
}

Result<QString> SystemdCalendar::field(const QString &text, int minimum, int maximum,
                                       const QString &what)
{
    QStringList items;
    for (const QString &item : text.split(QLatin1Char(','))) {
        QString range = item.section(QLatin1Char('/'), 0, 0);
        const QString step =
            item.contains(QLatin1Char('/')) ? item.section(QLatin1Char('/'), 1) : QString();
        range.replace(QStringLiteral(".."), QStringLiteral("-"));
        QStringList bounds = range.split(QLatin1Char('-'));
        bool ok = range == QLatin1String("*");
        if (!ok) {
            ok = bounds.size() <= 2;
            for (QString &bound : bounds) {
                bool number = false;
                const int value = bound.toInt(&number);
                ok = ok && number && value >= minimum && value <= maximum;
                bound = QString::number(value);
            }
        }
        bool stepOk = true;
        if (!step.isEmpty())
            stepOk = step.toInt(&stepOk) > 0 && stepOk;
        if (!ok || !stepOk)
            return Error::invalid(
                tr("%1 '%2' is not a value, range or repetition between %3 and %4")
                    .arg(what, item)
                    .arg(minimum)
                    .arg(maximum));
        QString converted = range == QLatin1String("*") ? range : bounds.join(QLatin1Char('-'));
        if (!step.isEmpty()) {
            if (bounds.size() == 1 && range != QLatin1String("*")) // "0/15": from 0 to the end
                converted += QStringLiteral("-%1").arg(maximum);
            converted += QLatin1Char('/') + QString::number(step.toInt());
        }
        items << converted;
    }
    return items.join(QLatin1Char(','));
}

Result<QString> SystemdCalendar::weekdays(const QString &text)
{
    static const QStringList names{
        QStringLiteral("mon"), QStringLiteral("tue"), QStringLiteral("wed"), QStringLiteral("thu"),
        QStringLiteral("fri"), QStringLiteral("sat"), QStringLiteral("sun")};
    const auto dayOf = [](const QString &name) -> QString {
        const QString lower = name.toLower();
        for (const QString &day : names) {
            if (lower.size() >= 3 && day.startsWith(lower.left(3))
                && (lower.size() == 3
                    || QStringLiteral("monday tuesday wednesday thursday friday "
                                      "saturday sunday")
                           .split(QLatin1Char(' '))
                           .contains(lower)))
                return day.toUpper();
        }
        return {};
    };
    QStringList items;
    for (const QString &item : text.split(QLatin1Char(','))) {
        QString range = item;
        range.replace(QStringLiteral(".."), QStringLiteral("-"));
        QStringList converted;
        for (const QString &name : range.split(QLatin1Char('-'))) {
            const QString day = dayOf(name);
            if (day.isEmpty())
                return Error::invalid(tr("'%1' is not a weekday (Mon..Sun)").arg(name));
            converted << day;
        }
        if (converted.size() > 2)
            return Error::invalid(tr("'%1' is not a weekday range").arg(item));
        items << converted.join(QLatin1Char('-'));
    }
    return items.join(QLatin1Char(','));
}

} // namespace hg
