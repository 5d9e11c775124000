#include "api/apihost.h"
#include "remoteaccess.h"
#include "settings/appsettings.h"
#include "settings/remoteaccessbox.h"
#include "settings/settingsdialog.h"
#include "store/apitokenrepository.h"
#include "testservers.h"
#include "teststore.h"
#include "window/apistatusbutton.h"

#include <QApplication>
#include <QCheckBox>
#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace hg;

// Settings → Remote access as a user works it, key by key: off by default, a network address
// refused without HTTPS or plain HTTP chosen, OK taken only when it can be served; then the
// desktop's RemoteAccess serves it and the status bar's button says where and lists what was
// asked.
class TestRemoteAccess final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void box_refusesWhatCannotBeServed();
    void enabled_servesAndListsRequests();

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<AppSettings> m_settings;
};

void TestRemoteAccess::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_settings = std::make_unique<AppSettings>(m_dir->filePath(QStringLiteral("settings.ini")));
}

void TestRemoteAccess::box_refusesWhatCannotBeServed()
{
    SettingsDialog dialog(*m_settings);
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    auto *box = dialog.findChild<RemoteAccessBox *>(QStringLiteral("settings.remoteAccess"));
    QVERIFY(box);
    QVERIFY(!box->isChecked()); // off until turned on
    auto *listen = dialog.findChild<QLineEdit *>(QStringLiteral("settings.apiListen"));
    auto *problem = dialog.findChild<QLabel *>(QStringLiteral("settings.apiProblem"));
    auto *insecure = dialog.findChild<QCheckBox *>(QStringLiteral("settings.apiInsecure"));
    QVERIFY(listen && problem && insecure);
    QTest::keyClick(&dialog, Qt::Key_A, Qt::AltModifier); // the box's mnemonic turns it on
    QVERIFY(box->isChecked());
    listen->setFocus();
    listen->selectAll();
    QTest::keyClicks(listen, QStringLiteral("0.0.0.0:18999"));
    QVERIFY(problem->isVisible());
    QVERIFY(problem->text().contains(QLatin1String("other machines")));
    // OK is not taken: nothing is written while the box says what is wrong.
    QSignalSpy changed(m_settings.get(), &AppSettings::changed);
    dialog.findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok)->click();
    QVERIFY(dialog.isVisible());
    QCOMPARE(changed.count(), 0);
    listen->selectAll();
    QTest::keyClicks(listen, QStringLiteral("not an address"));
    QVERIFY(problem->text().contains(QLatin1String("ADDRESS:PORT")));
    listen->selectAll();
    QTest::keyClicks(listen, QStringLiteral("0.0.0.0:18999"));
    // Tab from the address goes down the form: certificate, its Browse, key, its Browse, the
    // plain-HTTP box.
    QApplication::setActiveWindow(&dialog);
    QVERIFY(QTest::qWaitForWindowActive(&dialog));
    listen->setFocus();
    QCOMPARE(QApplication::focusWidget(), listen);
    QStringList path;
    for (int i = 0; i < 5; ++i) {
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
        path << (QApplication::focusWidget()->objectName().isEmpty()
                     ? QString::fromLatin1(QApplication::focusWidget()->metaObject()->className())
                     : QApplication::focusWidget()->objectName());
    }
    QCOMPARE(path,
             (QStringList{QStringLiteral("settings.apiCertificate"), QStringLiteral("QPushButton"),
                          QStringLiteral("settings.apiKey"), QStringLiteral("QPushButton"),
                          QStringLiteral("settings.apiInsecure")}));
    QTest::keyClick(insecure, Qt::Key_Space);
    QVERIFY(!problem->isVisible());
    dialog.findChild<QDialogButtonBox *>()->button(QDialogButtonBox::Ok)->click();
    QVERIFY(!dialog.isVisible());
    dialog.applyTo(*m_settings);
    QVERIFY(m_settings->apiEnabled());
    QCOMPARE(m_settings->apiListen(), QStringLiteral("0.0.0.0:18999"));
    QVERIFY(m_settings->apiInsecure());
    // ApiEnabled is written last, so who follows it restarts once, with the rest in place.
    QCOMPARE(changed.last().at(0).value<AppSettings::Key>(), AppSettings::Key::ApiEnabled);
}

void TestRemoteAccess::enabled_servesAndListsRequests()
{
    HG_TEST_STORE(t);
    const Result<ApiTokenRepository::Made> token =
        ApiTokenRepository(t.store()).make(QStringLiteral("gui"), ApiRole::Read, {});
    QVERIFY(token);
    ApiStatusButton button;
    RemoteAccess access(*m_settings, t.location(), nullptr, &button);
    access.apply();
    QVERIFY(!access.isServing());
    QVERIFY(button.isHidden());
    m_settings->setApiListen(QStringLiteral("127.0.0.1:0"));
    m_settings->setApiEnabled(true); // followed at once, as the dialog's OK does
    QVERIFY(access.isServing());
    QTRY_VERIFY_WITH_TIMEOUT(button.text().startsWith(QLatin1String("API: http://127.0.0.1:")),
                             10000);
    QVERIFY(!button.text().contains(QLatin1String("plain HTTP")));
    const QString url = button.text().mid(5);
    QNetworkAccessManager network;
    QNetworkRequest request(QUrl(url + QStringLiteral("/chains")));
    request.setRawHeader("Authorization", "Bearer " + token->text.toLatin1());
    QNetworkReply *reply = network.get(request);
    QTRY_VERIFY_WITH_TIMEOUT(reply->isFinished(), 10000);
    QCOMPARE(reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt(), 200);
    reply->deleteLater();
    QTRY_VERIFY_WITH_TIMEOUT(!button.served().isEmpty(), 10000);
    QCOMPARE(button.served().last().token, QStringLiteral("gui"));
    QCOMPARE(button.describeServed(), QStringLiteral("GET /api/v1/chains 200"));
    // A setting that cannot be served is said, and nothing listens.
    m_settings->setApiListen(QStringLiteral("10.1.2.3:80"));
    QVERIFY(!access.isServing());
    QCOMPARE(button.text(), QStringLiteral("API: not serving"));
    QVERIFY(button.toolTip().contains(QLatin1String("--api-cert")));
    m_settings->setApiEnabled(false);
    QVERIFY(button.isHidden());
}

QTEST_MAIN(TestRemoteAccess)
#include "tst_remoteaccess.moc"
