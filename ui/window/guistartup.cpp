#include "guistartup.h"

#include "scheduler/enginehost.h"
#include "settings/appsettings.h"
#include "store/exampleproject.h"
#include "store/projectrepository.h"
#include "store/store.h"
#include "tray/traycontroller.h"
#include "window/mainwindow.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QMessageBox>
#include <QSettings>
#include <QThread>
#include <QTimeZone>

namespace hg {

int runGui(int &argc, char **argv, const QStringList &arguments)
{
    QApplication app(argc, argv);
    QApplication::setApplicationDisplayName(QStringLiteral("Hourglass"));
    QApplication::setDesktopFileName(QStringLiteral("org.hourglass.Hourglass"));

    QCommandLineParser parser;
    const QCommandLineOption db(QStringLiteral("db"), QStringLiteral("Store"),
                                QStringLiteral("PATH|URL"));
    const QCommandLineOption minimized(QStringLiteral("minimized"),
                                       QStringLiteral("Start in the tray"));
    parser.addOptions({db, minimized});
    parser.parse(arguments); // unknown options were refused by CommandLine already

    const auto showError = [](const QString &message) {
        QMessageBox::critical(nullptr, QStringLiteral("Hourglass"), message);
        return 1;
    };
    const AppSettings preferences = AppSettings::load();
    // --db wins over the store chosen in Settings, which wins over the default.
    const Result<StoreLocation> location =
        StoreLocation::resolve(parser.isSet(db) ? parser.value(db) : preferences.storeLocation);
    if (!location)
        return showError(location.error().message);
    Result<std::unique_ptr<Store>> store = Store::open(location.value(), QStringLiteral("gui"));
    if (!store)
        return showError(store.error().message);

    // First start: the example project, so nobody meets an empty window.
    QSettings settings;
    const Result<QList<Project>> projects = ProjectRepository(*store.value()).list();
    if (projects && projects->isEmpty()
        && !settings.value(QStringLiteral("firstStart/exampleInstalled")).toBool()) {
        if (const Status installed = ExampleProject::install(*store.value()); installed)
            settings.setValue(QStringLiteral("firstStart/exampleInstalled"), true);
    }

    // The engine runs in its own thread on the same store, with a connection of its own.
    EngineConfig config;
    config.storeLocation = location->backend() == StoreBackend::Sqlite ? location->sqlitePath()
                                                                       : location->url().toString();
    config.slotCount = preferences.slotCount > 0 ? preferences.slotCount
                                                 : std::max(2, 2 * QThread::idealThreadCount());
    if (!preferences.defaultZone.isEmpty())
        config.defaultZone = QTimeZone(preferences.defaultZone.toUtf8());
    config.schedulesPaused = preferences.schedulesPaused;
    EngineHost engine(config);
    MainWindow window(*store.value(), &engine);
    TrayController tray(*store.value());
    window.attachTray(&tray);
    window.applySettings(preferences);
    engine.start();
    if (!(parser.isSet(minimized) && tray.hasTray()))
        window.show();
    return QApplication::exec();
}

} // namespace hg
