#include "domain/connectionurl.h"
#include "pgtimetableschema.h"
#include "projecttreemodel.h"
#include "remote/connectiondialog.h"
#include "remote/connectionpage.h"
#include "remote/connectionscontroller.h"
#include "remote/pgtimetablechainpage.h"
#include "remote/remotechaincanvas.h"
#include "store/connectionprofilerepository.h"
#include "testservers.h"
#include "teststore.h"
#include "window/mainwindow.h"

#include <QCheckBox>
#include <QComboBox>
#include <QElapsedTimer>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QSqlError>
#include <QSqlQuery>
#include <QTableWidget>
#include <QTest>
#include <QTimer>
#include <QTreeView>

using namespace hg;

// The pg_timetable chain page against pg_timetable's schema on the PostgreSQL of scripts/test:
// it shows the chain, saves an edited task in one transaction, pages its runs, and stays
// responsive while a remote that refuses connections is asked.
class TestPgTimetableChainPage final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void page_showsEditsAndSavesTheChain();
    void runs_pageThroughTheHistory();
    void refusingRemote_showsTheCauseAndNeverBlocks();
    void slowRemote_boundedConnectionsAndNothingOfTheLastChain();
    void longCommand_isShownShortAndSavedWhole();
    void projectTree_showsConnectionsTheirStatesAndChains();
    void connectionDialog_refusesAPasswordInTheUrlAndSaves();
    void newerSchema_saysItIsReadOnlyOnceOnTheConnectionAndThePage();

private:
    QTableWidget *table(PgTimetableChainPage &page, const QString &accessibleName);
    QPushButton *button(PgTimetableChainPage &page, const QString &text);

    QSqlDatabase m_admin;
    QSqlDatabase m_db;
    QString m_database;
    ConnectionProfile m_profile;
};

void TestPgTimetableChainPage::initTestCase()
{
    const QUrl url = test::postgresUrl();
    HG_REQUIRE_SERVER(url, "HOURGLASS_TEST_PG_URL");
    m_admin = QSqlDatabase::addDatabase(QStringLiteral("QPSQL"), QStringLiteral("admin"));
    m_admin.setHostName(url.host());
    m_admin.setPort(url.port(5432));
    m_admin.setUserName(url.userName());
    m_admin.setDatabaseName(url.path().mid(1));
    QVERIFY2(m_admin.open(), qPrintable(m_admin.lastError().text()));
    m_database = QStringLiteral("hg_ttpage_%1").arg(QCoreApplication::applicationPid());
    QSqlQuery q(m_admin);
    QVERIFY2(q.exec(QStringLiteral("CREATE DATABASE %1").arg(m_database)),
             qPrintable(q.lastError().text()));
    m_db = QSqlDatabase::addDatabase(QStringLiteral("QPSQL"), QStringLiteral("tt"));
    m_db.setHostName(url.host());
    m_db.setPort(url.port(5432));
    m_db.setUserName(url.userName());
    m_db.setDatabaseName(m_database);
    QVERIFY(m_db.open());
    QVERIFY(PgTimetableSchema::create(m_db, 6));
    QSqlQuery tt(m_db);
    QVERIFY(tt.exec(QStringLiteral("SELECT timetable.add_job('nightly', '30 2 * * *', "
                                   "'SELECT 1', job_client_name => 'worker-1')")));
    QVERIFY(tt.next());
    const qint64 chainId = tt.value(0).toLongLong();
    for (int i = 0; i < 230; ++i) {
        PgTimetableSchema::Execution e;
        e.chainId = chainId;
        e.taskId = chainId;
        e.txid = i + 1;
        e.returnCode = i % 7 == 0 ? 1 : 0;
        QVERIFY(PgTimetableSchema::recordExecution(m_db, e, 6));
    }
    // The oldest 30 ran two days ago: outside "Last 24 hours".
    QVERIFY(tt.exec(QStringLiteral("UPDATE timetable.execution_log SET last_run = last_run - "
                                   "interval '2 days', finished = finished - interval '2 days' "
                                   "WHERE txid <= 30")));
    QUrl remote = url;
    remote.setPath(QLatin1Char('/') + m_database);
    m_profile =
        ConnectionUrl::parse(QStringLiteral("tt"), ConnectionKind::PgTimetable, remote.toString())
            .value();
}

