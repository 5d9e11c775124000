#include "chain/alertsdialog.h"
#include "chain/chainoccurrencesbox.h"
#include "chain/missedrunsdialog.h"
#include "chain/occurrencestrip.h"
#include "occurrencesmodel.h"
#include "projecttreemodel.h"
#include "statementrecorder.h"
#include "store/chainrepository.h"
#include "store/occurrencerepository.h"
#include "store/projectrepository.h"
#include "store/runrepository.h"
#include "store/schedulerepository.h"
#include "storereader.h"
#include "testservers.h"
#include "teststore.h"
#include "tray/traycontroller.h"
#include "upcoming/upcomingtimeline.h"
#include "upcomingmodel.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>
#include <QTimeZone>

using namespace hg;

// The missed-runs inbox on the desktop: the tree and the tray count what waits, the chain's
// box shows it beside its strip of recent fire times, and the dialog decides as `hourglass
// missed run|dismiss` does. The Upcoming timeline shows the past day beside the week.
class TestChainOccurrences final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void inbox_isCountedInTheTreeTheTrayAndTheChainsBox();
    void box_withAReaderReadsNothingOnTheWindowsConnection();
    void dialog_runsTheLatestAndKeepsTheChoice();
    void dialog_runsAllNAtOnceThenHasNothingLeft();
    void dialog_dismisses();
    void timeline_showsThePastBesideTheWeek();
    void alertsDialog_editsTheRulesAndRefusesABadDeadline();

private:
    struct Setup
    {
        Chain chain;
        Schedule schedule;
        qint64 firstMs = 0; // three fire times, ten minutes apart, missed while asleep
        qint64 lastMs = 0;
        qint64 runId = 0; // the fire time before them, which ran
    };
    static Setup missedWhileAsleep(Store &store);
};

TestChainOccurrences::Setup TestChainOccurrences::missedWhileAsleep(Store &store)
{
    Setup s;
    const Project project = ProjectRepository(store).add(QStringLiteral("p")).value();
    s.chain.projectId = project.id;
    s.chain.name = QStringLiteral("nightly");
    s.chain = ChainRepository(store).add(s.chain).value();
    s.schedule.chainId = s.chain.id;
    s.schedule.expression = QStringLiteral("*/10 * * * *");
    s.schedule.dialect = CronDialect::Unix;
    s.schedule.timeZone = QStringLiteral("UTC");
    s.schedule.misfire = MisfirePolicy::Ask;
    s.schedule = ScheduleRepository(store).add(s.schedule).value();
    constexpr qint64 tenMinutes = 600000;
    s.firstMs = (QDateTime::currentMSecsSinceEpoch() - 2 * 3600000) / tenMinutes * tenMinutes;
    s.lastMs = s.firstMs + 2 * tenMinutes;
    const Result<RunRepository::Inserted> ran = RunRepository(store).insertScheduled(
        s.chain.id, s.schedule.id, QDateTime::fromMSecsSinceEpoch(s.firstMs - tenMinutes, Qt::UTC));
    s.runId = ran ? ran->run.id : 0;
    Occurrence missed;
    missed.scheduleId = s.schedule.id;
    missed.chainId = s.chain.id;
    missed.outcome = OccurrenceOutcome::Missed;
    missed.cause = OccurrenceCause::Asleep;
    missed.firstFireMs = s.firstMs;
    missed.lastFireMs = s.lastMs;
    missed.count = 3;
    missed.inbox = InboxState::Pending;
    (void)OccurrenceRepository(store).insert(missed);
    return s;
}

