#include "cron/compiledcroncache.h"
#include "schedule/scheduledialog.h"

#include <QComboBox>
#include <QLineEdit>
#include <QTest>

using namespace hg;

// The schedule editor on its own: validation with a caret, zones, the builder.
class TestScheduleDialog final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void mistake_isNamedWithItsColumn();
    void typedZone_showsFireTimesInThatZone();
    void builder_writesExpressionsThatValidate();
    void keystroke_compilesTheExpressionOnce_data();
    void keystroke_compilesTheExpressionOnce();
};

void TestScheduleDialog::mistake_isNamedWithItsColumn()
{
    ScheduleDialog dialog(Schedule(), QTimeZone("UTC"));
    auto *expression = dialog.findChild<QLineEdit *>(QStringLiteral("schedule.expression"));
    expression->setText(QStringLiteral("  5 4 * 13 *"));
    QVERIFY2(dialog.problem().contains(QLatin1String("month")), qPrintable(dialog.problem()));
    QVERIFY2(dialog.problem().contains(QLatin1String("column 7")), qPrintable(dialog.problem()));
    // The caret sits under the 13, after the two leading blanks.
    QCOMPARE(expression->cursorPosition(), 2 + 7 - 1);
    QVERIFY(dialog.nextFireTimes().isEmpty());
    expression->setText(QStringLiteral("5 4 * 12 *"));
    QVERIFY(dialog.problem().isEmpty());
    QCOMPARE(dialog.nextFireTimes().size(), 10);
}

void TestScheduleDialog::typedZone_showsFireTimesInThatZone()
{
    Schedule schedule;
    schedule.expression = QStringLiteral("0 9 * * *");
    ScheduleDialog dialog(schedule, QTimeZone("UTC"));
    auto *zone = dialog.findChild<QComboBox *>(QStringLiteral("schedule.zone"));
    zone->setCurrentText(QStringLiteral("Asia/Tokyo"));
    QCOMPARE(dialog.schedule().timeZone, QStringLiteral("Asia/Tokyo"));
    const QStringList next = dialog.nextFireTimes();
    QCOMPARE(next.size(), 10);
    QVERIFY2(next.first().contains(QLatin1String("09:00:00")), qPrintable(next.first()));
    zone->setCurrentText(QStringLiteral("Mars/Olympus"));
    QVERIFY2(dialog.problem().contains(QLatin1String("unknown time zone")),
             qPrintable(dialog.problem()));
}

void TestScheduleDialog::builder_writesExpressionsThatValidate()
{
    ScheduleDialog dialog(Schedule(), QTimeZone("UTC"));
    dialog.buildEveryMinutes(15);
    QCOMPARE(dialog.schedule().expression, QStringLiteral("*/15 * * * *"));
    QVERIFY(dialog.problem().isEmpty());
    dialog.buildEveryMinutes(90);
    QCOMPARE(dialog.schedule().expression, QStringLiteral("@every 90m"));
    QCOMPARE(dialog.schedule().kind, ScheduleKind::Every);
    QVERIFY2(dialog.problem().isEmpty(), qPrintable(dialog.problem()));
    dialog.buildDaily(QTime(6, 45));
    QCOMPARE(dialog.schedule().expression, QStringLiteral("45 6 * * *"));
    dialog.buildWeekly({1, 3, 5}, QTime(18, 0));
    QCOMPARE(dialog.schedule().expression, QStringLiteral("0 18 * * 1,3,5"));
    QVERIFY2(dialog.explanation().contains(QLatin1String("18:00")),
             qPrintable(dialog.explanation()));
}

void TestScheduleDialog::keystroke_compilesTheExpressionOnce_data()
{
    QTest::addColumn<QString>("typed");
    QTest::addColumn<char>("key");
    QTest::addColumn<bool>("valid");
    QTest::addColumn<qint64>("misses");
    QTest::addColumn<qint64>("hits");
    // Valid: validation compiles; the meaning and the ten fire times reuse it.
    QTest::newRow("valid cron") << QStringLiteral("0 9 * * ") << '5' << true << qint64(1)
                                << qint64(2);
    QTest::newRow("valid every") << QStringLiteral("@every 4") << 's' << true << qint64(1)
                                 << qint64(2);
    // Invalid: validation compiles and stops there.
    QTest::newRow("invalid") << QStringLiteral("0 9 * * ") << 'x' << false << qint64(1)
                             << qint64(0);
    // A one-off time is no expression at all.
    QTest::newRow("once") << QStringLiteral("2030-12-24T18:00:0") << '0' << true << qint64(0)
                          << qint64(0);
}

void TestScheduleDialog::keystroke_compilesTheExpressionOnce()
{
    QFETCH(QString, typed);
    QFETCH(char, key);
    QFETCH(bool, valid);
    QFETCH(qint64, misses);
    QFETCH(qint64, hits);
    ScheduleDialog dialog(Schedule(), QTimeZone("UTC"));
    auto *expression = dialog.findChild<QLineEdit *>(QStringLiteral("schedule.expression"));
    expression->setText(typed);
    CompiledCronCache &cache = CompiledCronCache::shared();
    cache.clear();
    const CompiledCronCache::Counters before = cache.counters();
    QTest::keyClick(expression, key);
    QCOMPARE(expression->text(), typed + QLatin1Char(key));
    QCOMPARE(dialog.problem().isEmpty(), valid);
    if (valid)
        QVERIFY(!dialog.nextFireTimes().isEmpty());
    QCOMPARE(cache.counters().misses - before.misses, misses);
    QCOMPARE(cache.counters().hits - before.hits, hits);
}

QTEST_MAIN(TestScheduleDialog)
#include "tst_scheduledialog.moc"