void TestPgTimetableChainPage::cleanupTestCase()
{
    m_db.close();
    if (!m_database.isEmpty()) {
        QSqlQuery q(m_admin);
        q.exec(QStringLiteral("DROP DATABASE IF EXISTS %1 WITH (FORCE)").arg(m_database));
    }
}

QTableWidget *TestPgTimetableChainPage::table(PgTimetableChainPage &page, const QString &name)
{
    const auto tables = page.findChildren<QTableWidget *>();
    for (QTableWidget *t : tables)
        if (t->accessibleName() == name)
            return t;
    return nullptr;
}

QPushButton *TestPgTimetableChainPage::button(PgTimetableChainPage &page, const QString &text)
{
    const auto buttons = page.findChildren<QPushButton *>();
    for (QPushButton *b : buttons)
        if (b->text() == text)
            return b;
    return nullptr;
}

void TestPgTimetableChainPage::page_showsEditsAndSavesTheChain()
{
    PgTimetableChainPage page;
    page.show();
    page.showChain(m_profile, QStringLiteral("nightly"));
    QTRY_VERIFY_WITH_TIMEOUT(!page.isBusy(), 15000);
    QVERIFY2(page.statusText().contains(QLatin1String("6.x")), qPrintable(page.statusText()));
    QTableWidget *tasks = table(page, QStringLiteral("Tasks in order"));
    QVERIFY(tasks);
    QCOMPARE(tasks->rowCount(), 1);
    QCOMPARE(tasks->item(0, 3)->text(), QStringLiteral("SELECT 1"));
    // Drawn on the DAG canvas too.
    QTRY_COMPARE(page.canvas()->nodeCount(), 1);
    QVERIFY(page.findChild<QLineEdit *>()->text() == QStringLiteral("30 2 * * *"));
    // The schedule's meaning and next fires, from our pgtimetable dialect.
    const auto labels = page.findChildren<QLabel *>();
    QVERIFY(std::any_of(labels.cbegin(), labels.cend(), [](const QLabel *label) {
        return label->text().contains(QLatin1String("Next:"));
    }));

    tasks->item(0, 3)->setText(QStringLiteral("SELECT $1::int"));
    tasks->item(0, 4)->setText(QStringLiteral("[[41], [42]]"));
    QPushButton *save = button(page, QStringLiteral("Save to pg_timetable"));
    QVERIFY(save && save->isEnabled());
    save->click();
    QTRY_VERIFY_WITH_TIMEOUT(!page.isBusy(), 15000);
    QSqlQuery q(m_db);
    QVERIFY(q.exec(QStringLiteral("SELECT t.command, string_agg(p.value::text, '|' ORDER BY "
                                  "p.order_id) FROM timetable.task t JOIN timetable.parameter p "
                                  "USING (task_id) GROUP BY t.command")));
    QVERIFY(q.next());
    QCOMPARE(q.value(0).toString(), QStringLiteral("SELECT $1::int"));
    QCOMPARE(q.value(1).toString(), QStringLiteral("[41]|[42]"));
    // A second task after a save is a second node, linked to the first.
    QPushButton *addTask = button(page, QStringLiteral("Add task"));
    addTask->click();
    tasks->item(1, 3)->setText(QStringLiteral("SELECT 2"));
    tasks->item(0, 4)->setText(QStringLiteral("[[41], [42]]"));
    save->click();
    QTRY_VERIFY_WITH_TIMEOUT(!page.isBusy(), 15000);
    QTRY_COMPARE(page.canvas()->nodeCount(), 2);

    // Bad parameters are refused in the page; nothing is written.
    tasks->item(0, 4)->setText(QStringLiteral("{not json"));
    save->click();
    QVERIFY(page.statusText().contains(QLatin1String("JSON array")));
    QVERIFY(!page.isBusy());
}

