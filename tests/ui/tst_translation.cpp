#include "guiapplication.h"
#include "testservers.h"
#include "teststore.h"
#include "window/mainwindow.h"

#include <QAction>
#include <QTest>
#include <QToolBar>

using namespace hg;

// The German translation is built in and chosen by the locale; English needs none.
class TestTranslation final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void english_needsNoTranslation();
    void german_isChosenByTheLocale();
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

QTEST_MAIN(TestTranslation)
#include "tst_translation.moc"
