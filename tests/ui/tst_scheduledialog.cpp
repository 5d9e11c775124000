#include "cron/compiledcroncache.h"
#include "schedule/scheduledialog.h"
#include "schedulesmodel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QSpinBox>
#include <QTest>
#include <QTimeEdit>

using namespace hg;

// The schedule editor on its own: validation with a caret, zones, the builder.
class TestScheduleDialog final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void mistake_isNamedWithItsColumn();
    void typing_keyByKey_staysAsTyped();
    void typedZone_showsFireTimesInThatZone();
    void builder_writesExpressionsThatValidate();
    void keystroke_compilesTheExpressionOnce_data();
    void keystroke_compilesTheExpressionOnce();
    void nothingTyped_isNoMistake_andTheLayoutKeepsStill();
    void builder_readsTheExpressionBack();
    void dstChange_isMarkedWithWhatItDoes();
    void calendar_excludedFireTimesAreCrossedOut();
};

void TestScheduleDialog::mistake_isNamedWithItsColumn()
{
    ScheduleDialog dialog(Schedule(), QTimeZone("UTC"));
    auto *expression = dialog.findChild<QLineEdit *>(QStringLiteral("schedule.expression"));
    expression->setText(QStringLiteral("  5 4 * 13 *"));
    QVERIFY2(dialog.problem().contains(QLatin1String("month")), qPrintable(dialog.problem()));
    QVERIFY2(dialog.problem().contains(QLatin1String("column 7")), qPrintable(dialog.problem()));
    // The caret sits under the 13, after the two leading blanks.
    auto *pointer = dialog.findChild<QLabel *>(QStringLiteral("schedule.pointer"));
    QVERIFY(pointer);
    QCOMPARE(pointer->text(), QString(2 + 7 - 1, QLatin1Char(' ')) + QLatin1Char('^'));
    QVERIFY(dialog.nextFireTimes().isEmpty());
    expression->setText(QStringLiteral("5 4 * 12 *"));
    QVERIFY(dialog.problem().isEmpty());
    QCOMPARE(dialog.nextFireTimes().size(), 10);
}

// Typed as a person types, through every mistake on the way (MON-F is no day yet): the text
// is what was typed, and Backspace takes the last character. Before, the cursor jumped to the
// mistake's column at each key: "0 9-17 * * MON-FRI" became "0 9-17 * * IRF-NOM".
void TestScheduleDialog::typing_keyByKey_staysAsTyped()
{
    ScheduleDialog dialog(Schedule(), QTimeZone("UTC"));
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    auto *expression = dialog.findChild<QLineEdit *>(QStringLiteral("schedule.expression"));
    expression->setFocus();
    QTest::keyClicks(expression, QStringLiteral("0 9-17 * * MON-FRI"), Qt::NoModifier, 15);
    QCOMPARE(expression->text(), QStringLiteral("0 9-17 * * MON-FRI"));
    QVERIFY2(dialog.problem().isEmpty(), qPrintable(dialog.problem()));
    expression->clear();
    QTest::keyClicks(expression, QStringLiteral("0 7 * 1"), Qt::NoModifier, 15);
    QVERIFY(!dialog.problem().isEmpty()); // four fields: a mistake, pointed at
    QTest::keyClicks(expression, QStringLiteral("3 *"), Qt::NoModifier, 15);
    QCOMPARE(expression->text(), QStringLiteral("0 7 * 13 *")); // month 13: a mistake again
    QVERIFY(!dialog.problem().isEmpty());
    QTest::keyClick(expression, Qt::Key_Backspace, Qt::NoModifier, 15);
    QTest::keyClick(expression, Qt::Key_Backspace, Qt::NoModifier, 15);
    QTest::keyClick(expression, Qt::Key_Backspace, Qt::NoModifier, 15);
    QCOMPARE(expression->text(), QStringLiteral("0 7 * 1"));
    QTest::keyClicks(expression, QStringLiteral("2 *"), Qt::NoModifier, 15);
    QCOMPARE(expression->text(), QStringLiteral("0 7 * 12 *"));
    QVERIFY2(dialog.problem().isEmpty(), qPrintable(dialog.problem()));
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

void TestScheduleDialog::nothingTyped_isNoMistake_andTheLayoutKeepsStill()
{
    ScheduleDialog dialog(Schedule(), QTimeZone("UTC"));
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    QVERIFY2(dialog.problem().isEmpty(), qPrintable(dialog.problem()));
    auto *ok = dialog.findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok);
    QVERIFY(!ok->isEnabled());
    auto *expression = dialog.findChild<QLineEdit *>(QStringLiteral("schedule.expression"));
    auto *next = dialog.findChild<QListWidget *>(QStringLiteral("schedule.next"));
    const QRect nextAt = next->geometry();
    // A short mistake, a long one, a good expression: nothing below the message moves, and
    // the command line's "cron:" prefix is not shown beside the field.
    for (const QString &typed :
         {QStringLiteral("0 24 * * *"), QStringLiteral("1 2 3 4 5 6 7 8 9 10 11 12 13 14"),
          QStringLiteral("30 6 * * 1-5")}) {
        expression->selectAll();
        QTest::keyClicks(expression, typed);
        QVERIFY2(!dialog.problem().startsWith(QLatin1String("cron:")),
                 qPrintable(dialog.problem()));
        QCoreApplication::processEvents();
        QCOMPARE(next->geometry(), nextAt);
    }
    // Erasing what was typed is a mistake now: the user is writing one.
    expression->clear();
    QTest::keyClick(expression, Qt::Key_Space);
    QTest::keyClick(expression, Qt::Key_Backspace);
    QVERIFY(!dialog.problem().isEmpty());
}

