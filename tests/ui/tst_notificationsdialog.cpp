#include "fixtures.h"
#include "notify/channeldialog.h"
#include "notify/notificationsdialog.h"
#include "notify/routedialog.h"
#include "store/notifychannelrepository.h"
#include "store/notifyrouterepository.h"
#include "store/runrepository.h"
#include "storereader.h"
#include "testhttpserver.h"
#include "testservers.h"
#include "teststore.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QTest>

using namespace hg;

// Settings → Notifications, used as a person would, key by key: a webhook channel added with
// its flood control and tested against a real HTTP receiver, a bad URL refused in the dialog
// with nothing saved, a route added for one chain among others, the outbox's rows shown and
// filtered, a channel removed after its question. Reads on a reader thread, as the window's.
class TestNotificationsDialog final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void channel_addedTestedAndRemoved();
    void badUrl_isRefusedInTheDialogAndNothingIsSaved();
    void route_forOneChain_andDeliveriesShown();
    void routeSelection_followsItsRouteWhenRowsMove();
    void duplicateName_isRefusedInTheDialogKeepingWhatWasTyped();

private:
    static ChannelDialog *openChannelDialog(NotificationsDialog &dialog);
    static void type(QWidget *field, const QString &text);
    static QPushButton *okOf(QDialog *dialog);
    // A webhook channel "hook" to a port nothing listens on: its id.
    static qint64 addAwayHook(Store &store);
};

void TestNotificationsDialog::type(QWidget *field, const QString &text)
{
    field->setFocus();
    QTest::keyClicks(field, text);
}

QPushButton *TestNotificationsDialog::okOf(QDialog *dialog)
{
    return dialog->findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok);
}

qint64 TestNotificationsDialog::addAwayHook(Store &store)
{
    NotifyChannel hook;
    hook.name = QStringLiteral("hook");
    hook.kind = ChannelKind::Webhook;
    hook.url = QStringLiteral("http://127.0.0.1:9/away");
    const Result<NotifyChannel> added = NotifyChannelRepository(store).add(hook);
    return added ? added->id : 0;
}

ChannelDialog *TestNotificationsDialog::openChannelDialog(NotificationsDialog &dialog)
{
    dialog.findChild<QPushButton *>(QStringLiteral("notify.addChannel"))->click();
    return dialog.findChild<ChannelDialog *>();
}

void TestNotificationsDialog::channel_addedTestedAndRemoved()
{
    HG_TEST_STORE(t);
    test::TestHttpServer http;
    QVERIFY(http.start());
    StoreReader reader(t.store().location(), true);
    NotificationsDialog dialog(t.store(), &reader);
    dialog.show();
    QTRY_VERIFY(!dialog.isReading());
    QCOMPARE(dialog.channelsTable()->rowCount(), 0);

    ChannelDialog *add = openChannelDialog(dialog);
    QVERIFY(add);
    type(add->findChild<QLineEdit *>(QStringLiteral("channel.name")), QStringLiteral("hook"));
    auto *kind = add->findChild<QComboBox *>(QStringLiteral("channel.kind"));
    kind->setFocus();
    QTest::keyClick(kind, Qt::Key_Down); // Webhook
    QCOMPARE(kind->currentIndex(), 1);
    type(add->findChild<QLineEdit *>(QStringLiteral("channel.webhookUrl")),
         http.url(QStringLiteral("/echo")).toString());
    auto *flood = add->findChild<QSpinBox *>(QStringLiteral("channel.flood"));
    flood->setFocus();
    QTest::keyClick(flood, Qt::Key_A, Qt::ControlModifier);
    QTest::keyClicks(flood, QStringLiteral("3"));
    QTest::mouseClick(okOf(add), Qt::LeftButton);
    QTRY_COMPARE(dialog.channelsTable()->rowCount(), 1);
    const Result<NotifyChannel> stored =
        NotifyChannelRepository(t.store()).byName(QStringLiteral("hook"));
    QVERIFY(stored);
    QCOMPARE(stored->kind, ChannelKind::Webhook);
    QCOMPARE(stored->floodLimit, 3);
    QCOMPARE(dialog.channelsTable()->item(0, 3)->text(), QStringLiteral("3 in 600 s, 200 a day"));

    // Test: sent off the window's thread, the receiver's answer shown.
    dialog.channelsTable()->selectRow(0);
    dialog.findChild<QPushButton *>(QStringLiteral("notify.testChannel"))->click();
    QTRY_COMPARE(http.requests().size(), 1);
    QTRY_VERIFY2(dialog.statusLabel()->text().startsWith(QLatin1String("Sent to 'hook'")),
                 qPrintable(dialog.statusLabel()->text()));

    // Remove: asked first; Cancel keeps it, Yes removes it.
    dialog.findChild<QPushButton *>(QStringLiteral("notify.removeChannel"))->click();
    auto *question =
        dialog.findChild<QMessageBox *>(QStringLiteral("notify.removeChannelQuestion"));
    QVERIFY(question);
    question->button(QMessageBox::Yes)->click();
    QTRY_COMPARE(dialog.channelsTable()->rowCount(), 0);
    QVERIFY(!NotifyChannelRepository(t.store()).byName(QStringLiteral("hook")));
}

