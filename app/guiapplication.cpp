#include "guiapplication.h"

#include "engineconfigfactory.h"
#include "runcounter.h"
#include "scheduler/enginehost.h"
#include "settings/appsettings.h"
#include "settings/colorscheme.h"
#include "singleinstance.h"
#include "store/exampleproject.h"
#include "store/projectrepository.h"
#include "store/store.h"
#include "tray/traycontroller.h"
#include "window/mainwindow.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QLibraryInfo>
#include <QMessageBox>
#include <QTranslator>

namespace hg {

GuiApplication::GuiApplication(std::unique_ptr<Store> store, AppSettings &settings,
                               EngineConfig config, QObject *parent)
    : QObject(parent)
    , m_store(std::move(store))
    , m_engine(std::make_unique<EngineHost>(std::move(config)))
    , m_counter(std::make_unique<RunCounter>())
    , m_window(std::make_unique<MainWindow>(*m_store, m_engine.get()))
    , m_tray(std::make_unique<TrayController>(*m_store))
{
    // The counter hears a run change before the tray does, so a failure's notification
    // already carries the failed look.
    m_counter->follow(m_engine.get());
    connect(m_counter.get(), &RunCounter::countsChanged, m_window.get(), &MainWindow::applyCounts);
    connect(m_counter.get(), &RunCounter::countsChanged, m_tray.get(),
            &TrayController::applyCounts);
    Engine *engine = m_engine->engine();
    connect(engine, &Engine::runChanged, m_tray.get(), &TrayController::applyRun);
    connect(engine, &Engine::notificationRequested, m_tray.get(), &TrayController::showMessage);
    connect(engine, &Engine::storeReachabilityChanged, m_tray.get(),
            [tray = m_tray.get()](qint64 sinceMs) { tray->setStoreLost(sinceMs); });
    m_window->attachTray(m_tray.get());
    m_window->setSettings(&settings);
}

GuiApplication::~GuiApplication()
{
    // The engine's thread first: its queued events must not reach a half-destroyed window.
    m_engine.reset();
}

void GuiApplication::start(bool minimized)
{
    m_engine->start();
    if (!(minimized && m_tray->hasTray()))
        m_window->show();
}

void GuiApplication::installExampleOnce(Store &store, AppSettings &settings)
{
    if (settings.exampleInstalled())
        return;
    const Result<QList<Project>> projects = ProjectRepository(store).list();
    if (projects && projects->isEmpty() && ExampleProject::install(store))
        settings.setExampleInstalled(true);
}

bool GuiApplication::installTranslations(const QLocale &locale)
{
    // Owned by the application: they stay as long as it runs.
    auto *qt = new QTranslator(QCoreApplication::instance());
    if (qt->load(locale, QStringLiteral("qtbase"), QStringLiteral("_"),
                 QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
        QCoreApplication::installTranslator(qt);
    auto *own = new QTranslator(QCoreApplication::instance());
    if (!own->load(locale, QStringLiteral("hourglass"), QStringLiteral("_"),
                   QStringLiteral(":/i18n")))
        return false;
    return QCoreApplication::installTranslator(own);
}

int GuiApplication::run(int &argc, char **argv, const QStringList &arguments)
{
    QApplication app(argc, argv);
    installTranslations(QLocale::system());
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
    AppSettings settings;
    if (settings.colorScheme() != ColorScheme::system())
        ColorScheme::apply(settings.colorScheme());
    // --db wins over the store chosen in Settings, which wins over the default.
    const Result<StoreLocation> location =
        StoreLocation::resolve(parser.isSet(db) ? parser.value(db) : settings.storeLocation());
    if (!location)
        return showError(location.error().message);
    // A second start on the same store brings the first one's window forward and ends.
    SingleInstance instance(location->displayName());
    if (!instance.claim()) {
        qInfo("Hourglass is already running on %s; its window was brought forward.",
              qPrintable(location->displayName()));
        return 0;
    }
    Result<std::unique_ptr<Store>> store = Store::open(location.value(), QStringLiteral("gui"));
    if (!store)
        return showError(store.error().message);
    installExampleOnce(*store.value(), settings);

    // The engine runs in its own thread on the same store, with a connection of its own.
    GuiApplication gui(std::move(store.value()), settings,
                       EngineConfigFactory::forGui(location.value(), settings));
    QObject::connect(&instance, &SingleInstance::activationRequested, gui.window(),
                     &MainWindow::bringForward);
    gui.start(parser.isSet(minimized));
    return QApplication::exec();
}

} // namespace hg
