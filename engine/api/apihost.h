#pragma once

#include "api/apiserver.h"

#include <QObject>
#include <QThread>

#include <memory>

namespace hg {

class Engine;

// Owns the local API's thread and the server on it (as EngineHost owns the engine's): the
// API answers while the engine is busy, and the engine never waits for a client.
class ApiHost final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ApiHost)

public:
    ApiHost(StoreLocation location, ApiServer::Options options, QObject *parent = nullptr);
    ~ApiHost() override;

    void start();
    // The engine's run and attempt changes feed the metrics.
    void watch(Engine &engine);
    bool isListening() const { return m_port != 0; }
    quint16 port() const { return m_port; }
    QString url() const { return m_url; }

Q_SIGNALS:
    void started(quint16 port, bool tls);
    void startFailed(const QString &why);
    void logged(const QString &line);
    void served(const QList<hg::ApiServedRequest> &requests);

private:
    std::unique_ptr<QThread> m_thread;
    ApiServer *m_server = nullptr; // lives on m_thread, deleted there
    quint16 m_port = 0;
    QString m_url;
    ApiServer::Options m_options;
};

} // namespace hg
