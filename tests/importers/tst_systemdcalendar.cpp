#include "cron/cronparser.h"
#include "importers/systemdcalendar.h"
#include "testservers.h"

#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTest>
#include <QTimeZone>

using namespace hg;

class TestSystemdCalendar final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void toCron_formsPeopleUse_data();
    void toCron_formsPeopleUse();
    void toCron_whatCronCannotSayIsRefused_data();
    void toCron_whatCronCannotSayIsRefused();
    void toCron_firesWhenSystemdAnalyzeSays_data();
    void toCron_firesWhenSystemdAnalyzeSays();
};

void TestSystemdCalendar::toCron_formsPeopleUse_data()
{
    QTest::addColumn<QString>("spec");
    QTest::addColumn<QString>("expression");
    QTest::addColumn<QString>("zone");
    QTest::newRow("daily") << "daily"
                           << "0 0 0 * * *"
                           << "";
    QTest::newRow("weekly") << "weekly"
                            << "0 0 0 * * MON"
                            << "";
    QTest::newRow("quarterly") << "quarterly"
                               << "0 0 0 1 1,4,7,10 *"
                               << "";
    QTest::newRow("weekdays at a time") << "Mon..Fri 02:30"
                                        << "0 30 2 * * MON-FRI"
                                        << "";
    QTest::newRow("first of the month") << "*-*-01 00:00:00"
                                        << "0 0 0 1 * *"
                                        << "";
    QTest::newRow("month-day only") << "12-24 18:00"
                                    << "0 0 18 24 12 *"
                                    << "";
    QTest::newRow("lists and zone") << "Sat,Sun *-*-* 06,18:00 Europe/Berlin"
                                    << "0 0 6,18 * * SAT,SUN"
                                    << "Europe/Berlin";
    QTest::newRow("repetition from a start") << "*:0/15"
                                             << "0 0-59/15 * * * *"
                                             << "";
    QTest::newRow("range with a step") << "*-*-* 08..18/2:00"
                                       << "0 0 8-18/2 * * *"
                                       << "";
    QTest::newRow("seconds") << "*:*:30"
                             << "30 * * * * *"
                             << "";
    QTest::newRow("full weekday names") << "Monday,Friday 09:00"
                                        << "0 0 9 * * MON,FRI"
                                        << "";
    QTest::newRow("zeros of a fraction") << "*-*-* 04:00:00.000"
                                         << "0 0 4 * * *"
                                         << "";
}

void TestSystemdCalendar::toCron_formsPeopleUse()
{
    QFETCH(QString, spec);
    QFETCH(QString, expression);
    QFETCH(QString, zone);
    const Result<SystemdCalendar::Cron> cron = SystemdCalendar::toCron(spec);
    QVERIFY2(cron, qPrintable(cron ? QString() : cron.error().message));
    QCOMPARE(cron->expression, expression);
    QCOMPARE(cron->timeZone, zone);
    QVERIFY(CronParser::parse(cron->expression, CronDialect::Seconds));
}

void TestSystemdCalendar::toCron_whatCronCannotSayIsRefused_data()
{
    QTest::addColumn<QString>("spec");
    QTest::addColumn<QString>("reason");
    QTest::newRow("a year") << "2027-*-* 00:00"
                            << "year '2027': cron has no years";
    QTest::newRow("last day") << "*-*~01"
                              << "the last days of a month";
    QTest::newRow("weekday and day") << "Fri *-*-13 00:00"
                                     << "needs both a weekday";
    QTest::newRow("fraction") << "*:*:00.5"
                              << "fractions of a second";
    QTest::newRow("hour out of range") << "25:00"
                                       << "hour '25' is not a value";
    QTest::newRow("not a weekday") << "Caturday 10:00"
                                   << "'Caturday' is not a weekday";
    QTest::newRow("empty") << ""
                           << "OnCalendar= is empty";
}

void TestSystemdCalendar::toCron_whatCronCannotSayIsRefused()
{
    QFETCH(QString, spec);
    QFETCH(QString, reason);
    const Result<SystemdCalendar::Cron> cron = SystemdCalendar::toCron(spec);
    QVERIFY(!cron);
    QVERIFY2(cron.error().message.contains(reason), qPrintable(cron.error().message));
}