void TestPgTimetableChainPage::runs_pageThroughTheHistory()
{
    PgTimetableChainPage page;
    page.showChain(m_profile, QStringLiteral("nightly"));
    QTRY_VERIFY_WITH_TIMEOUT(!page.isBusy(), 15000);
    QTableWidget *runs = table(page, QStringLiteral("Runs"));
    QCOMPARE(runs->rowCount(), 200);
    QPushButton *more = button(page, QStringLiteral("Load more"));
    QVERIFY(more->isEnabled());
    more->click();
    QTRY_VERIFY_WITH_TIMEOUT(!page.isBusy(), 15000);
    QCOMPARE(runs->rowCount(), 230);
    QVERIFY(!more->isEnabled());
    const auto boxes = page.findChildren<QCheckBox *>();
    for (QCheckBox *box : boxes)
        if (box->text() == QLatin1String("Failed only"))
            box->setChecked(true);
    QTRY_VERIFY_WITH_TIMEOUT(!page.isBusy(), 15000);
    QCOMPARE(runs->rowCount(), 33); // every seventh of 230
    const auto combos = page.findChildren<QComboBox *>();
    for (QComboBox *combo : combos)
        if (combo->accessibleName() == QLatin1String("Runs started within"))
            combo->setCurrentIndex(combo->findText(QStringLiteral("Last 24 hours")));
    QTRY_VERIFY_WITH_TIMEOUT(!page.isBusy(), 15000);
    QCOMPARE(runs->rowCount(), 28); // every seventh of the newest 200 (txid 31 to 230)
    // Durations and dates as the rest of the window writes them ("60000 ms" before).
    for (int row = 0; row < runs->rowCount(); ++row)
        QVERIFY2(
            !runs->item(row, 3)->text().contains(QRegularExpression(QStringLiteral("\\d{4,} ms"))),
            qPrintable(runs->item(row, 3)->text()));
    // A chain without runs says so (an empty table said nothing).
    QSqlQuery emptied(m_db);
    QVERIFY(emptied.exec(QStringLiteral("DELETE FROM timetable.execution_log")));
    page.showChain(m_profile, QStringLiteral("nightly"));
    QTRY_VERIFY_WITH_TIMEOUT(!page.isBusy(), 15000);
    QTRY_COMPARE(runs->rowCount(), 1);
    QCOMPARE(runs->item(0, 0)->text(), QStringLiteral("No runs yet"));
}

void TestPgTimetableChainPage::refusingRemote_showsTheCauseAndNeverBlocks()
{
    ConnectionProfile refusing = m_profile;
    refusing.host = QStringLiteral("127.0.0.1");
    refusing.port = 1;
    PgTimetableChainPage page;
    int ticks = 0;
    QTimer ticker;
    connect(&ticker, &QTimer::timeout, this, [&ticks] { ++ticks; });
    // A zero-interval timer fires on every pass of the event loop: a refusal on loopback
    // can come back within a few milliseconds, sooner than any fixed interval.
    ticker.start(0);
    QElapsedTimer returned;
    returned.start();
    page.showChain(refusing, QStringLiteral("nightly"));
    QVERIFY(returned.elapsed() < 500); // the call does no I/O itself
    QVERIFY(page.isBusy());            // the answer is still to come, from a pool thread
    QTRY_VERIFY_WITH_TIMEOUT(!page.isBusy(), 15000);
    QVERIFY2(page.statusText().contains(QLatin1String("refused")), qPrintable(page.statusText()));
    QVERIFY(ticks > 0); // the event loop ran while the remote was asked
    QVERIFY(!button(page, QStringLiteral("Save to pg_timetable"))->isEnabled());
}

