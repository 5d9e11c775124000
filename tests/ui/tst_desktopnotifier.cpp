#include "settings/appsettings.h"
#include "settings/settingsdialog.h"
#include "testservers.h"
#include "tray/desktopnotifier.h"

#include <QApplication>
#include <QDBusConnection>
#include <QDBusConnectionInterface>
#include <QDBusMessage>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

using namespace hg;

namespace {

const QString notificationsService = QStringLiteral("org.freedesktop.Notifications");

// A notification service as small as the specification allows: what it is told to show is
// appended to a file. The test bus starts it (D-Bus activation): this same binary, run with
// --notification-service FILE.
class NotificationService final : public QObject
{
    Q_OBJECT
    Q_CLASSINFO("D-Bus Interface", "org.freedesktop.Notifications")

public:
    explicit NotificationService(QString file)
        : m_file(std::move(file))
    {}

public Q_SLOTS:
    uint Notify(const QString &, uint, const QString &, const QString &summary, const QString &body,
                const QStringList &, const QVariantMap &, int)
    {
        QFile out(m_file);
        if (out.open(QIODevice::Append))
            out.write((summary + QLatin1String(" | ") + body + QLatin1Char('\n')).toUtf8());
        return ++m_id;
    }
    QStringList GetCapabilities() { return {QStringLiteral("actions"), QStringLiteral("body")}; }

private:
    QString m_file;
    uint m_id = 0;
};

int serveNotifications(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    NotificationService service(QString::fromLocal8Bit(argv[2]));
    QDBusConnection bus = QDBusConnection::sessionBus();
    if (!bus.registerObject(QStringLiteral("/org/freedesktop/Notifications"), &service,
                            QDBusConnection::ExportAllSlots)
        || !bus.registerService(notificationsService))
        return 1;
    // Ends with the bus that started it (the test's dbus-daemon), never left behind.
    QTimer watch;
    QObject::connect(&watch, &QTimer::timeout, &app, [] {
        if (!QDBusConnection::sessionBus().isConnected())
            QCoreApplication::quit();
    });
    watch.start(100);
    return QCoreApplication::exec();
}

} // namespace

// Desktop notifications on a real session bus (dbus-daemon, started here): where no
// notification service runs and none can be started, nothing pretends to notify and Settings
// says so; where one can be started (D-Bus activation), the bus starts it at the first
// notification and it arrives (issue 34: only a running service was asked for).
class TestDesktopNotifier final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void noServiceOnTheBus_isUnavailableAndSettingsSaySo();
    void activatableService_isStartedByTheFirstNotification();

private:
    // A private bus; serviceDir empty: no service can be activated on it.
    QString startBus(QProcess &daemon, const QString &name, const QString &serviceDir);

    QTemporaryDir m_dir;
    QProcess m_emptyBus;
    QProcess m_activatingBus;
};

QString TestDesktopNotifier::startBus(QProcess &daemon, const QString &name,
                                      const QString &serviceDir)
{
    const QString config = m_dir.filePath(name + QLatin1String(".conf"));
    QFile file(config);
    if (!file.open(QIODevice::WriteOnly))
        return {};
    QString text = QStringLiteral("<!DOCTYPE busconfig PUBLIC \"-//freedesktop//DTD D-Bus Bus "
                                  "Configuration 1.0//EN\" \"http://www.freedesktop.org/standards/"
                                  "dbus/1.0/busconfig.dtd\">\n<busconfig><type>session</type>"
                                  "<listen>unix:dir=%1</listen>")
                       .arg(m_dir.path());
    if (!serviceDir.isEmpty())
        text += QStringLiteral("<servicedir>%1</servicedir>").arg(serviceDir);
    text += QStringLiteral("<policy context=\"default\"><allow send_destination=\"*\"/>"
                           "<allow eavesdrop=\"true\"/><allow own=\"*\"/></policy></busconfig>");
    file.write(text.toUtf8());
    file.close();
    daemon.start(QStringLiteral("dbus-daemon"),
                 {QStringLiteral("--nofork"), QStringLiteral("--print-address=1"),
                  QStringLiteral("--config-file=") + config});
    if (!daemon.waitForStarted(10000))
        return {};
    while (!daemon.canReadLine()) {
        if (!daemon.waitForReadyRead(10000))
            return {};
    }
    return QString::fromUtf8(daemon.readLine()).trimmed();
}

