#include "pginterval.h"

#include <QHash>
#include <QRegularExpression>

#include <cmath>

namespace hg {
namespace {

double unitSeconds(const QString &unit)
{
    static const QHash<QString, double> units = [] {
        QHash<QString, double> table;
        const auto add = [&table](std::initializer_list<const char *> names, double seconds) {
            for (const char *name : names)
                table.insert(QString::fromLatin1(name), seconds);
        };
        add({"microsecond", "microseconds", "us", "usec", "usecs"}, 1e-6);
        add({"millisecond", "milliseconds", "ms", "msec", "msecs"}, 1e-3);
        add({"second", "seconds", "s", "sec", "secs"}, 1);
        add({"minute", "minutes", "m", "min", "mins"}, 60);
        add({"hour", "hours", "h", "hr", "hrs"}, 3600);
        add({"day", "days", "d"}, 86400);
        add({"week", "weeks", "w"}, 7 * 86400);
        add({"month", "months", "mon", "mons"}, 30 * 86400);
        add({"year", "years", "y", "yr", "yrs"}, 365.25 * 86400);
        add({"decade", "decades"}, 3652.5 * 86400);
        add({"century", "centuries"}, 36525.0 * 86400);
        add({"millennium", "millennia", "millenniums"}, 365250.0 * 86400);
        return table;
    }();
    return units.value(unit, -1);
}

Result<double> parseIso(const QString &text)
{
    static const QRegularExpression iso(QStringLiteral(
        R"(^P(?:(\d+(?:\.\d+)?)Y)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)W)?(?:(\d+(?:\.\d+)?)D)?)"
        R"((?:T(?:(\d+(?:\.\d+)?)H)?(?:(\d+(?:\.\d+)?)M)?(?:(\d+(?:\.\d+)?)S)?)?$)"));
    const QRegularExpressionMatch match = iso.match(text);
    if (!match.hasMatch() || text == QLatin1String("P") || text.endsWith(QLatin1Char('T')))
        return Error::invalid(
            QCoreApplication::translate("hg::PgInterval", "'%1' is not an ISO 8601 duration")
                .arg(text));
    const double factors[] = {365.25 * 86400, 30 * 86400, 7 * 86400, 86400, 3600, 60, 1};
    double total = 0;
    for (int i = 0; i < 7; ++i)
        total += match.captured(i + 1).toDouble() * factors[i];
    return total;
}

} // namespace

Result<qint64> PgInterval::parseSeconds(const QString &input)
{
    QString text = input.trimmed().toLower();
    if (text.startsWith(QLatin1Char('@')))
        text = text.mid(1).trimmed(); // PostgreSQL's verbose style: "@ 1 minute"
    if (text.isEmpty())
        return Error::invalid(tr("interval is empty"));

    double total = 0;
    if (text.startsWith(QLatin1Char('p'))) {
        const Result<double> iso = parseIso(text.toUpper());
        if (!iso)
            return iso.error();
        total = iso.value();
    } else {
        // Quantity-unit pairs ("2 hours", "1h30m") and an optional clock part ("02:30[:10]").
        static const QRegularExpression token(QStringLiteral(
            R"(\s*(?:(\d+):(\d{1,2})(?::(\d{1,2}(?:\.\d+)?))?|([+-]?\d+(?:\.\d+)?)\s*([a-z]+)|(\d+(?:\.\d+)?)\s*$))"));
        qsizetype position = 0;
        while (position < text.size()) {
            const QRegularExpressionMatch match =
                token.match(text, position, QRegularExpression::NormalMatch,
                            QRegularExpression::AnchorAtOffsetMatchOption);
            if (!match.hasMatch() || match.capturedLength() == 0)
                return Error::invalid(tr("'%1' is not an interval: cannot read '%2'")
                                          .arg(input.trimmed(), text.mid(position).trimmed()));
            if (!match.captured(1).isEmpty()) {
                total += match.captured(1).toDouble() * 3600 + match.captured(2).toDouble() * 60
                         + match.captured(3).toDouble();
            } else if (!match.captured(5).isEmpty()) {
                const double seconds = unitSeconds(match.captured(5));
                if (seconds < 0)
                    return Error::invalid(
                        tr("'%1' is not an interval unit").arg(match.captured(5)));
                total += match.captured(4).toDouble() * seconds;
            } else {
                total +=
                    match.captured(6).toDouble(); // a bare number counts seconds, as in PostgreSQL
            }
            position = match.capturedEnd();
        }
    }
    // A bound keeps fire-time arithmetic far from overflow (the fuzzer found
    // "@every 222222222220 y" wrapping around).
    constexpr double maximumSeconds = 100 * 365.25 * 86400;
    if (!(total <= maximumSeconds))
        return Error::invalid(tr("interval '%1' is longer than 100 years").arg(input.trimmed()));
    const qint64 seconds = std::llround(total);
    if (seconds < 1)
        return Error::invalid(tr("interval '%1' must be at least one second").arg(input.trimmed()));
    return seconds;
}

} // namespace hg