// A remote that answers nothing while the user goes down the tree: the window reads on at
// most four connections of its own (unbounded, a connection per click filled the server's
// limit and locked its own workers out), skips the reads of chains it left meanwhile, and
// never shows the last chain's settings under the new one's name.
void TestPgTimetableChainPage::slowRemote_boundedConnectionsAndNothingOfTheLastChain()
{
    QSqlQuery tt(m_db);
    QVERIFY(tt.exec(QStringLiteral("SELECT timetable.add_job('weekly', '0 5 * * 1', 'SELECT 2')")));
    PgTimetableChainPage page;
    page.show();
    page.showChain(m_profile, QStringLiteral("weekly"));
    QTRY_VERIFY_WITH_TIMEOUT(!page.isBusy(), 15000);
    QLineEdit *runAt = page.findChild<QLineEdit *>();
    QVERIFY(runAt);
    QCOMPARE(runAt->text(), QStringLiteral("0 5 * * 1"));
    const QString sessions = QStringLiteral("SELECT count(*) FROM pg_stat_activity WHERE datname = "
                                            "'%1' AND pid <> pg_backend_pid()")
                                 .arg(m_database);
    QSqlDatabase locker = QSqlDatabase::cloneDatabase(m_db, QStringLiteral("locker"));
    QVERIFY(locker.open());
    QSqlQuery lock(locker);
    QVERIFY(lock.exec(QStringLiteral("BEGIN")));
    QVERIFY(lock.exec(QStringLiteral("LOCK TABLE timetable.chain IN ACCESS EXCLUSIVE MODE")));
    for (int i = 0; i < 40; ++i)
        page.showChain(m_profile,
                       i % 2 == 0 ? QStringLiteral("nightly") : QStringLiteral("weekly"));
    page.showChain(m_profile, QStringLiteral("nightly"));
    QCOMPARE(runAt->text(), QString()); // not weekly's, while nightly's is read
    const auto count = [this, &sessions] {
        QSqlQuery q(m_admin);
        return q.exec(sessions) && q.next() ? q.value(0).toInt() : -1;
    };
    // The locker, the test's own connection, and the page's readers: at most four.
    QTRY_VERIFY_WITH_TIMEOUT(count() >= 3, 15000);
    const int seen = count();
    QVERIFY2(seen <= 2 + 4, qPrintable(QString::number(seen)));
    QVERIFY(lock.exec(QStringLiteral("ROLLBACK")));
    locker.close();
    QTRY_VERIFY_WITH_TIMEOUT(!page.isBusy(), 30000);
    QCOMPARE(runAt->text(), QStringLiteral("30 2 * * *")); // nightly's, the chain shown
    QVERIFY(count() <= 2 + 4);
    QVERIFY(tt.exec(QStringLiteral("SELECT timetable.delete_job('weekly')")));
}

// 45 KB of SQL in one task: shown cut short in its cell (laid out whole it held the GUI
// thread 0.8 s), not editable there, and saved whole.
void TestPgTimetableChainPage::longCommand_isShownShortAndSavedWhole()
{
    const QString sql = QStringLiteral("SELECT 1;").repeated(5000);
    QSqlQuery tt(m_db);
    tt.prepare(QStringLiteral("SELECT timetable.add_job('long', '0 0 * * *', ?)"));
    tt.addBindValue(sql);
    QVERIFY(tt.exec());
    PgTimetableChainPage page;
    page.show();
    page.showChain(m_profile, QStringLiteral("long"));
    QTRY_VERIFY_WITH_TIMEOUT(!page.isBusy(), 15000);
    QTableWidget *tasks = table(page, QStringLiteral("Tasks in order"));
    QVERIFY(tasks);
    QTableWidgetItem *command = tasks->item(0, 3);
    QVERIFY(command);
    QVERIFY(command->text().size() < 400);
    QVERIFY(command->text().contains(QLatin1String("characters")));
    QVERIFY(!(command->flags() & Qt::ItemIsEditable));
    QLineEdit *runAt = page.findChild<QLineEdit *>();
    runAt->setText(QStringLiteral("0 1 * * *"));
    QPushButton *save = button(page, QStringLiteral("Save to pg_timetable"));
    QVERIFY(save);
    save->click();
    QTRY_VERIFY_WITH_TIMEOUT(!page.isBusy(), 15000);
    QVERIFY(tt.exec(QStringLiteral("SELECT t.command, c.run_at FROM timetable.task t JOIN "
                                   "timetable.chain c USING (chain_id) WHERE c.chain_name = "
                                   "'long'")));
    QVERIFY(tt.next());
    QCOMPARE(tt.value(0).toString(), sql);
    QCOMPARE(tt.value(1).toString(), QStringLiteral("0 1 * * *"));
    QVERIFY(tt.exec(QStringLiteral("SELECT timetable.delete_job('long')")));
}