void TestScheduleDialog::builder_readsTheExpressionBack()
{
    Schedule weekly;
    weekly.expression = QStringLiteral("15 9 * * 2,4");
    ScheduleDialog dialog(weekly, QTimeZone("UTC"));
    QList<QTimeEdit *> times = dialog.findChildren<QTimeEdit *>();
    QStringList shown;
    for (QTimeEdit *time : times)
        shown << time->time().toString(QStringLiteral("HH:mm"));
    QVERIFY2(shown.contains(QLatin1String("09:15")), qPrintable(shown.join(QLatin1Char(' '))));
    QStringList checked;
    for (QCheckBox *day : dialog.findChildren<QCheckBox *>()) {
        if (day->isChecked() && day->text().size() == 3)
            checked << day->text();
    }
    QCOMPARE(checked, (QStringList{QStringLiteral("Tue"), QStringLiteral("Thu")}));

    auto *expression = dialog.findChild<QLineEdit *>(QStringLiteral("schedule.expression"));
    expression->setText(QStringLiteral("*/20 * * * *"));
    bool twenty = false;
    for (QSpinBox *spin : dialog.findChildren<QSpinBox *>())
        twenty = twenty || (spin->suffix() == QLatin1String(" min") && spin->value() == 20);
    QVERIFY(twenty);
}

