// Next-fire computations per second (scripts/bench), each beside a peer measured in the same
// run: python3-croniter computing the same expression's next fires in the same zone for about a
// second, in a child process. Asserts nothing about time, so it never flakes.
#include "benchsupport.h"
#include "cron/cronexpression.h"
#include "cron/zonerules.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QProcess>
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
    const char *croniter; // the same schedule in croniter's syntax (seconds last)
    bool dayOr;           // croniter's day_or: false where both day fields must match
};

// croniter's get_next() from the same start, restarted past 2100 as measure() restarts; prints
// croniter's version and calls per second.
constexpr const char *croniterLoop = R"(import sys, time
import importlib.metadata
from datetime import datetime
from zoneinfo import ZoneInfo
from croniter import croniter
expression, zone, day_or = sys.argv[1], ZoneInfo(sys.argv[2]), sys.argv[3] == "1"
start = datetime.fromtimestamp(1767225600, zone)
it = croniter(expression, start, day_or=day_or)
calls = 0
began = time.perf_counter()
while time.perf_counter() - began < 1.0:
    for _ in range(100):
        try:
            at = it.get_next(float)
        except Exception:
            at = 4102444800
        if at >= 4102444800:
            it = croniter(expression, start, day_or=day_or)
    calls += 100
print(importlib.metadata.version("croniter"), calls / (time.perf_counter() - began))
)";

// Calls per second of the peer; 0 when it cannot run (no python3-croniter): then no figure.
double croniterRate(const Case &c, QString *version, QString *error)
{
    QProcess python;
    python.start(QStringLiteral("/usr/bin/python3"),
                 {QStringLiteral("-c"), QString::fromLatin1(croniterLoop),
                  QString::fromLatin1(c.croniter), QString::fromLatin1(c.zone),
                  c.dayOr ? QStringLiteral("1") : QStringLiteral("0")});
    if (!python.waitForFinished(30000) || python.exitStatus() != QProcess::NormalExit
        || python.exitCode() != 0) {
        *error = python.errorString() + QLatin1Char(' ')
                 + QString::fromLocal8Bit(python.readAllStandardError()).trimmed();
        return 0;
    }
    const QStringList printed = QString::fromLatin1(python.readAllStandardOutput()).split(u' ');
    *version = printed.value(0);
    return printed.value(1).trimmed().toDouble();
}

void report(QTextStream &out, const QString &label, double perSecond, const Case &peer)
{
    QString version;
    QString error;
    const double croniter = croniterRate(peer, &version, &error);
    if (croniter <= 0) {
        out << "  (no peer figure: python3-croniter failed: " << error << ")\n";
        return;
    }
    bench::Figure figure;
    figure.bench = QStringLiteral("bench_cron");
    figure.what = label;
    figure.value = perSecond;
    figure.unit = QStringLiteral("calls/s");
    figure.higherIsBetter = true;
    figure.kind = bench::Beside::Peer;
    figure.besideWhat = QStringLiteral("croniter %1 get_next(), '%2'%3")
                            .arg(version, QString::fromLatin1(peer.croniter),
                                 peer.dayOr ? QString() : QStringLiteral(", day_or=False"));
    figure.beside = croniter;
    bench::report(out, figure);
}

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
        {"*/5 minutes, UTC", "*/5 * * * *", CronDialect::Unix, "UTC", "*/5 * * * *", true},
        {"*/5 minutes, Europe/Berlin", "*/5 * * * *", CronDialect::Unix, "Europe/Berlin",
         "*/5 * * * *", true},
        {"weekdays 02:30, UTC", "30 2 * * 1-5", CronDialect::Unix, "UTC", "30 2 * * 1-5", true},
        {"weekdays 02:30, Europe/Berlin", "30 2 * * 1-5", CronDialect::Unix, "Europe/Berlin",
         "30 2 * * 1-5", true},
        {"every 10 s, Australia/Lord_Howe", "*/10 * * * * *", CronDialect::Seconds,
         "Australia/Lord_Howe", "* * * * * */10", true},
        {"quartz 2nd Monday, Europe/Berlin", "0 0 12 ? * MON#2", CronDialect::Quartz,
         "Europe/Berlin", "0 12 * * mon#2 0", true},
        {"sparse unix 0 0 29 2 1 (Feb 29 or Mondays in Feb), UTC", "0 0 29 2 1", CronDialect::Unix,
         "UTC", "0 0 29 2 1", true},
        {"sparsest pgtimetable 0 0 29 2 1 (Feb 29 that is a Monday), UTC", "0 0 29 2 1",
         CronDialect::PgTimetable, "UTC", "0 0 29 2 1", false},
    };
    qint64 checksum = 0;
    out << "cron next-fire computations per second (one core):\n";
    for (const Case &c : cases) {
        const CronExpression expression =
            CronExpression::parse(QString::fromLatin1(c.expression), c.dialect).value();
        const auto zone = ZoneRules::forZone(QTimeZone(c.zone));
        const double perSecond = measure(expression, *zone, checksum);
        report(out, QString::fromLatin1(c.label), perSecond, c);
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
    report(out, QStringLiteral("*/5 minutes, Europe/Berlin, through QDateTime"),
           double(calls) * 1e9 / double(timer.nsecsElapsed()), cases[1]);
    out << "(checksum " << checksum % 1000 << ")\n";
    return 0;
}
