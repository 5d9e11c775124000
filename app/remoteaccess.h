#pragma once

#include "store/storelocation.h"

#include <QObject>

#include <memory>

namespace hg {

class ApiHost;
class ApiStatusButton;
class AppSettings;
class Engine;

// The desktop's local API (Settings → Remote access): started with the engine when it is on,
// started again with the new settings when they change, stopped when it is turned off. The
// status bar's button follows it.
class RemoteAccess final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RemoteAccess)

public:
    RemoteAccess(AppSettings &settings, StoreLocation location, Engine *engine,
                 ApiStatusButton *button, QObject *parent = nullptr);
    ~RemoteAccess() override;

    // Serves as the settings say (again, when already serving).
    void apply();
    bool isServing() const { return m_host != nullptr; }

private:
    AppSettings &m_settings;
    StoreLocation m_location;
    Engine *m_engine = nullptr;
    ApiStatusButton *m_button = nullptr;
    std::unique_ptr<ApiHost> m_host;
};

} // namespace hg
