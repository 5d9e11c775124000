#include "remote/remotechaincanvas.h"

#include <QStandardPaths>
#include <QTest>

using namespace hg;

// The read-only canvas of a remote's chain: a DolphinScheduler DAG's nodes say what its task
// definitions say (type, retries and their interval, timeout, priority, worker group), and its
// edges what kind of relation each is.
class TestRemoteChainCanvas final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }
    void showWorkflow_nodesCarryTheTaskAttributes();
    void showWorkflow_edgesSayTheirConditionType();
};

namespace {

DsWorkflow workflow()
{
    DsWorkflow flow;
    DsTask extract;
    extract.code = 301;
    extract.name = QStringLiteral("extract");
    extract.type = QStringLiteral("SHELL");
    DsTask check;
    check.code = 302;
    check.name = QStringLiteral("check");
    check.type = QStringLiteral("CONDITIONS");
    check.retries = 2;
    check.retryIntervalMinutes = 5;
    check.timeoutMinutes = 30;
    check.priority = 1;
    check.workerGroup = QStringLiteral("etl-workers");
    DsTask load;
    load.code = 303;
    load.name = QStringLiteral("load");
    load.type = QStringLiteral("SQL");
    DsTask alarm;
    alarm.code = 304;
    alarm.name = QStringLiteral("alarm");
    alarm.type = QStringLiteral("HTTP");
    DsTask later;
    later.code = 305;
    later.name = QStringLiteral("later");
    later.type = QStringLiteral("SHELL");
    flow.tasks = {extract, check, load, alarm, later};
    DsRelation root;
    root.postTaskCode = 301;
    DsRelation toCheck;
    toCheck.preTaskCode = 301;
    toCheck.postTaskCode = 302;
    DsRelation onTrue;
    onTrue.preTaskCode = 302;
    onTrue.postTaskCode = 303;
    onTrue.branch = DsRelation::Branch::OnSuccess;
    DsRelation onFalse;
    onFalse.preTaskCode = 302;
    onFalse.postTaskCode = 304;
    onFalse.branch = DsRelation::Branch::OnFailure;
    DsRelation delayed;
    delayed.preTaskCode = 303;
    delayed.postTaskCode = 305;
    delayed.conditionType = 2;
    flow.relations = {root, toCheck, onTrue, onFalse, delayed};
    return flow;
}

} // namespace

void TestRemoteChainCanvas::showWorkflow_nodesCarryTheTaskAttributes()
{
    RemoteChainCanvas canvas;
    canvas.showWorkflow(workflow());
    QTRY_COMPARE(canvas.nodeCount(), 5);
    QTRY_COMPARE(canvas.nodeDetail(QStringLiteral("check")),
                 QStringLiteral("CONDITIONS · high · etl-workers"));
    const QString tip = canvas.nodeToolTip(QStringLiteral("check"));
    for (const char *part : {"check (CONDITIONS)", "2 retries every 5 min", "timeout 30 min",
                             "priority: high", "worker group: etl-workers"})
        QVERIFY2(tip.contains(QLatin1String(part)), qPrintable(tip));
    const QString plain = canvas.nodeToolTip(QStringLiteral("extract"));
    QVERIFY2(plain.contains(QLatin1String("no retries"))
                 && plain.contains(QLatin1String("no timeout"))
                 && plain.contains(QLatin1String("priority: medium"))
                 && plain.contains(QLatin1String("worker group: default")),
             qPrintable(plain));
}

void TestRemoteChainCanvas::showWorkflow_edgesSayTheirConditionType()
{
    RemoteChainCanvas canvas;
    canvas.showWorkflow(workflow());
    QTRY_COMPARE(canvas.nodeCount(), 5);
    // A plain relation is the plain line, without a label, as on the local canvas.
    QTRY_COMPARE(canvas.edgeLabel(QStringLiteral("extract"), QStringLiteral("check")), QString());
    QCOMPARE(canvas.edgeLabel(QStringLiteral("check"), QStringLiteral("load")),
             QStringLiteral("if true"));
    QCOMPARE(canvas.edgeLabel(QStringLiteral("check"), QStringLiteral("alarm")),
             QStringLiteral("if false"));
    QCOMPARE(canvas.edgeLabel(QStringLiteral("load"), QStringLiteral("later")),
             QStringLiteral("delay"));
    // Another workflow after it: nothing of the first one's annotations is left.
    DsWorkflow other;
    DsTask lone;
    lone.code = 1;
    lone.name = QStringLiteral("lone");
    lone.type = QStringLiteral("PYTHON");
    other.tasks = {lone};
    canvas.showWorkflow(other);
    QTRY_COMPARE(canvas.nodeCount(), 1);
    QTRY_COMPARE(canvas.nodeDetail(QStringLiteral("lone")),
                 QStringLiteral("PYTHON · medium · default"));
}

QTEST_MAIN(TestRemoteChainCanvas)
#include "tst_remotechaincanvas.moc"
