#include "domain/globpattern.h"

#include <QTest>

using namespace hg;

// A file trigger's glob: where watching starts, what matches (fnmatch per segment, "**"
// across folders, never a leading dot), what is refused; and the scan's fast look at names
// straight in the root agreeing with the full match.
class TestGlobPattern final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void root_isTheFixedFolderBeforeTheFirstWildcard();
    void matches_data();
    void matches();
    void mayContain_onlyFoldersThatCanHoldAMatch();
    void problemWith_namesWhatIsWrong_data();
    void problemWith_namesWhatIsWrong();
};

void TestGlobPattern::root_isTheFixedFolderBeforeTheFirstWildcard()
{
    QCOMPARE(GlobPattern(QStringLiteral("/srv/in/*.csv")).root(), QStringLiteral("/srv/in"));
    QCOMPARE(GlobPattern(QStringLiteral("/srv/in/**/*.csv")).root(), QStringLiteral("/srv/in"));
    QCOMPARE(GlobPattern(QStringLiteral("/srv/in/app.conf")).root(), QStringLiteral("/srv/in"));
    QCOMPARE(GlobPattern(QStringLiteral("/x")).root(), QStringLiteral("/"));
    QVERIFY(!GlobPattern(QStringLiteral("/srv/in/*.csv")).spansFolders());
    QVERIFY(GlobPattern(QStringLiteral("/srv/*/x.csv")).spansFolders());
}

void TestGlobPattern::matches_data()
{
    QTest::addColumn<QString>("glob");
    QTest::addColumn<QString>("relative");
    QTest::addColumn<bool>("matches");
    QTest::newRow("star") << "/srv/in/*.csv"
                          << "a.csv" << true;
    QTest::newRow("other suffix") << "/srv/in/*.csv"
                                  << "a.txt" << false;
    QTest::newRow("leading dot") << "/srv/in/*.csv"
                                 << ".a.csv" << false;
    QTest::newRow("below, not spanned") << "/srv/in/*.csv"
                                        << "sub/a.csv" << false;
    QTest::newRow("class") << "/srv/in/in-[0-9]?"
                           << "in-7x" << true;
    QTest::newRow("literal") << "/etc/app.conf"
                             << "app.conf" << true;
    QTest::newRow("literal, another") << "/etc/app.conf"
                                      << "app.conf~" << false;
    QTest::newRow("double star, none") << "/srv/in/**/*.csv"
                                       << "a.csv" << true;
    QTest::newRow("double star, deep") << "/srv/in/**/*.csv"
                                       << "x/y/z/a.csv" << true;
    QTest::newRow("double star, dot folder") << "/srv/in/**/*.csv"
                                             << "x/.git/a.csv" << false;
    QTest::newRow("newline in a name") << "/srv/in/*"
                                       << "a\nb" << true;
    QTest::newRow("star is not a dot") << "/srv/in/*"
                                       << ".." << false;
}

void TestGlobPattern::matches()
{
    QFETCH(QString, glob);
    QFETCH(QString, relative);
    QFETCH(bool, matches);
    const GlobPattern pattern(glob);
    QCOMPARE(pattern.matches(relative), matches);
    // The scan's look at readdir's bytes says the same of a name straight in the root.
    if (!pattern.spansFolders() && !relative.contains(QLatin1Char('/')))
        QCOMPARE(pattern.matchesNameInRoot(relative.toLocal8Bit().constData()), matches);
}

void TestGlobPattern::mayContain_onlyFoldersThatCanHoldAMatch()
{
    const GlobPattern deep(QStringLiteral("/srv/in/**/*.csv"));
    QVERIFY(deep.mayContain(QStringLiteral("x")));
    QVERIFY(deep.mayContain(QStringLiteral("x/y")));
    QVERIFY(!deep.mayContain(QStringLiteral(".cache")));
    const GlobPattern one(QStringLiteral("/srv/*/in/*.csv"));
    QVERIFY(one.mayContain(QStringLiteral("a")));
    QVERIFY(one.mayContain(QStringLiteral("a/in")));
    QVERIFY(!one.mayContain(QStringLiteral("a/out")));
    QVERIFY(!GlobPattern(QStringLiteral("/srv/in/*.csv")).mayContain(QStringLiteral("sub")));
}

void TestGlobPattern::problemWith_namesWhatIsWrong_data()
{
    QTest::addColumn<QString>("glob");
    QTest::addColumn<QString>("problem");
    QTest::newRow("empty") << ""
                           << "name the files to watch";
    QTest::newRow("blank") << "   "
                           << "name the files to watch";
    QTest::newRow("relative") << "in/*.csv"
                              << "is not an absolute path";
    QTest::newRow("root only") << "/"
                               << "'/' names no files";
    QTest::newRow("dot dot") << "/srv/../etc/*"
                             << "holds '..'";
    QTest::newRow("ends in double star") << "/srv/**"
                                         << "ends in **";
    QTest::newRow("NUL") << QStringLiteral("/srv/a") + QChar(0) << "NUL";
    QTest::newRow("too deep") << QStringLiteral("/a").repeated(65) + QStringLiteral("/*")
                              << "folders deep";
    QTest::newRow("fine") << "/srv/in/**/*.csv"
                          << "";
}

void TestGlobPattern::problemWith_namesWhatIsWrong()
{
    QFETCH(QString, glob);
    QFETCH(QString, problem);
    const QString said = GlobPattern::problemWith(glob);
    if (problem.isEmpty())
        QCOMPARE(said, QString());
    else
        QVERIFY2(said.contains(problem), qPrintable(said));
}

QTEST_APPLESS_MAIN(TestGlobPattern)
#include "tst_globpattern.moc"
