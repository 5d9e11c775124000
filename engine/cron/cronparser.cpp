#include "cronparser.h"

#include "civiltime.h"
#include "pginterval.h"

#include <QRegularExpression>

namespace hg {
namespace {

enum FieldIndex { Second, Minute, Hour, DayOfMonth, Month, DayOfWeek, Year, FieldCount };

// The names in Error::field, matched by code; fieldTitles are the same fields in messages.
const char *const fieldNames[FieldCount] = {"second", "minute",      "hour", "day-of-month",
                                            "month",  "day-of-week", "year"};
const struct
{
    const char *source;
    const char *comment;
} fieldTitles[FieldCount] = {
    QT_TRANSLATE_NOOP3("hg::CronParser", "second", "a cron field"),
    QT_TRANSLATE_NOOP3("hg::CronParser", "minute", "a cron field"),
    QT_TRANSLATE_NOOP3("hg::CronParser", "hour", "a cron field"),
    QT_TRANSLATE_NOOP3("hg::CronParser", "day-of-month", "a cron field"),
    QT_TRANSLATE_NOOP3("hg::CronParser", "month", "a cron field"),
    QT_TRANSLATE_NOOP3("hg::CronParser", "day-of-week", "a cron field"),
    QT_TRANSLATE_NOOP3("hg::CronParser", "year", "a cron field"),
};

const char *const monthNames[] = {"JAN", "FEB", "MAR", "APR", "MAY", "JUN",
                                  "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"};
const char *const dayNames[] = {"SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"};

struct Macro
{
    const char *name;
    const char *fields;
};
const Macro macros[] = {{"@yearly", "0 0 1 1 *"},  {"@annually", "0 0 1 1 *"},
                        {"@monthly", "0 0 1 * *"}, {"@weekly", "0 0 * * 0"},
                        {"@daily", "0 0 * * *"},   {"@midnight", "0 0 * * *"},
                        {"@hourly", "0 * * * *"}};

// "cron: " says which part of Hourglass complains; it is a name, not translated, and the
// schedule dialog drops it beside the field.
QString cronMessage(const QString &text)
{
    return QLatin1String("cron: ") + text;
}

bool isDigits(QStringView text)
{
    if (text.isEmpty())
        return false;
    for (QChar c : text) {
        if (c < QLatin1Char('0') || c > QLatin1Char('9'))
            return false;
    }
    return true;
}

} // namespace

Result<CronExpression> CronParser::parse(const QString &text, CronDialect dialect)
{
    return CronParser(text, dialect).run();
}

CronParser::CronParser(const QString &text, CronDialect dialect)
    : m_text(text)
    , m_requested(dialect)
{
    m_expression.m_text = text.trimmed();
    m_expression.m_dialect = dialect;
}

Error CronParser::fieldError(int fieldIndex, int column, const QString &problem) const
{
    const QString title = tr(fieldTitles[fieldIndex].source, fieldTitles[fieldIndex].comment);
    return Error::invalidField(
        QLatin1String(fieldNames[fieldIndex]), column,
        cronMessage(tr("%1 field (column %2): %3").arg(title, QString::number(column), problem)));
}

int CronParser::fieldMinimum(int fieldIndex) const
{
    constexpr int minimum[FieldCount] = {0, 0, 0, 1, 1, 0, CronSpec::firstYear};
    if (fieldIndex == DayOfWeek && m_expression.m_dialect == CronDialect::Quartz)
        return 1;
    return minimum[fieldIndex];
}

int CronParser::fieldMaximum(int fieldIndex) const
{
    constexpr int maximum[FieldCount] = {59, 59, 23, 31, 12, 7, CronSpec::lastYear};
    return maximum[fieldIndex];
}

Result<CronExpression> CronParser::run()
{
    const QString text = m_text.trimmed();
    if (text.isEmpty())
        return Error::invalid(cronMessage(tr("the expression is empty")));
    if (text.startsWith(QLatin1Char('@'))) {
        if (Status macro = parseMacro(); !macro)
            return macro.error();
        if (m_expression.m_kind != CronExpression::Kind::Cron)
            return m_expression;
    } else if (Status split = splitFields(); !split) {
        return split.error();
    }
    if (Status detected = detectDialect(); !detected)
        return detected.error();
    if (Status parsed = parseFields(); !parsed)
        return parsed.error();
    if (Status canFire = checkCanFire(); !canFire)
        return canFire.error();
    return m_expression;
}

Status CronParser::parseMacro()
{
    const QString text = m_text.trimmed();
    const QString word = text.section(QLatin1Char(' '), 0, 0, QString::SectionSkipEmpty).toLower();
    const QString rest =
        text.mid(text.indexOf(word, 0, Qt::CaseInsensitive) + word.size()).trimmed();
    const CronDialect dialect = m_requested;
    const auto refuse = [&](const QString &why) {
        return Error::invalid(cronMessage(tr("%1 (column 1): %2").arg(word, why)));
    };

    if (word == QLatin1String("@every") || word == QLatin1String("@after")) {
        if (dialect != CronDialect::Auto && dialect != CronDialect::PgTimetable)
            return refuse(tr("is pg_timetable syntax; use the pgtimetable dialect"));
        const Result<qint64> seconds = PgInterval::parseSeconds(rest);
        if (!seconds)
            return Error::invalid(cronMessage(
                tr("%1 (column %2): %3")
                    .arg(word, QString::number(word.size() + 2), seconds.error().message)));
        m_expression.m_kind = word == QLatin1String("@every") ? CronExpression::Kind::Every
                                                              : CronExpression::Kind::After;
        m_expression.m_intervalSeconds = seconds.value();
        m_expression.m_dialect = CronDialect::PgTimetable;
        if (dialect == CronDialect::Auto)
            m_expression.m_detectionNote =
                tr("%1 (%2 is pg_timetable syntax)").arg(enumName(CronDialect::PgTimetable), word);
        return {};
    }
    if (!rest.isEmpty())
        return refuse(tr("takes nothing after it, found '%1'").arg(rest));
    if (word == QLatin1String("@reboot")) {
        if (dialect == CronDialect::Quartz)
            return refuse(tr("Quartz has no @reboot"));
        m_expression.m_kind = CronExpression::Kind::Reboot;
        m_expression.m_dialect = dialect == CronDialect::Auto ? CronDialect::PgTimetable : dialect;
        if (dialect == CronDialect::Auto)
            m_expression.m_detectionNote = QStringLiteral("pgtimetable (@reboot)");
        return {};
    }
    for (const Macro &macro : macros) {
        if (word != QLatin1String(macro.name))
            continue;
        if (dialect == CronDialect::Quartz || dialect == CronDialect::PgTimetable)
            return refuse(tr("%1 has no macros; write the fields instead (%2)")
                              .arg(enumName(dialect), QLatin1String(macro.fields)));
        QString fields = QString::fromLatin1(macro.fields);
        if (dialect == CronDialect::Seconds)
            fields.prepend(QLatin1String("0 "));
        if (dialect == CronDialect::Auto) {
            m_expression.m_dialect = CronDialect::Unix;
            m_expression.m_detectionNote =
                tr("%1 (%2 is a cron macro)").arg(enumName(CronDialect::Unix), word);
        }
        // Every field of a macro points back at the macro itself for error columns.
        for (const QString &part : fields.split(QLatin1Char(' ')))
            m_fields.append(Field{part, 1});
        return {};
    }
    return refuse(tr("unknown macro; known are @yearly @annually @monthly @weekly "
                     "@daily @midnight @hourly @reboot @every @after"));
}

Status CronParser::splitFields()
{
    static const QRegularExpression nonSpace(QStringLiteral("\\S+"));
    auto it = nonSpace.globalMatch(m_text);
    while (it.hasNext()) {
        const QRegularExpressionMatch match = it.next();
        m_fields.append(Field{match.captured(), int(match.capturedStart()) + 1});
    }
    return {};
}

Status CronParser::detectDialect()
{
    const qsizetype count = m_fields.size();
    CronDialect dialect = m_expression.m_dialect;
    if (dialect == CronDialect::Auto) {
        static const QRegularExpression quartzMarks(QStringLiteral("[?LW#]"),
                                                    QRegularExpression::CaseInsensitiveOption);
        if (count == 5) {
            dialect = CronDialect::Unix;
            m_expression.m_detectionNote = tr("%1 (5 fields)").arg(enumName(dialect));
        } else if (count == 6 && !m_fields.at(3).text.contains(quartzMarks)
                   && !m_fields.at(5).text.contains(quartzMarks)) {
            dialect = CronDialect::Seconds;
            m_expression.m_detectionNote =
                tr("%1 (6 fields, no Quartz '?', L, W or #)").arg(enumName(dialect));
        } else if (count == 6 || count == 7) {
            dialect = CronDialect::Quartz;
            m_expression.m_detectionNote =
                (count == 7 ? tr("%1 (7 fields)") : tr("%1 (6 fields with '?', L, W or #)"))
                    .arg(enumName(dialect));
        } else {
            return Error::invalid(cronMessage(tr("expected 5 fields (unix), 6 (seconds or "
                                                 "Quartz) or 7 (Quartz with year), found %1")
                                                  .arg(count)));
        }
        m_expression.m_dialect = dialect;
    }
    const auto expect = [&](const QString &what) {
        return Error::invalid(
            cronMessage(tr("the %1 dialect takes %2, found %3 field(s)")
                            .arg(enumName(dialect), what, QString::number(count))));
    };
    switch (dialect) {
    case CronDialect::Unix:
    case CronDialect::PgTimetable:
        if (count != 5)
            return expect(tr("5 fields (minute hour day-of-month month day-of-week)"));
        m_fields.prepend(Field{QStringLiteral("0"), 0}); // these dialects fire on second 0
        break;
    case CronDialect::Seconds:
        if (count != 6)
            return expect(tr("6 fields (second minute hour day-of-month month day-of-week)"));
        m_hasSeconds = true;
        break;
    case CronDialect::Quartz:
        if (count != 6 && count != 7)
            return expect(tr("6 or 7 fields (second minute hour day-of-month month "
                             "day-of-week [year])"));
        m_hasSeconds = true;
        break;
    case CronDialect::Auto:
        break;
    }
    if (m_fields.size() == 6)
        m_fields.append(Field{QStringLiteral("*"), 0}); // no year field: any year
    for (int i = 0; i < FieldCount; ++i) {
        if (i == Second && !m_hasSeconds)
            continue;
        if (i == Year && m_expression.m_dialect != CronDialect::Quartz)
            continue;
        m_expression.m_fields << m_fields.at(i).text;
    }
    return {};
}

Status CronParser::parseFields()
{
    CronSpec &spec = m_expression.m_spec;
    std::uint64_t bits = 0;
    if (Status s = parseList(Second, spec.seconds); !s)
        return s;
    if (Status s = parseList(Minute, spec.minutes); !s)
        return s;
    if (Status s = parseList(Hour, bits); !s)
        return s;
    spec.hours = std::uint32_t(bits);
    if (Status s = parseList(Month, bits); !s)
        return s;
    spec.months = std::uint16_t(bits);

    const QString hourText = m_fields.at(Hour).text;
    spec.repeatsInOverlap =
        hourText.startsWith(QLatin1Char('*')) || hourText.contains(QLatin1Char('/'));
    spec.cronieWildcard = hourText.startsWith(QLatin1Char('*'))
                          || m_fields.at(Minute).text.startsWith(QLatin1Char('*'));
    spec.wholeMinutes = spec.seconds == 1;
    spec.dayOfMonthStar = m_fields.at(DayOfMonth).text.startsWith(QLatin1Char('*'));
    spec.dayOfWeekStar = m_fields.at(DayOfWeek).text.startsWith(QLatin1Char('*'));

    if (m_expression.m_dialect == CronDialect::Quartz) {
        if (Status s = parseDayOfMonthQuartz(m_fields.at(DayOfMonth)); !s)
            return s;
        if (Status s = parseDayOfWeekQuartz(m_fields.at(DayOfWeek)); !s)
            return s;
        if (Status s = parseYears(m_fields.at(Year)); !s)
            return s;
        return checkDayFields();
    }
    if (Status s = parseList(DayOfMonth, bits); !s)
        return s;
    spec.daysOfMonth = std::uint32_t(bits);
    if (Status s = parseList(DayOfWeek, bits); !s)
        return s;
    spec.daysOfWeek = std::uint8_t(bits);
    if (m_expression.m_dialect == CronDialect::PgTimetable)
        spec.dayRule = CronSpec::DayRule::Both; // is_cron_in_time ANDs every field
    else // cronie: a day field that starts with '*' makes the two fields AND, else OR
        spec.dayRule = spec.dayOfMonthStar || spec.dayOfWeekStar ? CronSpec::DayRule::Both
                                                                 : CronSpec::DayRule::Either;
    return {};
}

Status CronParser::parseList(int fieldIndex, std::uint64_t &bits)
{
    bits = 0;
    const Field &field = m_fields.at(fieldIndex);
    const QStringList items = field.text.split(QLatin1Char(','));
    int column = field.column;
    if (m_expression.m_dialect == CronDialect::PgTimetable && items.size() > 1) {
        // timetable.cron's domain check admits lists of plain numbers only.
        for (const QString &item : items) {
            if (!isDigits(item))
                return fieldError(
                    fieldIndex, column,
                    tr("pg_timetable lists may hold plain numbers only, not '%1'").arg(item));
            column += int(item.size()) + 1;
        }
        column = field.column;
    }
    for (const QString &item : items) {
        if (item.isEmpty())
            return fieldError(fieldIndex, column, tr("empty list item"));
        if (Status s = parseItem(fieldIndex, item, column, bits); !s)
            return s;
        column += int(item.size()) + 1;
    }
    return {};
}

Status CronParser::parseValue(int fieldIndex, const QString &text, int column, int &value) const
{
    const CronDialect dialect = m_expression.m_dialect;
    if (isDigits(text)) {
        bool ok = false;
        value = text.toInt(&ok);
        const int low = fieldMinimum(fieldIndex);
        const int high = fieldMaximum(fieldIndex);
        if (!ok || value < low || value > high)
            return fieldError(fieldIndex, column,
                              tr("%1 is out of range %2-%3")
                                  .arg(text, QString::number(low), QString::number(high)));
        return {};
    }
    const bool named = fieldIndex == Month || fieldIndex == DayOfWeek;
    if (named && dialect != CronDialect::PgTimetable && text.size() == 3) {
        const QString upper = text.toUpper();
        const auto *names = fieldIndex == Month ? monthNames : dayNames;
        const int count = fieldIndex == Month ? 12 : 7;
        for (int i = 0; i < count; ++i) {
            if (upper == QLatin1String(names[i])) {
                // Months count from 1; Quartz days count from 1 (SUN), cron days from 0.
                value = fieldIndex == Month || dialect == CronDialect::Quartz ? i + 1 : i;
                return {};
            }
        }
    }
    if (text.isEmpty())
        return fieldError(fieldIndex, column, tr("a number is missing"));
    if (named && dialect == CronDialect::PgTimetable)
        return fieldError(fieldIndex, column,
                          tr("'%1' is not a number (pg_timetable takes no names)").arg(text));
    return fieldError(
        fieldIndex, column,
        (named ? tr("'%1' is not a number or a name") : tr("'%1' is not a number")).arg(text));
}

Status CronParser::parseItem(int fieldIndex, const QString &item, int column, std::uint64_t &bits)
{
    const CronDialect dialect = m_expression.m_dialect;
    const bool quartz = dialect == CronDialect::Quartz;
    const int low = fieldMinimum(fieldIndex);
    const int high = fieldMaximum(fieldIndex);

    QString rangeText = item;
    int step = 1;
    const qsizetype slash = item.indexOf(QLatin1Char('/'));
    if (slash >= 0) {
        const QString stepText = item.mid(slash + 1);
        const int stepColumn = column + int(slash) + 1;
        if (!isDigits(stepText))
            return fieldError(fieldIndex, stepColumn,
                              tr("the step '%1' is not a number").arg(stepText));
        step = stepText.toInt();
        if (step < 1)
            return fieldError(fieldIndex, stepColumn, tr("a step must be at least 1"));
        constexpr int quartzMaximumStep[FieldCount] = {59, 59, 23, 31, 12, 7, 129};
        if (quartz && step > quartzMaximumStep[fieldIndex])
            return fieldError(fieldIndex, stepColumn,
                              tr("a step of %1 is larger than the field").arg(step));
        rangeText = item.left(slash);
        if (rangeText.isEmpty() && quartz)
            rangeText = QStringLiteral("*"); // Quartz reads "/5" as "*/5"
    }

    int first = low;
    int last = high;
    if (rangeText == QLatin1String("*")) {
        if (fieldIndex == DayOfWeek && dialect != CronDialect::Quartz)
            last = 6; // 7 is only another name for Sunday
    } else {
        const qsizetype dash = rangeText.indexOf(QLatin1Char('-'), 1);
        const QString firstText = dash < 0 ? rangeText : rangeText.left(dash);
        if (Status s = parseValue(fieldIndex, firstText, column, first); !s)
            return s;
        if (dash >= 0) {
            if (Status s =
                    parseValue(fieldIndex, rangeText.mid(dash + 1), column + int(dash) + 1, last);
                !s)
                return s;
        } else if (slash >= 0) {
            // cronie refuses "5/15"; Quartz and pg_timetable run it from 5 to the field's end.
            if (dialect == CronDialect::Unix || dialect == CronDialect::Seconds)
                return fieldError(
                    fieldIndex, column,
                    tr("a step needs '*' or a range before it: write %1-%2/%3")
                        .arg(firstText, QString::number(high), QString::number(step)));
        } else {
            last = first;
        }
        if (last < first && !quartz)
            return fieldError(fieldIndex, column, tr("the range %1 runs backwards").arg(rangeText));
    }

    // Quartz ranges may wrap around the end of the field ("FRI-MON", "22-2").
    const int span = high - low + 1;
    const int end = last >= first ? last : last + span;
    for (int v = first; v <= end; v += step) {
        int value = v > high ? v - span : v;
        if (fieldIndex == DayOfWeek)
            value = quartz ? value - 1 : value % 7; // 0 = Sunday; cron's 7 is Sunday too
        bits |= std::uint64_t(1) << value;
    }
    return {};
}

Status CronParser::parseDayOfMonthQuartz(const Field &field)
{
    CronSpec &spec = m_expression.m_spec;
    const QString text = field.text.toUpper();
    if (text == QLatin1String("?")) {
        spec.dayRule = CronSpec::DayRule::DayOfWeekOnly;
        return {};
    }
    spec.dayRule = CronSpec::DayRule::DayOfMonthOnly;
    const bool special = text.contains(QLatin1Char('L')) || text.contains(QLatin1Char('W'));
    if (special && text.contains(QLatin1Char(',')))
        return fieldError(DayOfMonth, field.column,
                          tr("'L' and 'W' cannot be combined with other days"));
    static const QRegularExpression last(QStringLiteral("^L(?:-(\\d+))?(W?)$"));
    static const QRegularExpression weekday(QStringLiteral("^(\\d+)W$"));
    if (const QRegularExpressionMatch m = last.match(text); m.hasMatch()) {
        spec.lastDayOfMonth = true;
        spec.lastDayOffset = m.captured(1).toInt();
        spec.nearestWeekday = !m.captured(2).isEmpty();
        if (spec.lastDayOffset > 30)
            return fieldError(DayOfMonth, field.column + 2,
                              tr("the offset from the last day must be 30 or less"));
        return {};
    }
    if (const QRegularExpressionMatch m = weekday.match(text); m.hasMatch()) {
        int day = 0;
        if (Status s = parseValue(DayOfMonth, m.captured(1), field.column, day); !s)
            return s;
        spec.nearestWeekday = true;
        spec.daysOfMonth = std::uint32_t(1) << day;
        return {};
    }
    if (special)
        return fieldError(DayOfMonth, field.column,
                          tr("'%1' is not a Quartz day (use L, L-n, LW, nW)").arg(field.text));
    std::uint64_t bits = 0;
    if (Status s = parseList(DayOfMonth, bits); !s)
        return s;
    spec.daysOfMonth = std::uint32_t(bits);
    return {};
}

Status CronParser::parseDayOfWeekQuartz(const Field &field)
{
    CronSpec &spec = m_expression.m_spec;
    const QString text = field.text.toUpper();
    if (text == QLatin1String("?")) {
        if (spec.dayRule == CronSpec::DayRule::DayOfWeekOnly)
            return fieldError(DayOfWeek, field.column,
                              tr("'?' may stand in day-of-month or day-of-week, not both"));
        return {};
    }
    if (spec.dayRule != CronSpec::DayRule::DayOfWeekOnly)
        return fieldError(DayOfWeek, field.column,
                          tr("Quartz needs '?' in day-of-month or in day-of-week: it "
                             "cannot use both"));
    if ((text.contains(QLatin1Char('L')) || text.contains(QLatin1Char('#')))
        && text.contains(QLatin1Char(',')))
        return fieldError(DayOfWeek, field.column,
                          tr("'L' and '#' cannot be combined with other days"));
    if (text == QLatin1String("L")) {
        spec.daysOfWeek = 1 << 6; // Quartz: a lone L in day-of-week is 7, Saturday
        return {};
    }
    static const QRegularExpression special(QStringLiteral("^([0-9]+|[A-Z]{3})(L|#(\\d*))$"));
    if (const QRegularExpressionMatch m = special.match(text); m.hasMatch()) {
        int day = 0;
        if (Status s = parseValue(DayOfWeek, m.captured(1), field.column, day); !s)
            return s;
        spec.daysOfWeek = std::uint8_t(1 << (day - 1));
        if (m.captured(2) == QLatin1String("L")) {
            spec.lastWeekdayOfMonth = true;
            return {};
        }
        spec.nthWeekday = m.captured(3).toInt();
        if (spec.nthWeekday < 1 || spec.nthWeekday > 5)
            return fieldError(DayOfWeek, field.column + int(m.capturedStart(3)),
                              tr("'#' must be followed by 1 to 5"));
        return {};
    }
    if (text.contains(QLatin1Char('L')) || text.contains(QLatin1Char('#')))
        return fieldError(
            DayOfWeek, field.column,
            tr("'%1' is not a Quartz day of week (use d, dL or d#n)").arg(field.text));
    std::uint64_t bits = 0;
    if (Status s = parseList(DayOfWeek, bits); !s)
        return s;
    spec.daysOfWeek = std::uint8_t(bits);
    return {};
}

Status CronParser::parseYears(const Field &field)
{
    CronSpec &spec = m_expression.m_spec;
    if (field.text == QLatin1String("*"))
        return {};
    spec.anyYear = false;
    int column = field.column;
    for (const QString &item : field.text.split(QLatin1Char(','))) {
        QString rangeText = item;
        int step = 1;
        if (const qsizetype slash = item.indexOf(QLatin1Char('/')); slash >= 0) {
            step = item.mid(slash + 1).toInt();
            if (step < 1)
                return fieldError(Year, column + int(slash) + 1, tr("a step must be at least 1"));
            rangeText = item.left(slash);
        }
        int first = CronSpec::firstYear;
        int last = CronSpec::lastYear;
        if (rangeText != QLatin1String("*")) {
            const qsizetype dash = rangeText.indexOf(QLatin1Char('-'));
            if (Status s =
                    parseValue(Year, dash < 0 ? rangeText : rangeText.left(dash), column, first);
                !s)
                return s;
            last = first;
            if (dash >= 0) {
                if (Status s =
                        parseValue(Year, rangeText.mid(dash + 1), column + int(dash) + 1, last);
                    !s)
                    return s;
            } else if (item.contains(QLatin1Char('/'))) {
                last = CronSpec::lastYear;
            }
            if (last < first)
                return fieldError(Year, column, tr("the range %1 runs backwards").arg(rangeText));
        }
        for (int year = first; year <= last; year += step)
            spec.years.set(std::size_t(year - CronSpec::firstYear));
        column += int(item.size()) + 1;
    }
    return {};
}

Status CronParser::checkDayFields()
{
    const CronSpec &spec = m_expression.m_spec;
    if (spec.dayRule == CronSpec::DayRule::DayOfWeekOnly && spec.daysOfWeek == 0)
        return fieldError(DayOfWeek, m_fields.at(DayOfWeek).column, tr("no day given"));
    return {};
}

Status CronParser::checkCanFire() const
{
    // Decided from month "shapes" (length and weekday of the 1st), each of which occurs
    // within any 400-year Gregorian cycle: no scan through the centuries.
    const CronExpression &e = m_expression;
    const auto monthCanFire = [&](int daysInMonth, int firstWeekday) {
        for (int day = 1; day <= daysInMonth; ++day) {
            if (CronExpression::dayMatchesShape(e.m_spec, daysInMonth, (firstWeekday + day - 1) % 7,
                                                day))
                return true;
        }
        return false;
    };
    if (!e.m_spec.anyYear) {
        for (int year = CronSpec::firstYear; year <= CronSpec::lastYear; ++year) {
            if (!e.m_spec.yearAllowed(year))
                continue;
            for (int month = 1; month <= 12; ++month) {
                if (!(e.m_spec.months >> month & 1))
                    continue;
                const int weekday = civil::weekdayFromDays(civil::daysFromCivil(year, month, 1));
                if (monthCanFire(civil::daysInMonth(year, month), weekday))
                    return {};
            }
        }
        return Error::invalid(cronMessage(
            tr("'%1' never fires in the years %2").arg(e.m_text, m_fields.at(Year).text)));
    }
    QStringList monthsSeen;
    for (int month = 1; month <= 12; ++month) {
        if (!(e.m_spec.months >> month & 1))
            continue;
        monthsSeen << QString::fromLatin1(monthNames[month - 1]);
        const int lengths[] = {civil::daysInMonth(2001, month), civil::daysInMonth(2000, month)};
        for (int length : lengths) {
            for (int weekday = 0; weekday < 7; ++weekday) {
                if (monthCanFire(length, weekday))
                    return {};
            }
        }
    }
    return Error::invalid(cronMessage(
        tr("'%1' never fires: day-of-month %2 never falls in %3")
            .arg(e.m_text, m_fields.at(DayOfMonth).text, monthsSeen.join(QLatin1String(", ")))));
}

} // namespace hg
