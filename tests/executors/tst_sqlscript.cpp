#include "executors/sqlscript.h"

#include <QTest>

using namespace hg;

class TestSqlScript final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void split_data();
    void split();
    void commitsImplicitlyOnMySql();
    void transactionControl();
};

void TestSqlScript::split_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QStringList>("statements");
    QTest::newRow("one") << QStringLiteral("SELECT 1") << QStringList{QStringLiteral("SELECT 1")};
    QTest::newRow("trailing semicolon")
        << QStringLiteral("SELECT 1;\n") << QStringList{QStringLiteral("SELECT 1")};
    QTest::newRow("two") << QStringLiteral("SELECT 1; SELECT 2")
                         << QStringList{QStringLiteral("SELECT 1"), QStringLiteral("SELECT 2")};
    QTest::newRow("empty and comments only")
        << QStringLiteral(" ;; -- nothing;\n/* nor; this */") << QStringList{};
    QTest::newRow("quotes") << QStringLiteral("SELECT 'a;b', \"c;d\", `e;f`; SELECT 'it''s;'")
                            << QStringList{QStringLiteral("SELECT 'a;b', \"c;d\", `e;f`"),
                                           QStringLiteral("SELECT 'it''s;'")};
    QTest::newRow("backslash in quotes")
        << QStringLiteral("SELECT 'a\\';b'; SELECT 2")
        << QStringList{QStringLiteral("SELECT 'a\\';b'"), QStringLiteral("SELECT 2")};
    QTest::newRow("line comment") << QStringLiteral("SELECT 1 -- a;b\n; SELECT 2")
                                  << QStringList{QStringLiteral("SELECT 1 -- a;b"),
                                                 QStringLiteral("SELECT 2")};
    QTest::newRow("dollar quotes")
        << QStringLiteral("DO $$ BEGIN PERFORM 1; END $$; DO $x$ BEGIN RAISE NOTICE '$$;'; END $x$")
        << QStringList{QStringLiteral("DO $$ BEGIN PERFORM 1; END $$"),
                       QStringLiteral("DO $x$ BEGIN RAISE NOTICE '$$;'; END $x$")};
    QTest::newRow("positional parameter is no dollar quote")
        << QStringLiteral("SELECT $1; SELECT 2")
        << QStringList{QStringLiteral("SELECT $1"), QStringLiteral("SELECT 2")};
    QTest::newRow("trigger body")
        << QStringLiteral("CREATE TRIGGER t AFTER INSERT ON a BEGIN INSERT INTO b VALUES (1); "
                          "UPDATE backend SET x = 1; END; SELECT 2")
        << QStringList{QStringLiteral("CREATE TRIGGER t AFTER INSERT ON a BEGIN INSERT INTO b "
                                      "VALUES (1); UPDATE backend SET x = 1; END"),
                       QStringLiteral("SELECT 2")};
    QTest::newRow("unterminated quote keeps the rest")
        << QStringLiteral("SELECT 'a; SELECT 2")
        << QStringList{QStringLiteral("SELECT 'a; SELECT 2")};
}

void TestSqlScript::split()
{
    QFETCH(QString, text);
    QFETCH(QStringList, statements);
    QCOMPARE(sqlscript::split(text), statements);
}

void TestSqlScript::transactionControl()
{
    for (const char *control :
         {"COMMIT", "commit work", "END", "end transaction", "ROLLBACK", "rollback work", "ABORT",
          "BEGIN", "begin immediate", "START TRANSACTION", "/* c */ Commit"})
        QVERIFY2(!sqlscript::transactionControl(QString::fromLatin1(control)).isEmpty(), control);
    for (const char *other :
         {"ROLLBACK TO SAVEPOINT a", "rollback to a", "ROLLBACK WORK TO a", "SAVEPOINT a",
          "RELEASE SAVEPOINT a", "START SLAVE", "DO $$ BEGIN PERFORM 1; END $$", "SELECT 'COMMIT'",
          "INSERT INTO t VALUES (1)"})
        QVERIFY2(sqlscript::transactionControl(QString::fromLatin1(other)).isEmpty(), other);
}

void TestSqlScript::commitsImplicitlyOnMySql()
{
    QVERIFY(sqlscript::commitsImplicitlyOnMySql(QStringLiteral("drop table x")));
    QVERIFY(
        sqlscript::commitsImplicitlyOnMySql(QStringLiteral("-- why\n  CREATE TABLE x (a INT)")));
    QVERIFY(
        !sqlscript::commitsImplicitlyOnMySql(QStringLiteral("CREATE TEMPORARY TABLE x (a INT)")));
    QVERIFY(!sqlscript::commitsImplicitlyOnMySql(QStringLiteral("INSERT INTO x VALUES (1)")));
    QVERIFY(!sqlscript::commitsImplicitlyOnMySql(QStringLiteral("SELECT 'DROP'")));
}

QTEST_GUILESS_MAIN(TestSqlScript)
#include "tst_sqlscript.moc"
