#include "engineconfigfactory.h"

#include "notify/sendmailtask.h"
#include "remote/keychain.h"
#include "settings/appsettings.h"
#include "store/storelocation.h"

namespace hg {

EngineConfig EngineConfigFactory::common(const QString &storeArgument)
{
    EngineConfig config;
    config.storeLocation = storeArgument;
    // Empty: the engine takes the host name.
    config.name = qEnvironmentVariable("HOURGLASS_ENGINE_NAME");
    config.slotCount = AppSettings::automaticSlotCount();
    // SQL tasks' connection passwords. Keychain runs its jobs in a thread of its own, so the
    // engine's loop is never re-entered. Empty (no keychain, no entry) lets the client library
    // read ~/.pgpass (or Hourglass ~/.my.cnf).
    config.secretLookup = [](const QString &key) {
        const Result<QString> secret = Keychain().read(key);
        return secret ? secret.value() : QString();
    };
    config.sendMail = &SendMailTask::send;
    return config;
}

EngineConfig EngineConfigFactory::forServe(const QString &storeArgument)
{
    return common(storeArgument);
}

EngineConfig EngineConfigFactory::forSingleRun(const QString &storeArgument, qint64 processId)
{
    EngineConfig config = common(storeArgument);
    config.runSchedules = false;
    config.onlyHandedRuns = true;
    config.tellRunsElsewhere = true; // the run it waits for may end on another engine
    // Its own name, so a serving engine's session is never mistaken for this one.
    if (config.name.isEmpty())
        config.name = QStringLiteral("hourglass-run-%1").arg(processId);
    return config;
}

EngineConfig EngineConfigFactory::forGui(const StoreLocation &store, const AppSettings &settings)
{
    EngineConfig config = common(storeArgument(store));
    if (settings.slotCount() > 0)
        config.slotCount = settings.slotCount();
    config.defaultZone = settings.defaultTimeZone();
    config.schedulesPaused = settings.schedulesPaused();
    config.tellRunsElsewhere = true;
    return config;
}

QString EngineConfigFactory::storeArgument(const StoreLocation &store)
{
    return store.backend() == StoreBackend::Sqlite ? store.sqlitePath() : store.url().toString();
}

} // namespace hg
