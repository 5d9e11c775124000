// Next-fire computations per second (scripts/bench). Prints figures; asserts nothing about
// time, so it never flakes: the targets live in the issue and the notes, not here.
#include "cron/cronexpression.h"
#include "cron/zonerules.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTextStream>
#include <QTimeZone>

using namespace hg;

namespace {

struct Case
{
    const char *label;
    const char *expression;
    CronDialect dialect;
    const char *zone;
};

// Repeats next() from a moving start for about a second; returns calls per second.
double measure(const CronExpression &expression, const ZoneRules &zone, qint64 &checksum)
{
    QElapsedTimer timer;
    timer.start();
    qint64 calls = 0;
    qint64 at = 1767225600; // 2026-01-01T00:00:00Z
    while (timer.elapsed() < 1000) {
        for (int i = 0; i < 1000; ++i) {
            const std::optional<qint64> next = expression.nextSeconds(at, zone);
            // Restart from the start of 2026 when a schedule runs out or leaves 2100.
            at = next && *next < 4102444800 ? *next : 1767225600 + (calls % 86400);
            checksum += at;
        }
        calls += 1000;
    }
    return double(calls) * 1000.0 / double(timer.nsecsElapsed() / 1000000);
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QTextStream out(stdout);
    const Case cases[] = {
        {"*/5 minutes, UTC", "*/5 * * * *", CronDialect::Unix, "UTC"},
        {"*/5 minutes, Europe/Berlin", "*/5 * * * *", CronDialect::Unix, "Europe/Berlin"},
        {"weekdays 02:30, UTC", "30 2 * * 1-5", CronDialect::Unix, "UTC"},
        {"weekdays 02:30, Europe/Berlin", "30 2 * * 1-5", CronDialect::Unix, "Europe/Berlin"},
        {"every 10 s, Australia/Lord_Howe", "*/10 * * * * *", CronDialect::Seconds,
         "Australia/Lord_Howe"},
        {"quartz 2nd Monday, Europe/Berlin", "0 0 12 ? * MON#2", CronDialect::Quartz,
         "Europe/Berlin"},
        {"sparse unix 0 0 29 2 1 (Feb 29 or Mondays in Feb), UTC", "0 0 29 2 1", CronDialect::Unix,
         "UTC"},
        {"sparsest pgtimetable 0 0 29 2 1 (Feb 29 that is a Monday), UTC", "0 0 29 2 1",
         CronDialect::PgTimetable, "UTC"},
    };
    qint64 checksum = 0;
    out << "cron next-fire computations per second (one core):\n";
    for (const Case &c : cases) {
        const CronExpression expression =
            CronExpression::parse(QString::fromLatin1(c.expression), c.dialect).value();
        const auto zone = ZoneRules::forZone(QTimeZone(c.zone));
        const double perSecond = measure(expression, *zone, checksum);
        out << QStringLiteral("  %1  %2/s\n")
                   .arg(QString::fromLatin1(c.label).leftJustified(62))
                   .arg(QString::number(perSecond, 'f', 0).rightJustified(10));
        out.flush();
    }
    // The QDateTime API around it (what the CLI and GUI call), for comparison.
    const CronExpression every5 = CronExpression::parse(QStringLiteral("*/5 * * * *")).value();
    const QTimeZone berlin("Europe/Berlin");
    QDateTime at(QDate(2026, 1, 1), QTime(0, 0), Qt::UTC);
    QElapsedTimer timer;
    timer.start();
    qint64 calls = 0;
    while (timer.elapsed() < 1000) {
        at = *every5.next(at, berlin);
        ++calls;
    }
    out << QStringLiteral("  %1  %2/s\n")
               .arg(QStringLiteral("*/5 minutes, Europe/Berlin, through QDateTime")
                        .leftJustified(62))
               .arg(QString::number(double(calls) * 1e9 / double(timer.nsecsElapsed()), 'f', 0)
                        .rightJustified(10));
    out << "(checksum " << checksum % 1000 << ")\n";
    return 0;
}
