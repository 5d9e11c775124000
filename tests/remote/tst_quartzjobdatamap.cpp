#include "remote/quartzjobdatamap.h"

#include <QFile>
#include <QTest>

using namespace hg;

// QuartzJobDataMap against bytes Java itself wrote for the same maps (data/
// quartz-jobdatamap.txt): Integer values small and large, equal ones (Integer.valueOf shares
// -128..127), an empty map, and 2.0's map with the schedule's JSON.
class TestQuartzJobDataMap final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void serialize_matchesJava_data();
    void serialize_matchesJava();
    void javaHashCode_asJava();
};

void TestQuartzJobDataMap::serialize_matchesJava_data()
{
    QTest::addColumn<QList<QuartzJobDataMap::Entry>>("entries");
    QTest::addColumn<QByteArray>("expected");
    QFile file(QStringLiteral(TEST_DATA_DIR "/quartz-jobdatamap.txt"));
    QVERIFY(file.open(QIODevice::ReadOnly | QIODevice::Text));
    int rows = 0;
    while (!file.atEnd()) {
        const QString line = QString::fromUtf8(file.readLine()).trimmed();
        if (line.isEmpty() || line.startsWith(QLatin1Char('#')))
            continue;
        const QStringList parts = line.split(QLatin1Char(' '));
        QList<QuartzJobDataMap::Entry> entries;
        if (parts.at(1) != QLatin1String("-")) {
            entries << QuartzJobDataMap::Entry{QStringLiteral("projectId"), parts.at(1).toInt()}
                    << QuartzJobDataMap::Entry{QStringLiteral("scheduleId"), parts.at(2).toInt()};
            if (parts.size() == 5)
                entries << QuartzJobDataMap::Entry{QStringLiteral("schedule"), parts.at(3)};
        }
        QTest::newRow(qPrintable(parts.at(0)))
            << entries << QByteArray::fromHex(parts.constLast().toLatin1());
        ++rows;
    }
    QCOMPARE(rows, 7);
}

void TestQuartzJobDataMap::serialize_matchesJava()
{
    QFETCH(QList<QuartzJobDataMap::Entry>, entries);
    QFETCH(QByteArray, expected);
    const QByteArray written = QuartzJobDataMap::serialize(entries);
    QCOMPARE(written.toHex(), expected.toHex());
    // The order entries are put in does not matter: a HashMap orders them.
    std::reverse(entries.begin(), entries.end());
    QCOMPARE(QuartzJobDataMap::serialize(entries).toHex(), expected.toHex());
}

void TestQuartzJobDataMap::javaHashCode_asJava()
{
    // Values Java's String.hashCode() gives.
    QCOMPARE(QuartzJobDataMap::javaHashCode(QStringLiteral("projectId")), qint32(-894832108));
    QCOMPARE(QuartzJobDataMap::javaHashCode(QString()), 0);
}

QTEST_GUILESS_MAIN(TestQuartzJobDataMap)
#include "tst_quartzjobdatamap.moc"