void TestDesktopNotifier::initTestCase()
{
    HG_REQUIRE_PART(!QStandardPaths::findExecutable(QStringLiteral("dbus-daemon")).isEmpty(),
                    "dbus-daemon");
    QVERIFY(m_dir.isValid());
    // The application's own session bus: one without any notification service.
    const QString empty = startBus(m_emptyBus, QStringLiteral("empty"), {});
    QVERIFY2(!empty.isEmpty(), m_emptyBus.readAllStandardError().constData());
    qputenv("DBUS_SESSION_BUS_ADDRESS", empty.toUtf8());
    QVERIFY(QDBusConnection::sessionBus().isConnected());
}

void TestDesktopNotifier::cleanupTestCase()
{
    for (QProcess *daemon : {&m_emptyBus, &m_activatingBus}) {
        daemon->terminate();
        daemon->waitForFinished(5000);
    }
}

void TestDesktopNotifier::noServiceOnTheBus_isUnavailableAndSettingsSaySo()
{
    QVERIFY(!DesktopNotifier::isAvailable());
    DesktopNotifier notifier;
    notifier.notify(QStringLiteral("ops/backup failed"), QStringLiteral("exit code 2"), 7);
    // Settings: no tray here (offscreen) and no service: said, and nothing offered to keep
    // running in a tray that is not there.
    const AppSettings settings(m_dir.filePath(QStringLiteral("hourglass.ini")));
    SettingsDialog dialog(settings);
    auto *note = dialog.findChild<QLabel *>(QStringLiteral("settings.desktopNotificationsMissing"));
    QVERIFY(note);
    QVERIFY(note->isVisibleTo(&dialog));
    QVERIFY(note->text().contains(QLatin1String("not available here")));
    auto *closeToTray = dialog.findChild<QWidget *>(QStringLiteral("settings.closeToTray"));
    QVERIFY(closeToTray);
    QVERIFY(!closeToTray->isEnabled());
}

void TestDesktopNotifier::activatableService_isStartedByTheFirstNotification()
{
    const QString services = m_dir.filePath(QStringLiteral("services"));
    QVERIFY(QDir().mkpath(services));
    const QString received = m_dir.filePath(QStringLiteral("received.txt"));
    QFile service(services + QLatin1String("/org.freedesktop.Notifications.service"));
    QVERIFY(service.open(QIODevice::WriteOnly));
    service.write(QStringLiteral("[D-BUS Service]\nName=%1\nExec=%2 --notification-service %3\n")
                      .arg(notificationsService, QCoreApplication::applicationFilePath(), received)
                      .toUtf8());
    service.close();
    const QString address = startBus(m_activatingBus, QStringLiteral("activating"), services);
    QVERIFY2(!address.isEmpty(), m_activatingBus.readAllStandardError().constData());
    const QDBusConnection bus =
        QDBusConnection::connectToBus(address, QStringLiteral("activating"));
    QVERIFY(bus.isConnected());
    // Not running yet, but the bus can start it: available.
    QVERIFY(!bus.interface()->isServiceRegistered(notificationsService).value());
    QVERIFY(DesktopNotifier::isAvailable(bus));
    DesktopNotifier notifier(nullptr, bus);
    notifier.notify(QStringLiteral("ops/backup failed"), QStringLiteral("exit code 2"), 7);
    // The file is there a moment before its line is (the service creates, then writes it):
    // the line is waited for (seen empty under load).
    const auto line = [&received] {
        QFile got(received);
        return got.open(QIODevice::ReadOnly) ? QString::fromUtf8(got.readAll()) : QString();
    };
    QTRY_COMPARE_WITH_TIMEOUT(line(), QStringLiteral("ops/backup failed | exit code 2\n"), 15000);
    QVERIFY(bus.interface()->isServiceRegistered(notificationsService).value());
}

int main(int argc, char **argv)
{
    if (argc == 3 && qstrcmp(argv[1], "--notification-service") == 0)
        return serveNotifications(argc, argv);
    QApplication app(argc, argv);
    TestDesktopNotifier test;
    return QTest::qExec(&test, argc, argv);
}

#include "tst_desktopnotifier.moc"
