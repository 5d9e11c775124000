#include "clicontext.h"
#include "importers/icalendarreader.h"
#include "store/calendarrepository.h"
#include "subcommands.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonObject>

namespace hg {
namespace {

constexpr quint8 weekendDays = (1u << Qt::Saturday) | (1u << Qt::Sunday);

QString weekdaysText(quint8 weekdays)
{
    QStringList names;
    for (int day = Qt::Monday; day <= Qt::Sunday; ++day) {
        if (weekdays & (1u << day))
            names << QLocale::c().dayName(day, QLocale::ShortFormat);
    }
    return names.join(QLatin1Char(','));
}

// "2026-12-24,2026-12-31..2027-01-06": dates and inclusive ranges.
Result<QList<Calendar::Range>> parseDates(const QString &text)
{
    QList<Calendar::Range> ranges;
    for (const QString &item : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        const QStringList ends = item.trimmed().split(QStringLiteral(".."));
        const QDate first = QDate::fromString(ends.first().trimmed(), Qt::ISODate);
        const QDate last =
            ends.size() == 2 ? QDate::fromString(ends.at(1).trimmed(), Qt::ISODate) : first;
        if (ends.size() > 2 || !first.isValid() || !last.isValid() || last < first)
            return Error::invalid(
                QStringLiteral("--dates: '%1' is not a date (YYYY-MM-DD) or a range "
                               "(YYYY-MM-DD..YYYY-MM-DD)")
                    .arg(item.trimmed()));
        ranges << Calendar::Range{first, last, {}};
    }
    return ranges;
}

int addCalendar(CliContext &context, const QStringList &args)
{
    QCommandLineParser parser;
    const QCommandLineOption ics(QStringLiteral("ics"),
                                 QStringLiteral("An iCalendar file: its events' days (public "
                                                "holidays, say), repetitions included."),
                                 QStringLiteral("FILE"));
    const QCommandLineOption dates(
        QStringLiteral("dates"),
        QStringLiteral("Dates and ranges: 2026-12-24,2026-12-31..2027-01-06."),
        QStringLiteral("LIST"));
    const QCommandLineOption weekends(QStringLiteral("weekends"),
                                      QStringLiteral("Every Saturday and Sunday."));
    const QCommandLineOption description(QStringLiteral("description"),
                                         QStringLiteral("What the calendar is for."),
                                         QStringLiteral("TEXT"));
    parser.addOptions({ics, dates, weekends, description});
    Store *store = context.prepare(parser, args,
                                   QStringLiteral("calendar add NAME [--ics FILE] [--dates LIST] "
                                                  "[--weekends] [--description TEXT]"),
                                   {QStringLiteral("NAME")});
    if (!store)
        return context.exitCode();
    if (!parser.isSet(ics) && !parser.isSet(dates) && !parser.isSet(weekends))
        return context.usage(
            QStringLiteral("calendar add: give its days with --ics, --dates or --weekends"));
    Calendar calendar;
    calendar.name = parser.positionalArguments().at(0);
    calendar.description = parser.value(description);
    if (parser.isSet(weekends))
        calendar.weekdays = weekendDays;
    if (parser.isSet(dates)) {
        const Result<QList<Calendar::Range>> listed = parseDates(parser.value(dates));
        if (!listed)
            return context.usage(listed.error().message);
        calendar.ranges << listed.value();
    }
    if (parser.isSet(ics)) {
        QFile file(parser.value(ics));
        if (!file.open(QIODevice::ReadOnly))
            return context.usage(QStringLiteral("--ics: cannot read %1: %2")
                                     .arg(parser.value(ics), file.errorString()));
        const Result<QList<Calendar::Range>> events = ICalendarReader::read(file.readAll());
        if (!events)
            return context.usage(
                QStringLiteral("--ics: %1: %2").arg(parser.value(ics), events.error().message));
        calendar.ranges << events.value();
    }
    const Result<Calendar> added = CalendarRepository(*store).add(calendar);
    if (!added)
        return context.fail(added.error());
    context.out() << added->id << '\n';
    context.out().flush();
    return ExitOk;
}

int listCalendars(CliContext &context, const QStringList &args)
{
    QCommandLineParser parser;
    Store *store =
        context.prepare(parser, args, QStringLiteral("calendar list [--json]"), {}, true);
    if (!store)
        return context.exitCode();
    const Result<QList<Calendar>> calendars = CalendarRepository(*store).list();
    if (!calendars)
        return context.fail(calendars.error());
    if (context.json()) {
        QJsonArray array;
        for (const Calendar &calendar : calendars.value()) {
            QJsonArray ranges;
            for (const Calendar::Range &range : calendar.ranges)
                ranges << QJsonObject{{QStringLiteral("first"), range.first.toString(Qt::ISODate)},
                                      {QStringLiteral("last"), range.last.toString(Qt::ISODate)},
                                      {QStringLiteral("summary"), range.summary}};
            array << QJsonObject{
                {QStringLiteral("id"), calendar.id},
                {QStringLiteral("name"), calendar.name},
                {QStringLiteral("description"), calendar.description},
                {QStringLiteral("weekdays"),
                 QJsonArray::fromStringList(
                     weekdaysText(calendar.weekdays).split(QLatin1Char(','), Qt::SkipEmptyParts))},
                {QStringLiteral("ranges"), ranges}};
        }
        context.printJson(array);
        return ExitOk;
    }
    QList<QStringList> rows;
    for (const Calendar &calendar : calendars.value()) {
        const QDate today = QDate::currentDate();
        QDate next;
        for (const Calendar::Range &range : calendar.ranges) {
            if (range.last >= today && (!next.isValid() || range.first < next))
                next = std::max(range.first, today);
        }
        rows << QStringList{QString::number(calendar.id),
                            calendar.name,
                            weekdaysText(calendar.weekdays),
                            QString::number(calendar.ranges.size()),
                            next.isValid() ? next.toString(Qt::ISODate) : QStringLiteral("-"),
                            calendar.description};
    }
    context.printTable({QStringLiteral("ID"), QStringLiteral("NAME"), QStringLiteral("WEEKDAYS"),
                        QStringLiteral("RANGES"), QStringLiteral("NEXT DATE"),
                        QStringLiteral("DESCRIPTION")},
                       rows);
    return ExitOk;
}

int removeCalendar(CliContext &context, const QStringList &args)
{
    QCommandLineParser parser;
    Store *store =
        context.prepare(parser, args, QStringLiteral("calendar rm NAME"), {QStringLiteral("NAME")});
    if (!store)
        return context.exitCode();
    const Status removed = CalendarRepository(*store).remove(parser.positionalArguments().at(0));
    return removed ? ExitOk : context.fail(removed.error());
}

} // namespace

int runCalendarCommand(CliContext &context, const QString &verb, const QStringList &args)
{
    if (verb == QLatin1String("add"))
        return addCalendar(context, args);
    if (verb == QLatin1String("list"))
        return listCalendars(context, args);
    if (verb == QLatin1String("rm"))
        return removeCalendar(context, args);
    return context.usage(
        QStringLiteral("unknown command 'calendar %1'; use add, list or rm").arg(verb));
}

} // namespace hg