void TestPgTimetableChainPage::projectTree_showsConnectionsTheirStatesAndChains()
{
    HG_TEST_STORE(t);
    ConnectionProfileRepository profiles(t.store());
    QVERIFY(profiles.add(m_profile));
    ConnectionProfile refusing = m_profile;
    refusing.name = QStringLiteral("down");
    refusing.host = QStringLiteral("127.0.0.1");
    refusing.port = 1;
    QVERIFY(profiles.add(refusing));
    MainWindow window(t.store());
    QSignalSpy done(window.connections(), &ConnectionsController::checksDone);
    window.show();
    ProjectTreeModel *model = window.treeModel();
    // No project yet: the Connections node is the tree's only top-level row.
    QCOMPARE(model->rowCount(), 1);
    const QModelIndex root = model->connectionsIndex();
    QCOMPARE(root.data().toString(), QStringLiteral("Connections"));
    QCOMPARE(model->rowCount(root), 2);
    QTRY_COMPARE_WITH_TIMEOUT(done.size(), 1, 20000);
    const QModelIndex down = model->indexOfConnection(QStringLiteral("down"));
    const QModelIndex tt = model->indexOfConnection(QStringLiteral("tt"));
    QCOMPARE(down.data().toString(), QStringLiteral("down"));
    QVERIFY2(down.data(Qt::ToolTipRole).toString().contains(QLatin1String("refused")),
             qPrintable(down.data(Qt::ToolTipRole).toString()));
    QVERIFY2(tt.data(Qt::ToolTipRole).toString().contains(QLatin1String("pg_timetable 6.x")),
             qPrintable(tt.data(Qt::ToolTipRole).toString()));
    QVERIFY(!down.data(Qt::DecorationRole).isNull());
    QCOMPARE(model->rowCount(down), 0);
    QCOMPARE(model->rowCount(tt), 1);
    const QModelIndex nightly = model->index(0, 0, tt);
    QCOMPARE(nightly.data().toString(), QStringLiteral("nightly"));
    QCOMPARE(ProjectTreeModel::kindOf(nightly), ProjectTreeModel::NodeKind::RemoteChain);
    QVERIFY(!(model->flags(nightly) & Qt::ItemIsEditable));

    // A connection shows its state; a remote chain opens its page in place of the tabs.
    window.projectTree()->setCurrentIndex(down);
    QCOMPARE(window.currentPage(), window.connectionPage());
    QVERIFY(window.connectionPage()->stateText().contains(QLatin1String("refused")));
    window.projectTree()->setCurrentIndex(nightly);
    QCOMPARE(window.currentPage(), window.remoteChainPage());
    QTRY_VERIFY_WITH_TIMEOUT(!window.remoteChainPage()->isBusy(), 15000);
    QVERIFY(window.remoteChainPage()->statusText().contains(QLatin1String("6.x")));

    // A definition edit reloads the tree: the remote chain stays selected, nobody asks again.
    window.newProject();
    QCOMPARE(window.connections()->pendingChecks(), 0);
    QCOMPARE(model->rowCount(model->indexOfConnection(QStringLiteral("tt"))), 1);
    window.projectTree()->setCurrentIndex(
        model->indexOfConnection(QStringLiteral("tt"), QStringLiteral("nightly")));
    window.newChain(); // into the project, not a new one
    QCOMPARE(model->rowCount(), 2);
    QCOMPARE(window.currentPage(), window.tabs());
}