void TestNotificationsDialog::badUrl_isRefusedInTheDialogAndNothingIsSaved()
{
    HG_TEST_STORE(t);
    NotificationsDialog dialog(t.store(), nullptr);
    ChannelDialog *add = openChannelDialog(dialog);
    type(add->findChild<QLineEdit *>(QStringLiteral("channel.name")), QStringLiteral("mail"));
    type(add->findChild<QLineEdit *>(QStringLiteral("channel.smtpUrl")),
         QStringLiteral("smtp://bob:hunter2@mail.example.org"));
    type(add->findChild<QLineEdit *>(QStringLiteral("channel.from")),
         QStringLiteral("hourglass@example.org"));
    type(add->findChild<QLineEdit *>(QStringLiteral("channel.to")),
         QStringLiteral("ops@example.org"));
    QTest::mouseClick(okOf(add), Qt::LeftButton);
    auto *problem = add->findChild<QLabel *>(QStringLiteral("channel.problem"));
    QVERIFY(!problem->isHidden());
    QVERIFY2(problem->text().contains(QLatin1String("plain text")), qPrintable(problem->text()));
    QVERIFY(add->isVisible() || add->result() != QDialog::Accepted);
    QCOMPARE(NotifyChannelRepository(t.store()).list()->size(), 0);
}

void TestNotificationsDialog::route_forOneChain_andDeliveriesShown()
{
    HG_TEST_STORE(t);
    const Chain other = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("other"));
    const Chain chain = test::makeChain(t.store(), QStringLiteral("p"), QStringLiteral("nightly"));
    QVERIFY(addAwayHook(t.store()) > 0);
    StoreReader reader(t.store().location(), true);
    NotificationsDialog dialog(t.store(), &reader);
    dialog.setChosenScope(QStringLiteral("p/nightly"));
    dialog.showPage(NotificationsDialog::Page::Routes);
    dialog.show();
    QTRY_VERIFY(!dialog.isReading());

    dialog.findChild<QPushButton *>(QStringLiteral("notify.addRoute"))->click();
    QTRY_VERIFY(dialog.findChild<RouteDialog *>());
    auto *route = dialog.findChild<RouteDialog *>();
    auto *scope = route->findChild<QComboBox *>(QStringLiteral("route.scope"));
    QCOMPARE(scope->currentText(), QStringLiteral("p/nightly")); // the chain it was opened for
    auto *output = route->findChild<QCheckBox *>(QStringLiteral("route.on.output"));
    output->setFocus();
    QTest::keyClick(output, Qt::Key_Space);
    QTest::mouseClick(okOf(route), Qt::LeftButton);
    QTRY_COMPARE(dialog.routesTable()->rowCount(), 1);
    QCOMPARE(dialog.routesTable()->item(0, 0)->text(), QStringLiteral("p/nightly"));
    QCOMPARE(dialog.routesTable()->item(0, 2)->text(), QStringLiteral("failure, recovery, output"));
    const QList<NotifyRoute> routes = NotifyRouteRepository(t.store()).list().value();
    QCOMPARE(routes.size(), 1);
    QCOMPARE(routes.at(0).chainId, chain.id);
    QVERIFY(routes.at(0).chainId != other.id);

    // A failed run of the chain: its message waits in the outbox, and the Deliveries page shows it.
    const Run run = test::queueRun(t.store(), chain.id);
    const QDateTime now = QDateTime::currentDateTimeUtc();
    QVERIFY(RunRepository(t.store()).setState(run.id, RunState::Running, now, QStringLiteral("e")));
    QVERIFY(RunRepository(t.store()).setState(run.id, RunState::Failed, now, QStringLiteral("e")));
    dialog.showPage(NotificationsDialog::Page::Deliveries);
    dialog.refresh();
    QTRY_COMPARE(dialog.deliveriesTable()->rowCount(), 1);
    QCOMPARE(dialog.deliveriesTable()->item(0, 2)->text(), QStringLiteral("failure"));
    QCOMPARE(dialog.deliveriesTable()->item(0, 4)->text(), QStringLiteral("queued"));
    auto *filter = dialog.findChild<QComboBox *>(QStringLiteral("notify.stateFilter"));
    filter->setFocus();
    QTest::keyClick(filter, Qt::Key_Down); // queued
    QTest::keyClick(filter, Qt::Key_Down); // sent
    QTRY_VERIFY(!dialog.isReading());
    QTRY_COMPARE(dialog.deliveriesTable()->rowCount(), 0);
}