void TestSystemdCalendar::toCron_firesWhenSystemdAnalyzeSays_data()
{
    QTest::addColumn<QString>("spec");
    for (const char *spec :
         {"daily", "weekly", "monthly", "quarterly", "semiannually", "hourly", "Mon..Fri 02:30",
          "Sat,Sun *-*-* 06,18:00", "*-*-01 00:00:00", "*:0/15", "*-*-* 08..18/2:00", "*:*:30",
          "12-24 18:00", "Monday,Friday 09:00", "*-02-29 12:00", "Tue *-*-* 23:59:59",
          "*-*-* 02:30 Europe/Berlin", "*-*-* 00:30 America/New_York", "*-3,6,9,12-15 07:45"})
        QTest::newRow(spec) << QString::fromLatin1(spec);
}

// Twelve fire times from a fixed base, ours against systemd's own calculation, where the
// machine has systemd-analyze.
void TestSystemdCalendar::toCron_firesWhenSystemdAnalyzeSays()
{
    QFETCH(QString, spec);
    const QString analyze = QStandardPaths::findExecutable(QStringLiteral("systemd-analyze"));
    HG_REQUIRE_PART(!analyze.isEmpty(),
                    "systemd-analyze is not installed (Debian package systemd)");
    const QDateTime base =
        QDateTime::fromString(QStringLiteral("2026-03-27T22:10:00Z"), Qt::ISODate);
    QProcess process;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("TZ"), QStringLiteral("UTC"));
    environment.insert(QStringLiteral("SYSTEMD_COLORS"), QStringLiteral("0"));
    process.setProcessEnvironment(environment);
    process.start(analyze, {QStringLiteral("calendar"), spec, QStringLiteral("--iterations=12"),
                            QStringLiteral("--base-time=@%1").arg(base.toSecsSinceEpoch())});
    QVERIFY(process.waitForFinished(10000));
    const QString output = QString::fromUtf8(process.readAllStandardOutput());
    // "    Next elapse: Fri 2026-03-27 23:00:00 UTC" then "       Iter. #2: ..."; with a zone
    // in the spec, a "(in UTC): ..." line follows each, which is the one in UTC.
    static const QRegularExpression line(
        QStringLiteral(R"((?:Next elapse|Iter\. #\d+|\(in UTC\)): \w+ (\S+ \S+) UTC)"));
    QList<QDateTime> expected;
    for (QRegularExpressionMatchIterator it = line.globalMatch(output); it.hasNext();) {
        const QRegularExpressionMatch match = it.next();
        QDateTime at =
            QDateTime::fromString(match.captured(1), QStringLiteral("yyyy-MM-dd HH:mm:ss"));
        at.setTimeZone(QTimeZone::utc());
        if (match.captured(0).startsWith(QLatin1Char('(')))
            expected.last() = at; // the same fire, in UTC
        else
            expected << at;
    }
    QVERIFY2(expected.size() == 12, qPrintable(output));

    const Result<SystemdCalendar::Cron> cron = SystemdCalendar::toCron(spec);
    QVERIFY2(cron, qPrintable(cron ? QString() : cron.error().message));
    const Result<CronExpression> expression =
        CronParser::parse(cron->expression, CronDialect::Seconds);
    QVERIFY(expression);
    const QTimeZone zone =
        cron->timeZone.isEmpty() ? QTimeZone::utc() : QTimeZone(cron->timeZone.toUtf8());
    QDateTime after = base;
    int gapFires = 0;
    for (const QDateTime &want : std::as_const(expected)) {
        std::optional<QDateTime> got = expression->next(after, zone);
        QVERIFY(got);
        // The one known difference: a wall time a DST gap removes. systemd skips that day;
        // Hourglass fires at the end of the gap, as cron does (and its schedules say so).
        while (got->toUTC() < want
               && zone.offsetFromUtc(got->addSecs(-3600)) != zone.offsetFromUtc(*got)) {
            ++gapFires;
            after = *got;
            got = expression->next(after, zone);
            QVERIFY(got);
        }
        QCOMPARE(got->toUTC(), want);
        after = *got;
    }
    QVERIFY(gapFires <= 1);
}

QTEST_GUILESS_MAIN(TestSystemdCalendar)
#include "tst_systemdcalendar.moc"