void TestScheduleDialog::dstChange_isMarkedWithWhatItDoes()
{
    // The window opens two days before Berlin's next spring-forward, whenever the test runs.
    const QTimeZone berlin("Europe/Berlin");
    QTimeZone::OffsetData change = berlin.nextTransition(QDateTime::currentDateTimeUtc());
    while (change.daylightTimeOffset == 0)
        change = berlin.nextTransition(change.atUtc);
    Schedule schedule;
    schedule.expression = QStringLiteral("30 2 * * *");
    schedule.timeZone = QStringLiteral("Europe/Berlin");
    schedule.activeFrom = change.atUtc.addDays(-2);
    ScheduleDialog dialog(schedule, QTimeZone("UTC"));
    QStringList notes = dialog.dstNotes();
    QCOMPARE(notes.size(), 1);
    QVERIFY2(notes.at(0).contains(QLatin1String("the clocks go forward from 02:00 to 03:00; the "
                                                "gap takes 02:30: the schedule runs once at "
                                                "03:00 instead")),
             qPrintable(notes.at(0)));
    QCOMPARE(dialog.nextFireTimes().size(), 10);
    QVERIFY(dialog.nextFireTimes().at(2).contains(QLatin1String("03:00:00")));

    auto *dst = dialog.findChild<QComboBox *>(QStringLiteral("schedule.dst"));
    QVERIFY(dst);
    dst->setCurrentIndex(dst->findData(QStringLiteral("skip,once")));
    QCOMPARE(dialog.schedule().dst.gap, DstPolicy::Gap::Skip);
    notes = dialog.dstNotes();
    QCOMPARE(notes.size(), 1);
    QVERIFY2(notes.at(0).endsWith(QLatin1String("the gap takes 02:30: skipped")),
             qPrintable(notes.at(0)));
    QVERIFY(!dialog.nextFireTimes().at(2).contains(QLatin1String("03:00:00")));

    // cronie needs whole minutes: a seconds field of 30 is refused, and OK with it.
    dst->setCurrentIndex(dst->findData(QStringLiteral("cronie")));
    auto *expression = dialog.findChild<QLineEdit *>(QStringLiteral("schedule.expression"));
    expression->setText(QStringLiteral("30 30 2 * * *"));
    QVERIFY2(dialog.problem().contains(QLatin1String("whole minutes")),
             qPrintable(dialog.problem()));
    QVERIFY(!dialog.findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok)->isEnabled());
}

void TestScheduleDialog::calendar_excludedFireTimesAreCrossedOut()
{
    Schedule schedule;
    schedule.expression = QStringLiteral("0 9 * * *");
    schedule.timeZone = QStringLiteral("UTC");
    ScheduleDialog dialog(schedule, QTimeZone("UTC"));
    QVERIFY(dialog.excludedFireTimes().isEmpty());
    Calendar weekends;
    weekends.id = 3;
    weekends.name = QStringLiteral("weekends");
    weekends.weekdays = (1u << Qt::Saturday) | (1u << Qt::Sunday);
    dialog.setCalendars({weekends});
    auto *calendar = dialog.findChild<QComboBox *>(QStringLiteral("schedule.calendar"));
    QVERIFY(calendar);
    calendar->setCurrentIndex(calendar->findData(QStringLiteral("exclude:3")));
    QCOMPARE(dialog.schedule().calendarId, 3);
    QCOMPARE(dialog.schedule().calendarMode, CalendarMode::Exclude);
    // Ten fire times, none at a weekend; each weekend shows its first one crossed out.
    const QStringList kept = dialog.nextFireTimes();
    QCOMPARE(kept.size(), 10);
    const QStringList crossed = dialog.excludedFireTimes();
    QVERIFY(crossed.size() >= 1 && crossed.size() <= 3);
    auto *list = dialog.findChild<QListWidget *>(QStringLiteral("schedule.next"));
    for (int row = 0; row < list->count(); ++row) {
        const QListWidgetItem *item = list->item(row);
        const bool excluded = item->data(Qt::UserRole).toString() == QLatin1String("excluded");
        QCOMPARE(item->font().strikeOut(), excluded);
        if (excluded)
            QVERIFY(item->toolTip().contains(QLatin1String("calendar 'weekends' excludes")));
    }
    calendar->setCurrentIndex(calendar->findData(QStringLiteral("only:3")));
    QCOMPARE(dialog.nextFireTimes().size(), 10); // weekend days only now
    QVERIFY(SchedulesModel::meaning(dialog.schedule(), QTimeZone("UTC"))
                .contains(QLatin1String("only on the days of weekends")));
}

QTEST_MAIN(TestScheduleDialog)
#include "tst_scheduledialog.moc"
