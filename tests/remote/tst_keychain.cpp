#include "remote/connectionsecrets.h"
#include "remote/keychain.h"
#include "remote/passwordfile.h"
#include "testservers.h"

#include <QTemporaryDir>
#include <QTest>

#include <future>

using namespace hg;

// Against a real Secret Service: CTest runs this inside `dbus-run-session` with
// gnome-keyring-daemon unlocked (tests/remote/with_keyring.sh). Where none can start, the
// wrapper says why and the test skips.
class TestKeychain : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase()
    {
        HG_REQUIRE_PART(!qEnvironmentVariableIsEmpty("HOURGLASS_TEST_KEYRING"),
                        "no Secret Service: run through tests/remote/with_keyring.sh");
    }

    void writeReadRemove_roundTrip()
    {
        const Keychain keychain(QStringLiteral("Hourglass test"));
        const QString key = QStringLiteral("roundtrip/%1").arg(QCoreApplication::applicationPid());
        QVERIFY(keychain.write(key, QStringLiteral("s3cret:\\ü")));
        const Result<QString> read = keychain.read(key);
        QVERIFY2(read, qPrintable(read ? QString() : read.error().message));
        QCOMPARE(read.value(), QStringLiteral("s3cret:\\ü"));
        QVERIFY(keychain.remove(key));
        const Result<QString> gone = keychain.read(key);
        QVERIFY(!gone);
        QCOMPARE(gone.error().kind, ErrorKind::NotFound);
        QVERIFY(keychain.remove(key)); // nothing left to remove is fine
    }

    void read_worksFromAThreadOfItsOwn()
    {
        // The engine asks for SQL tasks' passwords this way (EngineConfigFactory).
        const Keychain keychain(QStringLiteral("Hourglass test"));
        QVERIFY(keychain.write(QStringLiteral("threaded"), QStringLiteral("pw")));
        const QString read =
            std::async(std::launch::async, [] {
                const Result<QString> secret =
                    Keychain(QStringLiteral("Hourglass test")).read(QStringLiteral("threaded"));
                return secret ? secret.value() : QString();
            }).get();
        QCOMPARE(read, QStringLiteral("pw"));
    }

    void secrets_preferTheKeychainAndLeaveNoFile()
    {
        QTemporaryDir home;
        ConnectionProfile profile;
        profile.name = QStringLiteral("kc");
        profile.kind = ConnectionKind::PgTimetable;
        profile.host = QStringLiteral("db");
        profile.userName = QStringLiteral("ops");
        const ConnectionSecrets secrets(Keychain(QStringLiteral("Hourglass test")), home.path());
        const Result<QString> where = secrets.store(profile, QStringLiteral("pw"));
        QVERIFY(where);
        QCOMPARE(where.value(), QStringLiteral("the keychain"));
        QCOMPARE(profile.keychainKey, QStringLiteral("connection/kc"));
        QVERIFY(!PasswordFile::holds(profile, home.path()));
        const Result<QString> looked = secrets.lookup(profile);
        QVERIFY(looked);
        QCOMPARE(looked.value(), QStringLiteral("pw"));
        QVERIFY(secrets.forget(profile));
        const Result<QString> gone = secrets.lookup(profile);
        QVERIFY(!gone);
        QVERIFY2(gone.error().message.contains(QLatin1String("remote password kc")),
                 qPrintable(gone.error().message));
    }
};

QTEST_GUILESS_MAIN(TestKeychain)
#include "tst_keychain.moc"