void TestChainOccurrences::inbox_isCountedInTheTreeTheTrayAndTheChainsBox()
{
    HG_TEST_STORE(t);
    const Setup s = missedWhileAsleep(t.store());
    QVERIFY(s.runId > 0);

    ProjectTreeModel tree(t.store());
    QVERIFY(tree.reload());
    const QModelIndex chain = tree.indexOf(true, s.chain.id);
    QCOMPARE(chain.data().toString(), QStringLiteral("nightly — 3 missed"));
    QCOMPARE(chain.data(Qt::EditRole).toString(),
             QStringLiteral("nightly")); // renames see the name
    QCOMPARE(chain.data(ProjectTreeModel::MissedRunsRole).toLongLong(), 3);
    QVERIFY2(chain.data(Qt::AccessibleDescriptionRole)
                 .toString()
                 .contains(QStringLiteral("3 missed run(s) wait")),
             qPrintable(chain.data(Qt::AccessibleDescriptionRole).toString()));
    QCOMPARE(tree.missedRuns(), 3);

    TrayController tray(t.store());
    QSignalSpy notified(&tray, &TrayController::notified);
    tray.setMissedRuns(tree.missedRuns());
    QCOMPARE(notified.size(), 1);
    QCOMPARE(notified.at(0).at(0).toString(), QStringLiteral("Missed runs wait"));
    tray.setMissedRuns(3); // the same count again: no second notification
    tray.setMissedRuns(0);
    QCOMPARE(notified.size(), 1);

    ChainOccurrencesBox box(t.store());
    box.showChain(s.chain.id);
    QCOMPARE(box.waitingCount(), 3);
    QVERIFY2(box.inboxText().startsWith(QStringLiteral("3 missed run(s) wait for your decision")),
             qPrintable(box.inboxText()));
    QVERIFY2(box.inboxText().contains(QStringLiteral("while the computer slept")),
             qPrintable(box.inboxText()));
    // The strip: the run before, then the missed row of three.
    OccurrencesModel *strip = box.occurrences();
    QCOMPARE(strip->rowCount(), 2);
    QCOMPARE(strip->index(0, 0).data(OccurrencesModel::RunIdRole).toLongLong(), s.runId);
    QVERIFY(!strip->index(0, 0).data(OccurrencesModel::UnrunRole).toBool());
    QCOMPARE(strip->index(1, 0).data(OccurrencesModel::CountRole).toLongLong(), 3);
    QVERIFY(strip->index(1, 0).data(OccurrencesModel::UnrunRole).toBool());
    QVERIFY2(strip->index(1, 0)
                 .data(Qt::ToolTipRole)
                 .toString()
                 .contains(QStringLiteral("waiting in the missed-runs inbox")),
             qPrintable(strip->index(1, 0).data(Qt::ToolTipRole).toString()));
    QCOMPARE(strip->summary(), QStringLiteral("1 ran, 3 missed"));
    QCOMPARE(box.strip()->accessibleDescription(), QStringLiteral("1 ran, 3 missed"));
    QVERIFY2(box.cadenceText().startsWith(QStringLiteral("*/10 * * * *: configured every 10 min")),
             qPrintable(box.cadenceText()));
    // Measured over ten of its intervals (for a daily one, the last day), not always the last
    // hour: "configured every 1 d; no run over the last hour" said nothing (issue 34).
    QVERIFY2(box.cadenceText().contains(QStringLiteral("over the last 1 h 40 min")),
             qPrintable(box.cadenceText()));
    Schedule daily = s.schedule;
    daily.expression = QStringLiteral("30 7 * * *");
    QVERIFY(ScheduleRepository(t.store()).update(daily));
    box.showChain(s.chain.id);
    QVERIFY2(box.cadenceText().contains(QStringLiteral("configured every 1 d"))
                 && box.cadenceText().contains(QStringLiteral("over the last day")),
             qPrintable(box.cadenceText()));
    QVERIFY(ScheduleRepository(t.store()).update(s.schedule));
    box.showChain(s.chain.id);
    // A click on the run's cell opens it.
    box.resize(600, 200);
    box.show();
    QVERIFY(QTest::qWaitForWindowExposed(&box));
    QSignalSpy opened(&box, &ChainOccurrencesBox::runActivated);
    QTest::mouseClick(box.strip(), Qt::LeftButton, {}, QPoint(7, 10));
    QCOMPARE(opened.size(), 1);
    QCOMPARE(opened.at(0).at(0).toLongLong(), s.runId);
}