// The read-only warning was said twice in the connection's state (issue 34): once by the
// remote's summary, once more by the check that added it again.
void TestPgTimetableChainPage::newerSchema_saysItIsReadOnlyOnceOnTheConnectionAndThePage()
{
    QSqlQuery tt(m_db);
    QVERIFY(tt.exec(QStringLiteral("INSERT INTO timetable.migration VALUES "
                                   "(99, '00900 a release this Hourglass does not know')")));
    const auto restore = qScopeGuard([this] {
        QSqlQuery(m_db).exec(QStringLiteral("DELETE FROM timetable.migration WHERE id = 99"));
    });
    HG_TEST_STORE(t);
    QVERIFY(ConnectionProfileRepository(t.store()).add(m_profile));
    MainWindow window(t.store());
    QSignalSpy done(window.connections(), &ConnectionsController::checksDone);
    window.show();
    QTRY_COMPARE_WITH_TIMEOUT(done.size(), 1, 20000);
    const QLatin1String warning("shown read only");
    const QModelIndex connection = window.treeModel()->indexOfConnection(QStringLiteral("tt"));
    const QString tip = connection.data(Qt::ToolTipRole).toString();
    QVERIFY2(tip.count(warning) == 1, qPrintable(tip));
    window.projectTree()->setCurrentIndex(connection);
    const QString state = window.connectionPage()->stateText();
    QVERIFY2(state.count(warning) == 1, qPrintable(state));
    window.projectTree()->setCurrentIndex(
        window.treeModel()->indexOfConnection(QStringLiteral("tt"), QStringLiteral("nightly")));
    QTRY_VERIFY_WITH_TIMEOUT(!window.remoteChainPage()->isBusy(), 15000);
    const QString status = window.remoteChainPage()->statusText();
    QVERIFY2(status.count(warning) == 1, qPrintable(status));
    QVERIFY(
        !button(*window.remoteChainPage(), QStringLiteral("Save to pg_timetable"))->isEnabled());
}

void TestPgTimetableChainPage::connectionDialog_refusesAPasswordInTheUrlAndSaves()
{
    HG_TEST_STORE(t);
    ConnectionDialog dialog(t.store(), {});
    auto *url = dialog.findChildren<QLineEdit *>().at(1);
    dialog.findChildren<QLineEdit *>().at(0)->setText(QStringLiteral("fresh"));
    url->setText(QStringLiteral("postgresql://u:secret@db.example/x"));
    dialog.test();
    QVERIFY(dialog.resultText().contains(QLatin1String("--password-stdin")));
    QVERIFY(!dialog.isTesting());
    url->setText(QStringLiteral("postgresql://u@127.0.0.1:1/x"));
    dialog.test();
    QTRY_VERIFY_WITH_TIMEOUT(!dialog.isTesting(), 15000);
    QVERIFY2(dialog.resultText().contains(QLatin1String("refused")),
             qPrintable(dialog.resultText()));
    // The whole answer in view: the label as tall as its wrapped text needs (it was cut).
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    auto *result = dialog.findChild<QLabel *>(QStringLiteral("connection.result"));
    QCOMPARE(result->text(), dialog.resultText());
    QTRY_VERIFY(result->height() >= result->heightForWidth(result->width()));
    QVERIFY(dialog.width() >= dialog.fontMetrics().averageCharWidth() * 72);
    const auto buttons = dialog.findChildren<QPushButton *>();
    for (QPushButton *b : buttons)
        if (b->text() == QLatin1String("&Save") || b->text() == QLatin1String("Save"))
            b->click();
    QCOMPARE(dialog.result(), int(QDialog::Accepted));
    const Result<ConnectionProfile> saved =
        ConnectionProfileRepository(t.store()).byName(QStringLiteral("fresh"));
    QVERIFY(saved);
    QCOMPARE(saved->host, QStringLiteral("127.0.0.1"));
}

QTEST_MAIN(TestPgTimetableChainPage)
#include "tst_pgtimetablechainpage.moc"
