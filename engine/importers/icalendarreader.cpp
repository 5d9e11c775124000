#include "icalendarreader.h"

extern "C" {
#include <libical/ical.h>
}

#include <memory>

namespace hg {
namespace {

// An event recurring forever is expanded to lastYear; this bounds a daily rule too.
constexpr int maxOccurrencesPerEvent = 40000;

QDate dateOf(const icaltimetype &time)
{
    return QDate(time.year, time.month, time.day);
}

// The days an occurrence starting at `start` covers, given the event's length in days.
Calendar::Range rangeOf(const icaltimetype &start, qint64 extraDays, const QString &summary)
{
    const QDate first = dateOf(start);
    return {first, first.addDays(std::max<qint64>(0, extraDays)), summary};
}

struct ComponentFree
{
    void operator()(icalcomponent *component) const { icalcomponent_free(component); }
};

} // namespace

Result<QList<Calendar::Range>> ICalendarReader::read(const QByteArray &ics, int lastYear)
{
    const std::unique_ptr<icalcomponent, ComponentFree> root(
        icalparser_parse_string(ics.constData()));
    if (!root)
        return Error::invalid(tr("not an iCalendar file: libical could not read it"));
    icalcomponent *calendar = root.get();
    if (icalcomponent_isa(calendar) != ICAL_VCALENDAR_COMPONENT)
        calendar = icalcomponent_get_first_component(root.get(), ICAL_VCALENDAR_COMPONENT);
    if (!calendar)
        return Error::invalid(tr("not an iCalendar file: it has no VCALENDAR"));
    QList<Calendar::Range> ranges;
    int events = 0;
    for (icalcomponent *event = icalcomponent_get_first_component(calendar, ICAL_VEVENT_COMPONENT);
         event; event = icalcomponent_get_next_component(calendar, ICAL_VEVENT_COMPONENT)) {
        const icaltimetype start = icalcomponent_get_dtstart(event);
        if (icaltime_is_null_time(start) || !dateOf(start).isValid())
            continue;
        ++events;
        const QString summary = QString::fromUtf8(icalcomponent_get_summary(event));
        // DTEND of an all-day event is the day after its last; a timed event ending at
        // midnight ends the day before too.
        icaltimetype end = icalcomponent_get_dtend(event);
        qint64 extraDays = 0;
        if (!icaltime_is_null_time(end)) {
            QDate last = dateOf(end);
            if (end.is_date || (end.hour == 0 && end.minute == 0 && end.second == 0))
                last = last.addDays(-1);
            extraDays = dateOf(start).daysTo(last);
        }
        QList<QDate> excluded;
        for (icalproperty *ex = icalcomponent_get_first_property(event, ICAL_EXDATE_PROPERTY); ex;
             ex = icalcomponent_get_next_property(event, ICAL_EXDATE_PROPERTY))
            excluded << dateOf(icalproperty_get_exdate(ex));
        icalproperty *rule = icalcomponent_get_first_property(event, ICAL_RRULE_PROPERTY);
        if (!rule) {
            ranges << rangeOf(start, extraDays, summary);
        } else {
            const icalrecurrencetype recurrence = icalproperty_get_rrule(rule);
            icalrecur_iterator *it = icalrecur_iterator_new(recurrence, start);
            if (!it)
                return Error::invalid(
                    tr("event '%1': its repetition rule cannot be read").arg(summary));
            int count = 0;
            for (icaltimetype at = icalrecur_iterator_next(it);
                 !icaltime_is_null_time(at) && at.year <= lastYear
                 && count < maxOccurrencesPerEvent;
                 at = icalrecur_iterator_next(it), ++count) {
                if (!excluded.contains(dateOf(at)))
                    ranges << rangeOf(at, extraDays, summary);
            }
            icalrecur_iterator_free(it);
        }
        for (icalproperty *extra = icalcomponent_get_first_property(event, ICAL_RDATE_PROPERTY);
             extra; extra = icalcomponent_get_next_property(event, ICAL_RDATE_PROPERTY)) {
            const icaldatetimeperiodtype date = icalproperty_get_rdate(extra);
            if (!icaltime_is_null_time(date.time))
                ranges << rangeOf(date.time, extraDays, summary);
        }
    }
    if (events == 0)
        return Error::invalid(tr("the iCalendar file holds no events"));
    return ranges;
}

} // namespace hg
