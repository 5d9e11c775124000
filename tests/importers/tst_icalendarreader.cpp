#include "importers/icalendarreader.h"

#include <QFile>
#include <QTest>

using namespace hg;

// iCalendar files as calendar days, read by libical: single and multi-day events, yearly
// rules with exceptions, extra dates, a timed event, and files that are not calendars.
class TestICalendarReader final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void holidays_becomeRangesWithTheirSummaries();
    void notACalendar_isAClearError_data();
    void notACalendar_isAClearError();
};

namespace {

QDate d(const char *iso)
{
    return QDate::fromString(QString::fromLatin1(iso), Qt::ISODate);
}

bool holds(const QList<Calendar::Range> &ranges, QDate first, QDate last, const QString &summary)
{
    return std::any_of(ranges.cbegin(), ranges.cend(), [&](const Calendar::Range &r) {
        return r.first == first && r.last == last && r.summary == summary;
    });
}

} // namespace

void TestICalendarReader::holidays_becomeRangesWithTheirSummaries()
{
    QFile file(QStringLiteral(TEST_DATA_DIR "/holidays.ics"));
    QVERIFY(file.open(QIODevice::ReadOnly));
    const Result<QList<Calendar::Range>> read = ICalendarReader::read(file.readAll(), 2030);
    QVERIFY2(read, read ? "" : qPrintable(read.error().message));
    const QList<Calendar::Range> &ranges = read.value();
    const QString newYear = QStringLiteral("New Year's Day");
    QVERIFY(holds(ranges, d("2025-01-01"), d("2025-01-01"), newYear));
    QVERIFY(holds(ranges, d("2030-01-01"), d("2030-01-01"), newYear));
    QVERIFY(!holds(ranges, d("2027-01-01"), d("2027-01-01"), newYear)); // EXDATE
    QVERIFY(!holds(ranges, d("2031-01-01"), d("2031-01-01"), newYear)); // beyond the last year
    // DTEND of an all-day event is the day after its last.
    QVERIFY(holds(ranges, d("2026-12-24"), d("2026-12-26"), QStringLiteral("Christmas")));
    QVERIFY(holds(ranges, d("2026-04-03"), d("2026-04-03"), QStringLiteral("Good Friday")));
    QVERIFY(holds(ranges, d("2027-03-26"), d("2027-03-26"), QStringLiteral("Good Friday")));
    // The fourth Thursday of November, year after year.
    QVERIFY(holds(ranges, d("2026-11-26"), d("2026-11-26"), QStringLiteral("Thanksgiving")));
    QVERIFY(holds(ranges, d("2027-11-25"), d("2027-11-25"), QStringLiteral("Thanksgiving")));
    QVERIFY(holds(ranges, d("2030-11-28"), d("2030-11-28"), QStringLiteral("Thanksgiving")));
    // A timed event covers the days it touches.
    QVERIFY(holds(ranges, d("2026-06-12"), d("2026-06-13"), QStringLiteral("Works outing")));
    QCOMPARE(ranges.size(), 5 + 1 + 2 + 5 + 1); // 2025-2030 less 2027, 1, 2, 2026-2030, 1
}

void TestICalendarReader::notACalendar_isAClearError_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("problem");
    QTest::newRow("plain text") << QByteArray("hello, world\n") << QStringLiteral("iCalendar");
    QTest::newRow("no events") << QByteArray("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\n"
                                             "BEGIN:VTODO\r\nUID:1\r\nSUMMARY:t\r\nEND:VTODO\r\n"
                                             "END:VCALENDAR\r\n")
                               << QStringLiteral("holds no events");
    QTest::newRow("empty") << QByteArray() << QStringLiteral("iCalendar");
}

void TestICalendarReader::notACalendar_isAClearError()
{
    QFETCH(QByteArray, text);
    QFETCH(QString, problem);
    const Result<QList<Calendar::Range>> read = ICalendarReader::read(text);
    QVERIFY(!read);
    QVERIFY2(read.error().message.contains(problem), qPrintable(read.error().message));
}

QTEST_GUILESS_MAIN(TestICalendarReader)
#include "tst_icalendarreader.moc"
