#include "remoteaccess.h"

#include "api/apihost.h"
#include "settings/appsettings.h"
#include "window/apistatusbutton.h"

namespace hg {

RemoteAccess::RemoteAccess(AppSettings &settings, StoreLocation location, Engine *engine,
                           ApiStatusButton *button, QObject *parent)
    : QObject(parent)
    , m_settings(settings)
    , m_location(std::move(location))
    , m_engine(engine)
    , m_button(button)
{
    connect(&m_settings, &AppSettings::changed, this, [this](AppSettings::Key key) {
        // ApiEnabled is written last by the dialog: one restart for one OK.
        if (key == AppSettings::Key::ApiEnabled
            || (m_settings.apiEnabled()
                && (key == AppSettings::Key::ApiListen || key == AppSettings::Key::ApiCertificate
                    || key == AppSettings::Key::ApiKey || key == AppSettings::Key::ApiInsecure
                    || key == AppSettings::Key::ApiMetricsOpen)))
            apply();
    });
}

RemoteAccess::~RemoteAccess() = default;

void RemoteAccess::apply()
{
    m_host.reset();
    if (!m_settings.apiEnabled()) {
        m_button->showOff();
        return;
    }
    const auto listen = ApiServer::parseListen(m_settings.apiListen());
    if (!listen) {
        m_button->showFailed(listen.error().message);
        return;
    }
    ApiServer::Options options;
    options.address = listen->first;
    options.port = listen->second;
    options.insecure = m_settings.apiInsecure();
    options.metricsOpenOnLoopback = m_settings.apiMetricsOpen();
    options.engineName = QStringLiteral("desktop");
    if (Status s = ApiServer::check(options, m_settings.apiCertificate(), m_settings.apiKey());
        !s) {
        m_button->showFailed(s.error().message);
        return;
    }
    m_host = std::make_unique<ApiHost>(m_location, options);
    if (m_engine)
        m_host->watch(*m_engine);
    const bool insecure = !options.address.isLoopback() && options.certificatePem.isEmpty();
    connect(m_host.get(), &ApiHost::started, m_button,
            [this, insecure] { m_button->showListening(m_host->url(), insecure); });
    connect(m_host.get(), &ApiHost::startFailed, m_button, &ApiStatusButton::showFailed);
    connect(m_host.get(), &ApiHost::served, m_button, &ApiStatusButton::addServed);
    m_host->start();
}

} // namespace hg
