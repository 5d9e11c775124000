#include "cron/compiledcroncache.h"

#include <QTest>
#include <QThread>

#include <memory>
#include <vector>

using namespace hg;

// The shared compiled-expression cache: each distinct (text, dialect) is parsed once while it
// stays in the cache, the least recently used entry leaves first, and threads may share it.
class TestCompiledCronCache final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void compile_countsHitsAndMisses_data();
    void compile_countsHitsAndMisses();
    void compile_givesWhatParseGives_data();
    void compile_givesWhatParseGives();
    void capacity_evictsTheLeastRecentlyUsed();
    void clear_forgetsButKeepsCounting();
    void threads_shareOneCache();
};

void TestCompiledCronCache::compile_countsHitsAndMisses_data()
{
    // Lookups as "dialect text" separated by '|'.
    QTest::addColumn<QString>("lookups");
    QTest::addColumn<int>("capacity");
    QTest::addColumn<qint64>("hits");
    QTest::addColumn<qint64>("misses");
    QTest::newRow("once") << QStringLiteral("unix */5 * * * *") << 8 << qint64(0) << qint64(1);
    QTest::newRow("same three times")
        << QStringLiteral("unix */5 * * * *|unix */5 * * * *|unix */5 * * * *") << 8 << qint64(2)
        << qint64(1);
    QTest::newRow("dialect is part of the key")
        << QStringLiteral("unix 0 0 * * *|auto 0 0 * * *|unix 0 0 * * *") << 8 << qint64(1)
        << qint64(2);
    QTest::newRow("text is exact")
        << QStringLiteral("unix 0 0 * * *|unix 0 0 * * * ") << 8 << qint64(0) << qint64(2);
    QTest::newRow("errors are kept")
        << QStringLiteral("unix 0 24 * * *|unix 0 24 * * *") << 8 << qint64(1) << qint64(1);
    QTest::newRow("capacity one thrashes")
        << QStringLiteral("unix @daily|unix @hourly|unix @daily") << 1 << qint64(0) << qint64(3);
    QTest::newRow("capacity two keeps both")
        << QStringLiteral("unix @daily|unix @hourly|unix @daily|unix @hourly") << 2 << qint64(2)
        << qint64(2);
}

void TestCompiledCronCache::compile_countsHitsAndMisses()
{
    QFETCH(QString, lookups);
    QFETCH(int, capacity);
    CompiledCronCache cache(capacity);
    for (const QString &lookup : lookups.split(QLatin1Char('|'))) {
        const qsizetype space = lookup.indexOf(QLatin1Char(' '));
        const auto dialect = enumFromString<CronDialect>(lookup.left(space));
        QVERIFY(dialect);
        (void)cache.compile(lookup.mid(space + 1), *dialect);
    }
    QTEST(cache.counters().hits, "hits");
    QTEST(cache.counters().misses, "misses");
    QVERIFY(cache.size() <= capacity);
}

void TestCompiledCronCache::compile_givesWhatParseGives_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("dialect");
    QTest::newRow("unix") << QStringLiteral("30 7 * * 1-5") << int(CronDialect::Unix);
    QTest::newRow("auto quartz") << QStringLiteral("0 0 12 ? * MON#2") << int(CronDialect::Auto);
    QTest::newRow("every") << QStringLiteral("@every 90 seconds") << int(CronDialect::Auto);
    QTest::newRow("bad hour") << QStringLiteral("0 24 * * *") << int(CronDialect::Unix);
    QTest::newRow("too few fields") << QStringLiteral("* *") << int(CronDialect::Auto);
}

void TestCompiledCronCache::compile_givesWhatParseGives()
{
    QFETCH(QString, text);
    QFETCH(int, dialect);
    CompiledCronCache cache;
    const Result<CronExpression> parsed = CronExpression::parse(text, CronDialect(dialect));
    for (int round = 0; round < 2; ++round) { // a miss, then a hit
        const Result<CronExpression> compiled = cache.compile(text, CronDialect(dialect));
        QCOMPARE(compiled.ok(), parsed.ok());
        if (!parsed) {
            QCOMPARE(compiled.error().message, parsed.error().message);
            QCOMPARE(compiled.error().column, parsed.error().column);
            continue;
        }
        QCOMPARE(compiled->dialect(), parsed->dialect());
        QCOMPARE(compiled->fields(), parsed->fields());
        const QDateTime from(QDate(2026, 3, 1), QTime(0, 0), Qt::UTC);
        QCOMPARE(compiled->next(from, QTimeZone("UTC")), parsed->next(from, QTimeZone("UTC")));
    }
    QCOMPARE(cache.counters().misses, qint64(1));
    QCOMPARE(cache.counters().hits, qint64(1));
}

void TestCompiledCronCache::capacity_evictsTheLeastRecentlyUsed()
{
    CompiledCronCache cache(2);
    (void)cache.compile(QStringLiteral("@daily"));
    (void)cache.compile(QStringLiteral("@hourly"));
    (void)cache.compile(QStringLiteral("@daily"));  // now @hourly is the least recent
    (void)cache.compile(QStringLiteral("@weekly")); // evicts @hourly
    QCOMPARE(cache.size(), 2);
    const CompiledCronCache::Counters before = cache.counters();
    (void)cache.compile(QStringLiteral("@daily"));
    QCOMPARE(cache.counters().hits, before.hits + 1);
    (void)cache.compile(QStringLiteral("@hourly"));
    QCOMPARE(cache.counters().misses, before.misses + 1);
}

void TestCompiledCronCache::clear_forgetsButKeepsCounting()
{
    CompiledCronCache cache;
    (void)cache.compile(QStringLiteral("@daily"));
    cache.clear();
    QCOMPARE(cache.size(), 0);
    (void)cache.compile(QStringLiteral("@daily"));
    QCOMPARE(cache.counters().misses, qint64(2));
    QCOMPARE(cache.counters().hits, qint64(0));
}

void TestCompiledCronCache::threads_shareOneCache()
{
    // Small enough to evict while the threads run, so the list is rewired under contention.
    CompiledCronCache cache(8);
    constexpr int threads = 4;
    constexpr int rounds = 2000;
    std::vector<std::unique_ptr<QThread>> workers;
    QAtomicInt wrong = 0;
    for (int t = 0; t < threads; ++t) {
        workers.emplace_back(QThread::create([&cache, &wrong, t] {
            for (int i = 0; i < rounds; ++i) {
                const int minute = (i + t) % 12;
                const Result<CronExpression> compiled =
                    cache.compile(QStringLiteral("%1 * * * *").arg(minute), CronDialect::Unix);
                if (!compiled || compiled->fields().value(0) != QString::number(minute))
                    wrong.ref();
            }
        }));
        workers.back()->start();
    }
    for (const auto &worker : workers)
        QVERIFY(worker->wait(60000));
    QCOMPARE(wrong.loadRelaxed(), 0);
    const CompiledCronCache::Counters counters = cache.counters();
    QCOMPARE(counters.hits + counters.misses, qint64(threads * rounds));
    QVERIFY(cache.size() <= 8);
}

QTEST_GUILESS_MAIN(TestCompiledCronCache)
#include "tst_compiledcroncache.moc"
