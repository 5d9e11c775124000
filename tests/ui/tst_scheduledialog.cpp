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

QTEST_MAIN(TestScheduleDialog)
#include "tst_scheduledialog.moc"
