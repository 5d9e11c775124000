#include "base/terminaltext.h"

#include <QTest>

using namespace hg;

class TestTerminalText final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void escaped_data();
    void escaped();
};

void TestTerminalText::escaped_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("shown");
    QTest::newRow("plain") << QStringLiteral("plain text") << QStringLiteral("plain text");
    QTest::newRow("tab stays") << QStringLiteral("a\tb") << QStringLiteral("a\tb");
    QTest::newRow("scripts stay") << QStringLiteral("Grüße, 東京 🙂")
                                  << QStringLiteral("Grüße, 東京 🙂");
    QTest::newRow("window title") << QStringLiteral("\x1b]0;pwned\x07")
                                  << QStringLiteral("\\e]0;pwned\\x07");
    QTest::newRow("clear screen") << QStringLiteral("\x1b[2J") << QStringLiteral("\\e[2J");
    QTest::newRow("nul") << QString(QChar(0)) + QStringLiteral("x") << QStringLiteral("\\x00x");
    QTest::newRow("carriage return") << QStringLiteral("ok\rFAIL") << QStringLiteral("ok\\rFAIL");
    QTest::newRow("newline") << QStringLiteral("a\nb") << QStringLiteral("a\\nb");
    QTest::newRow("delete") << QStringLiteral("a\x7f") << QStringLiteral("a\\x7f");
    QTest::newRow("C1 CSI") << QString(QChar(0x9b)) + QStringLiteral("2J")
                            << QStringLiteral("\\x9b2J");
    QTest::newRow("bidi override")
        << QString(QChar(0x202e)) + QStringLiteral("abc") << QStringLiteral("\\u202eabc");
    // Found by a hostile test: invisible marks that hide or reorder text.
    QTest::newRow("zero-width space")
        << QStringLiteral("rm") + QChar(0x200b) + QStringLiteral("-rf")
        << QStringLiteral("rm\\u200b-rf");
    QTest::newRow("right-to-left mark")
        << QString(QChar(0x200f)) + QStringLiteral("x") << QStringLiteral("\\u200fx");
    QTest::newRow("line separator")
        << QStringLiteral("a") + QChar(0x2028) + QStringLiteral("b") << QStringLiteral("a\\u2028b");
    QTest::newRow("byte order mark")
        << QString(QChar(0xfeff)) + QStringLiteral("ok") << QStringLiteral("\\ufeffok");
    QTest::newRow("emoji joiner kept") << QStringLiteral("a") + QChar(0x200d) + QStringLiteral("b")
                                       << QStringLiteral("a") + QChar(0x200d) + QStringLiteral("b");
}

void TestTerminalText::escaped()
{
    QFETCH(QString, text);
    QFETCH(QString, shown);
    QCOMPARE(terminaltext::escaped(text), shown);
}

QTEST_GUILESS_MAIN(TestTerminalText)
#include "tst_terminaltext.moc"
