#include "cron/cronexplainer.h"
#include "desk.h"
#include "domain/schedulevalidator.h"
#include "fixtures.h"
#include "guiapplication.h"
#include "store/dependencyrepository.h"
#include "testservers.h"
#include "teststore.h"
#include "window/mainwindow.h"
#include "windowlint.h"

#include <QAction>
#include <QApplication>
#include <QScopeGuard>
#include <QTabWidget>
#include <QTest>
#include <QToolBar>

using namespace hg;

// The German translation is built in and chosen by the locale; English needs none. The
// engine's messages go through the same translator, so the GUI shows them in German too.
class TestTranslation final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void english_needsNoTranslation();
    void german_isChosenByTheLocale();
    void german_cronErrorKeepsItsFieldAndColumn();
    void german_cronMeaning_data();
    void german_cronMeaning();
    void german_scheduleValidatorError();
    void german_dependencyCycleError();
    void german_at1024x640_nothingIsCutAndEachAltLetterReachesOneThing();
};

void TestTranslation::english_needsNoTranslation()
{
    QVERIFY(!GuiApplication::installTranslations(QLocale(QLocale::English, QLocale::UnitedStates)));
}

void TestTranslation::german_isChosenByTheLocale()
{
    QVERIFY(GuiApplication::installTranslations(QLocale(QLocale::German, QLocale::Germany)));
    HG_TEST_STORE(t);
    MainWindow window(t.store());
    QStringList texts;
    for (QAction *action : window.findChild<QToolBar *>(QStringLiteral("mainToolbar"))->actions()) {
        if (!action->isSeparator())
            texts << action->text();
    }
    QVERIFY2(texts.contains(QStringLiteral("&Jetzt ausführen")),
             qPrintable(texts.join(QLatin1String(", "))));
    QVERIFY2(!texts.contains(QStringLiteral("&Run now")),
             qPrintable(texts.join(QLatin1String(", "))));
    // Qt's own strings too, where the system has them (qt6-translations-l10n).
    QCOMPARE(QCoreApplication::translate("QPlatformTheme", "Cancel"), QStringLiteral("Abbrechen"));
}

void TestTranslation::german_cronErrorKeepsItsFieldAndColumn()
{
    QVERIFY(GuiApplication::installTranslations(QLocale(QLocale::German, QLocale::Germany)));
    const Result<CronExpression> parsed =
        CronExpression::parse(QStringLiteral("0 24 * * *"), CronDialect::Unix);
    QVERIFY(!parsed);
    // The message is for people; field and column are for code (the dialog's caret).
    QCOMPARE(
        parsed.error().message,
        QStringLiteral("cron: Feld „Stunde“ (Spalte 3): 24 liegt außerhalb des Bereichs 0-23"));
    QCOMPARE(parsed.error().field, QStringLiteral("hour"));
    QCOMPARE(parsed.error().column, 3);
}

void TestTranslation::german_cronMeaning_data()
{
    QTest::addColumn<QString>("expression");
    QTest::addColumn<QString>("zone");
    QTest::addColumn<QString>("meaning");
    QTest::newRow("working days") << QStringLiteral("0 9 * * 1-5") << QString()
                                  << QStringLiteral("Um 09:00 montags bis freitags");
    QTest::newRow("quarter hours")
        << QStringLiteral("*/15 * * * *") << QString() << QStringLiteral("Alle 15 Minuten");
    QTest::newRow("months, zone")
        << QStringLiteral("0 0 1 1,7 *") << QStringLiteral("Europe/Berlin")
        << QStringLiteral("Um 00:00 am Tag 1 des Monats im Januar und Juli, Europe/Berlin");
}

void TestTranslation::german_cronMeaning()
{
    QFETCH(QString, expression);
    QFETCH(QString, zone);
    QFETCH(QString, meaning);
    QVERIFY(GuiApplication::installTranslations(QLocale(QLocale::German, QLocale::Germany)));
    const Result<CronExpression> parsed = CronExpression::parse(expression, CronDialect::Unix);
    QVERIFY2(parsed, parsed ? "" : qPrintable(parsed.error().message));
    QCOMPARE(CronExplainer(parsed.value()).describe(zone), meaning);
}

void TestTranslation::german_scheduleValidatorError()
{
    QVERIFY(GuiApplication::installTranslations(QLocale(QLocale::German, QLocale::Germany)));
    Schedule schedule;
    schedule.expression = QStringLiteral("0 9 * * *");
    schedule.timeZone = QStringLiteral("Mars/Olympus_Mons");
    const Status valid = ScheduleValidator::validate(schedule);
    QVERIFY(!valid);
    QCOMPARE(valid.error().message, QStringLiteral("unbekannte Zeitzone „Mars/Olympus_Mons“"));
}

void TestTranslation::german_dependencyCycleError()
{
    QVERIFY(GuiApplication::installTranslations(QLocale(QLocale::German, QLocale::Germany)));
    HG_TEST_STORE(t);
    const Chain chain = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("c"));
    const Task a = test::makeTask(t.store(), chain.id, QStringLiteral("a"));
    const Task b = test::makeTask(t.store(), chain.id, QStringLiteral("b"));
    QVERIFY(a.id > 0 && b.id > 0);
    DependencyRepository dependencies(t.store());
    QVERIFY(dependencies.add(chain.id, b.id, a.id, DependencyCondition::Success));
    const Status cycle = dependencies.add(chain.id, a.id, b.id, DependencyCondition::Success);
    QVERIFY(!cycle);
    QCOMPARE(cycle.error().message,
             QStringLiteral("die Abhängigkeit würde einen Zyklus schließen: b → a → b"));
}

// German labels are longer than English ones: what fits in English may not (issue 34).
void TestTranslation::german_at1024x640_nothingIsCutAndEachAltLetterReachesOneThing()
{
    QVERIFY(GuiApplication::installTranslations(QLocale(QLocale::German, QLocale::Germany)));
    const QLocale before;
    QLocale::setDefault(QLocale(QLocale::German, QLocale::Germany));
    const auto restore = qScopeGuard([&before] { QLocale::setDefault(before); });
    HG_TEST_STORE(t);
    const QStringList cut = test::cutAt1024x640(t);
    QVERIFY2(cut.isEmpty(), qPrintable(cut.join(QLatin1Char('\n'))));
    HG_TEST_STORE(other);
    test::Desk desk(other);
    QVERIFY(QTest::qWaitForWindowExposed(desk.window.get()));
    QCOMPARE(desk.window->tabs()->tabText(1), QStringLiteral("&Läufe"));
    const QStringList clashes = test::altKeyClashes(*desk.window);
    QVERIFY2(clashes.isEmpty(), qPrintable(clashes.join(QLatin1Char('\n'))));
    QApplication::setActiveWindow(desk.window.get());
    QVERIFY(QTest::qWaitForWindowActive(desk.window.get()));
    const QStringList dead = test::deadLabelMnemonics(*desk.window);
    QVERIFY2(dead.isEmpty(), qPrintable(dead.join(QLatin1Char('\n'))));
}

QTEST_MAIN(TestTranslation)
#include "tst_translation.moc"