// helper-5: a route removed elsewhere moved the selection onto the next route, whose Remove
// then removed the wrong one. The selection follows its route's id.
void TestNotificationsDialog::routeSelection_followsItsRouteWhenRowsMove()
{
    HG_TEST_STORE(t);
    const qint64 channelId = addAwayHook(t.store());
    QList<qint64> routeIds;
    for (const char *name : {"a", "b", "c"}) {
        NotifyRoute route;
        route.channelId = channelId;
        route.chainId =
            test::makeChain(t.store(), QStringLiteral("p"), QString::fromLatin1(name)).id;
        route.events = {NotifyEvent::Failure};
        routeIds << NotifyRouteRepository(t.store()).add(route).value().id;
    }
    StoreReader reader(t.store().location(), true);
    NotificationsDialog dialog(t.store(), &reader);
    dialog.showPage(NotificationsDialog::Page::Routes);
    dialog.show();
    QTRY_COMPARE(dialog.routesTable()->rowCount(), 3);
    dialog.routesTable()->selectRow(2); // p/c
    QCOMPARE(dialog.routesTable()->item(2, 0)->text(), QStringLiteral("p/c"));
    QVERIFY(NotifyRouteRepository(t.store()).remove(routeIds.at(0))); // p/a, elsewhere
    dialog.refresh();
    QTRY_COMPARE(dialog.routesTable()->rowCount(), 2);
    QTRY_VERIFY(!dialog.isReading());
    const QList<QTableWidgetItem *> selected = dialog.routesTable()->selectedItems();
    QVERIFY(!selected.isEmpty());
    QCOMPARE(selected.first()->text(), QStringLiteral("p/c"));
    dialog.findChild<QPushButton *>(QStringLiteral("notify.removeRoute"))->click();
    QTRY_COMPARE(dialog.routesTable()->rowCount(), 1);
    QCOMPARE(dialog.routesTable()->item(0, 0)->text(), QStringLiteral("p/b")); // kept
    QVERIFY2(dialog.statusLabel()->text().contains(QLatin1String("p/c to hook")),
             qPrintable(dialog.statusLabel()->text()));
}

void TestNotificationsDialog::duplicateName_isRefusedInTheDialogKeepingWhatWasTyped()
{
    HG_TEST_STORE(t);
    QVERIFY(addAwayHook(t.store()) > 0);
    NotificationsDialog dialog(t.store(), nullptr);
    ChannelDialog *add = openChannelDialog(dialog);
    type(add->findChild<QLineEdit *>(QStringLiteral("channel.name")), QStringLiteral("hook"));
    auto *kind = add->findChild<QComboBox *>(QStringLiteral("channel.kind"));
    kind->setFocus();
    QTest::keyClick(kind, Qt::Key_Down);
    type(add->findChild<QLineEdit *>(QStringLiteral("channel.webhookUrl")),
         QStringLiteral("http://127.0.0.1:9/other"));
    QTest::mouseClick(okOf(add), Qt::LeftButton);
    auto *problem = add->findChild<QLabel *>(QStringLiteral("channel.problem"));
    QVERIFY(!problem->isHidden());
    QVERIFY2(problem->text().contains(QLatin1String("exists")), qPrintable(problem->text()));
    QCOMPARE(add->findChild<QLineEdit *>(QStringLiteral("channel.webhookUrl"))->text(),
             QStringLiteral("http://127.0.0.1:9/other"));
}

QTEST_MAIN(TestNotificationsDialog)
#include "tst_notificationsdialog.moc"
