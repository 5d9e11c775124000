#include "importers/systemdunitfile.h"

#include <QTest>

using namespace hg;

class TestSystemdUnitFile final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void parse_sectionsCommentsContinuationsAndResets();
    void splitCommandLine_quotesAndEscapes();
};

void TestSystemdUnitFile::parse_sectionsCommentsContinuationsAndResets()
{
    const SystemdUnitFile unit = SystemdUnitFile::parse("# comment\n"
                                                        "[Service]\n"
                                                        "; another\n"
                                                        "ExecStart=/bin/first\n"
                                                        "ExecStart=\n"
                                                        "ExecStart=/bin/echo a \\\n"
                                                        "   b\n"
                                                        "Environment=A=1\n"
                                                        "Environment=B=2\n"
                                                        "[Timer]\n"
                                                        "OnCalendar = daily\n");
    const QList<SystemdUnitFile::Entry> starts =
        unit.values(QStringLiteral("Service"), QStringLiteral("ExecStart"));
    QCOMPARE(starts.size(), 1); // the empty assignment reset the first
    QCOMPARE(starts.at(0).value, QStringLiteral("/bin/echo a  b"));
    QCOMPARE(starts.at(0).line, 6);
    QCOMPARE(unit.values(QStringLiteral("Service"), QStringLiteral("Environment")).size(), 2);
    QCOMPARE(unit.value(QStringLiteral("Timer"), QStringLiteral("OnCalendar")),
             QStringLiteral("daily"));
    QCOMPARE(
        unit.value(QStringLiteral("Timer"), QStringLiteral("Persistent"), QStringLiteral("no")),
        QStringLiteral("no"));
}

void TestSystemdUnitFile::splitCommandLine_quotesAndEscapes()
{
    QStringList words;
    QVERIFY(SystemdUnitFile::splitCommandLine(
        QStringLiteral("/bin/sh -c 'echo \"a b\"' \"x y\" a\\ b tab\\tend"), words));
    QCOMPARE(words, (QStringList{QStringLiteral("/bin/sh"), QStringLiteral("-c"),
                                 QStringLiteral("echo \"a b\""), QStringLiteral("x y"),
                                 QStringLiteral("a b"), QStringLiteral("tab\tend")}));
    QVERIFY(!SystemdUnitFile::splitCommandLine(QStringLiteral("/bin/echo 'open"), words));
}

QTEST_GUILESS_MAIN(TestSystemdUnitFile)
#include "tst_systemdunitfile.moc"
