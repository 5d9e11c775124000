#pragma once

#include "domain/engineconfig.h"

namespace hg {

class AppSettings;
class StoreLocation;

// The one place an EngineConfig is made, for `hourglass serve`, `hourglass run --wait` and
// the desktop application alike, so an engine behaves the same whichever started it: the
// engine name from HOURGLASS_ENGINE_NAME, the automatic slot count, a safe environment.
class EngineConfigFactory final
{
public:
    EngineConfigFactory() = delete;

    // `hourglass serve`: every schedule; `storeArgument` as given to --db (empty: the default).
    static EngineConfig forServe(const QString &storeArgument);
    // `hourglass run --wait` with no engine serving: this one run, no schedules.
    static EngineConfig forSingleRun(const QString &storeArgument, qint64 processId);
    // The desktop application: the store it opened and the user's preferences.
    static EngineConfig forGui(const StoreLocation &store, const AppSettings &settings);

    // How the engine names an opened store: a SQLite file's path, else the URL.
    static QString storeArgument(const StoreLocation &store);

private:
    static EngineConfig common(const QString &storeArgument);
};

} // namespace hg