// In the window the box reads on the reader's thread: a chain whose runs end every second on a
// store across a network held the window for five round trips a second.
void TestChainOccurrences::box_withAReaderReadsNothingOnTheWindowsConnection()
{
    HG_TEST_STORE(t);
    const Setup s = missedWhileAsleep(t.store());
    StoreReader reader(t.store().location(), true);
    ChainOccurrencesBox box(t.store());
    box.setReader(&reader);
    const test::StatementRecorder onTheWindows(t.store());
    box.showChain(s.chain.id);
    box.refresh(); // asked again while the first read is out: read once more after it
    QVERIFY(box.isReading());
    QTRY_VERIFY(!box.isReading());
    QCOMPARE(box.waitingCount(), 3);
    QVERIFY2(box.inboxText().startsWith(QStringLiteral("3 missed run(s) wait for your decision")),
             qPrintable(box.inboxText()));
    QCOMPARE(box.occurrences()->rowCount(), 2);
    QVERIFY2(box.cadenceText().startsWith(QStringLiteral("*/10 * * * *: configured every 10 min")),
             qPrintable(box.cadenceText()));
    QCOMPARE(onTheWindows.statements(), QStringList());
    // Another chain shown before the answer came: the answer for the first is not shown.
    box.showChain(s.chain.id);
    box.showChain(0);
    QTRY_VERIFY(!box.isReading());
    QCOMPARE(box.occurrences()->rowCount(), 0);
    QCOMPARE(box.waitingCount(), 0);
}

void TestChainOccurrences::dialog_runsTheLatestAndKeepsTheChoice()
{
    HG_TEST_STORE(t);
    const Setup s = missedWhileAsleep(t.store());
    const MissedRunsInbox::Waiting waiting = MissedRunsInbox(t.store()).waiting(s.chain.id).value();
    QCOMPARE(waiting.count, 3);
    QCOMPARE(waiting.cause, OccurrenceCause::Asleep);
    MissedRunsDialog dialog(t.store(), s.chain, waiting);
    dialog.choose(MissedRunsInbox::Choice::RunLatest);
    dialog.setKeep(true);
    QVERIFY2(dialog.summary().contains(QStringLiteral("misfire policy once")),
             qPrintable(dialog.summary()));
    dialog.decideButton()->click();
    QCOMPARE(dialog.result(), int(QDialog::Accepted));
    QCOMPARE(dialog.decided().runs.size(), 1);
    QCOMPARE(dialog.decided().runs.first().scheduledFor.toMSecsSinceEpoch(), s.lastMs);
    QCOMPARE(dialog.decided().runs.first().trigger, RunTrigger::Backfill);
    QCOMPARE(ScheduleRepository(t.store()).byId(s.schedule.id)->misfire, MisfirePolicy::Once);
    QCOMPARE(OccurrenceRepository(t.store()).pendingCount().value(), 0);
    ChainOccurrencesBox box(t.store());
    box.showChain(s.chain.id);
    QCOMPARE(box.inboxText(), QString());
}

void TestChainOccurrences::dialog_runsAllNAtOnceThenHasNothingLeft()
{
    HG_TEST_STORE(t);
    const Setup s = missedWhileAsleep(t.store());
    const MissedRunsInbox::Waiting waiting = MissedRunsInbox(t.store()).waiting(s.chain.id).value();
    MissedRunsDialog dialog(t.store(), s.chain, waiting);
    dialog.setParallel(2);
    QCOMPARE(dialog.summary(),
             QStringLiteral("Every missed fire time becomes a run, 2 at a time."));
    dialog.decideButton()->click();
    QCOMPARE(dialog.result(), int(QDialog::Accepted));
    const QList<Run> runs = dialog.decided().runs;
    QCOMPARE(runs.size(), 3);
    QCOMPARE(runs.first().scheduledFor.toMSecsSinceEpoch(), s.firstMs); // oldest first
    QCOMPARE(runs.last().scheduledFor.toMSecsSinceEpoch(), s.lastMs);
    QVERIFY(!dialog.decided().kept);
    QCOMPARE(ScheduleRepository(t.store()).byId(s.schedule.id)->misfire, MisfirePolicy::Ask);
    // Decided meanwhile elsewhere (the command line): a second dialog says so, writes nothing.
    MissedRunsDialog again(t.store(), s.chain, waiting);
    again.decideButton()->click();
    QCOMPARE(again.result(), int(QDialog::Rejected));
    QVERIFY(again.decided().runs.isEmpty());
    QCOMPARE(RunRepository(t.store()).list(RunFilter{})->size(), 4); // the first run and three
}

void TestChainOccurrences::dialog_dismisses()
{
    HG_TEST_STORE(t);
    const Setup s = missedWhileAsleep(t.store());
    const MissedRunsInbox::Waiting waiting = MissedRunsInbox(t.store()).waiting(s.chain.id).value();
    MissedRunsDialog dialog(t.store(), s.chain, waiting);
    dialog.choose(MissedRunsInbox::Choice::Dismiss);
    QCOMPARE(dialog.decideButton()->text(), QStringLiteral("&Dismiss"));
    dialog.decideButton()->click();
    QCOMPARE(dialog.result(), int(QDialog::Accepted));
    QVERIFY(dialog.decided().runs.isEmpty());
    QCOMPARE(RunRepository(t.store()).list(RunFilter{})->size(), 1);
    const QList<Occurrence> rows =
        OccurrenceRepository(t.store()).list(s.chain.id, s.firstMs, s.lastMs).value();
    QCOMPARE(rows.size(), 1);
    QCOMPARE(rows.first().inbox, InboxState::Dismissed);
}

