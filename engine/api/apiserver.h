#pragma once

#include "base/result.h"
#include "domain/run.h"
#include "domain/taskrun.h"
#include "store/storelocation.h"

#include <QHash>
#include <QHostAddress>
#include <QObject>
#include <QTimer>

#include <memory>

namespace hg {

// One request as the window lists it.
struct ApiServedRequest
{
    qint64 atMs = 0;
    QString method;
    QString path;
    int status = 0;
    qint64 tookMs = 0;
    QString token;
};

class ApiService;
class HttpServer;
class Store;

// The local API on the thread it lives on: its own store connection, the service and the
// HTTP server. Made and driven by ApiHost; started once.
class ApiServer final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ApiServer)

public:
    struct Options
    {
        QHostAddress address = QHostAddress::LocalHost;
        quint16 port = 0;
        bool insecure = false; // plain HTTP on an address other machines reach, as asked
        QByteArray certificatePem;
        QByteArray keyPem;
        qint64 maxBodyBytes = qint64(1024) * 1024;
        bool metricsOpenOnLoopback = false;
        QString engineName; // said beside it in `api status`
    };
    // "http://127.0.0.1:8080/api/v1", "https://[::1]:8443/api/v1".
    static QString urlOf(const QHostAddress &address, quint16 port, bool tls);
    // "127.0.0.1:8080", "[::1]:8080", "localhost:8080", "0.0.0.0:8443".
    static Result<std::pair<QHostAddress, quint16>> parseListen(const QString &text);
    // Refuses plain HTTP on an address other machines reach unless `insecure`; reads the
    // certificate and key files when given.
    static Status check(Options &options, const QString &certificateFile, const QString &keyFile);

    ApiServer(StoreLocation location, Options options);
    ~ApiServer() override;

    void start();
    void observeRun(const hg::Run &run);
    void observeTaskRun(const hg::TaskRun &attempt);

Q_SIGNALS:
    void started(quint16 port, bool tls);
    void startFailed(const QString &why);
    // A line for the log: a failed authentication, plain HTTP on the network.
    void logged(const QString &line);
    // The requests answered since the last report (at most twice a second), newest last.
    void served(const QList<hg::ApiServedRequest> &requests);

private:
    void remindInsecure();
    void report();

    StoreLocation m_location;
    Options m_options;
    std::unique_ptr<Store> m_store;
    std::unique_ptr<ApiService> m_service;
    std::unique_ptr<HttpServer> m_http;
    QHash<qint64, QString> m_chainPaths;
    QTimer m_insecureReminder{this}; // children: they move with the server to its thread
    QTimer m_reporter{this};
    qint64 m_reportedCount = 0;
    qint64 m_refreshedAtMs = 0;
    QString m_url;
};

} // namespace hg