void TestChainOccurrences::timeline_showsThePastBesideTheWeek()
{
    HG_TEST_STORE(t);
    const Setup s = missedWhileAsleep(t.store());
    Chain other;
    other.projectId = s.chain.projectId;
    other.name = QStringLiteral("quiet");
    QVERIFY(ChainRepository(t.store()).add(other));
    UpcomingModel upcoming(t.store());
    OccurrencesModel recent(t.store());
    UpcomingTimeline timeline(&upcoming, &recent);
    const qint64 nowMs = QDateTime::currentMSecsSinceEpoch();
    QVERIFY(recent.reload({}, nowMs - 24 * 3600000, nowMs));
    QCOMPARE(recent.rowCount(), 2);
    QCOMPARE(recent.index(1, OccurrencesModel::ChainColumn).data().toString(),
             QStringLiteral("p/nightly"));
    QCOMPARE(timeline.rowLabels(), QStringList{QStringLiteral("p/nightly")});
    QVERIFY2(timeline.accessibleDescription().contains(QStringLiteral("1 ran, 3 missed")),
             qPrintable(timeline.accessibleDescription()));
    QVERIFY(upcoming.reload());
    QCOMPARE(timeline.rowLabels(), QStringList{QStringLiteral("p/nightly")}); // one row for both
    timeline.resize(900, 120);
    const QImage drawn = timeline.grab().toImage();
    QVERIFY(!drawn.isNull());
}

void TestChainOccurrences::alertsDialog_editsTheRulesAndRefusesABadDeadline()
{
    AlertRules rules;
    rules.lateAfterMs = 90000;
    rules.longerThanFactor = 3;
    rules.shorterThanMs = 5000;
    rules.deadline = QStringLiteral("0 7 * * 1-5");
    AlertsDialog dialog(rules);
    QCOMPARE(dialog.rules(), rules); // shown as it is, read back the same
    QCOMPARE(AlertsDialog::summary(rules),
             QStringLiteral("Alerts: late by > 1 min 30 s, longer than 3x the median, shorter "
                            "than 5 s, succeeded by 0 7 * * 1-5 (%1)")
                 .arg(QString::fromUtf8(QTimeZone::systemTimeZoneId())));
    rules.deadlineZone = QStringLiteral("Europe/Berlin");
    QVERIFY(AlertsDialog::summary(rules).endsWith(QStringLiteral("(Europe/Berlin)")));
    rules.deadlineZone.clear();
    QCOMPARE(AlertsDialog::summary({}), QStringLiteral("Alerts: none"));
    auto *deadline = dialog.findChild<QLineEdit *>(QStringLiteral("alerts.deadline"));
    QVERIFY(deadline);
    deadline->setText(QStringLiteral("0 25 * * *"));
    auto *buttons = dialog.findChild<QDialogButtonBox *>();
    buttons->button(QDialogButtonBox::Ok)->click();
    QCOMPARE(dialog.result(), int(QDialog::Rejected)); // still open, saying why
    QVERIFY2(dialog.error().startsWith(QStringLiteral("The deadline:")),
             qPrintable(dialog.error()));
    deadline->setText(QStringLiteral("0 7 * * 1-5"));
    auto *longerUnit = dialog.findChild<QComboBox *>(QStringLiteral("alerts.longerThan.unit"));
    longerUnit->setCurrentIndex(2); // minutes
    dialog.findChild<QDoubleSpinBox *>(QStringLiteral("alerts.longerThan"))->setValue(20);
    buttons->button(QDialogButtonBox::Ok)->click();
    QCOMPARE(dialog.result(), int(QDialog::Accepted));
    QCOMPARE(dialog.rules().longerThanMs, 20 * 60000);
    QCOMPARE(dialog.rules().longerThanFactor, 0.0);
}

QTEST_MAIN(TestChainOccurrences)
#include "tst_chainoccurrences.moc"
