#include "apiserver.h"

#include "api/apiservice.h"
#include "api/httpserver.h"
#include "store/apilistenerrepository.h"
#include "store/chainrepository.h"
#include "store/store.h"

#include <QCoreApplication>
#include <QFile>
#include <QFileInfo>
#include <QSysInfo>

namespace hg {

Result<std::pair<QHostAddress, quint16>> ApiServer::parseListen(const QString &text)
{
    const qsizetype colon = text.lastIndexOf(QLatin1Char(':'));
    const Error bad = Error::invalidField(
        QStringLiteral("api"), 0,
        tr("'%1' is not ADDRESS:PORT (127.0.0.1:8080, [::1]:8080, localhost:8080)")
            .arg(text.left(100)));
    if (colon <= 0)
        return bad;
    bool ok = false;
    const uint port = text.mid(colon + 1).toUInt(&ok);
    if (!ok || port > 65535)
        return bad;
    QString host = text.left(colon);
    if (host.startsWith(QLatin1Char('[')) && host.endsWith(QLatin1Char(']')))
        host = host.mid(1, host.size() - 2);
    if (host.compare(QLatin1String("localhost"), Qt::CaseInsensitive) == 0)
        return std::pair{QHostAddress(QHostAddress::LocalHost), quint16(port)};
    const QHostAddress address(host);
    if (address.isNull())
        return bad;
    return std::pair{address, quint16(port)};
}

QString ApiServer::urlOf(const QHostAddress &address, quint16 port, bool tls)
{
    const QString host = address.protocol() == QAbstractSocket::IPv6Protocol
                             ? QLatin1Char('[') + address.toString() + QLatin1Char(']')
                             : address.toString();
    return QStringLiteral("%1://%2:%3/api/v1")
        .arg(tls ? QStringLiteral("https") : QStringLiteral("http"), host)
        .arg(port);
}

Status ApiServer::check(Options &options, const QString &certificateFile, const QString &keyFile)
{
    if (certificateFile.isEmpty() != keyFile.isEmpty())
        return Error::invalid(tr("--api-cert and --api-key go together"));
    const auto readPem = [](const QString &path, QByteArray &into) -> Status {
        // A FIFO or a device would block the open or never end: only a regular file is read.
        if (!QFileInfo(path).isFile())
            return Error::invalid(tr("%1 is not a regular file").arg(path));
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly))
            return Error::invalid(tr("cannot read %1: %2").arg(path, file.errorString()));
        into = file.read(qint64(1024) * 1024);
        if (!into.contains("-----BEGIN "))
            return Error::invalid(tr("%1 is not PEM").arg(path));
        return {};
    };
    if (!certificateFile.isEmpty()) {
        if (Status s = readPem(certificateFile, options.certificatePem); !s)
            return s;
        if (Status s = readPem(keyFile, options.keyPem); !s)
            return s;
    }
    const bool tls = !options.certificatePem.isEmpty();
    if (!options.address.isLoopback() && !tls && !options.insecure)
        return Error::invalid(
            tr("%1 is reachable from other machines: give --api-cert and --api-key for HTTPS, "
               "or --api-insecure to send tokens in plain text")
                .arg(options.address.toString()));
    return {};
}

ApiServer::ApiServer(StoreLocation location, Options options)
    : m_location(std::move(location))
    , m_options(std::move(options))
{
    m_insecureReminder.setInterval(10 * 60 * 1000);
    connect(&m_insecureReminder, &QTimer::timeout, this, &ApiServer::remindInsecure);
    m_reporter.setInterval(500);
    connect(&m_reporter, &QTimer::timeout, this, &ApiServer::report);
}

void ApiServer::report()
{
    if (!m_service)
        return;
    const qint64 count = m_service->requestCount();
    if (count > m_reportedCount) {
        const QList<ApiService::Served> &recent = m_service->recent();
        QList<ApiServedRequest> fresh;
        const qint64 newOnes = std::min<qint64>(count - m_reportedCount, recent.size());
        for (qsizetype i = recent.size() - newOnes; i < recent.size(); ++i) {
            const ApiService::Served &s = recent.at(i);
            fresh << ApiServedRequest{
                s.atMs, QString::fromLatin1(s.method), s.path, s.status, s.tookMs, s.token};
        }
        m_reportedCount = count;
        Q_EMIT served(fresh);
    }
    const qint64 nowMs = QDateTime::currentMSecsSinceEpoch();
    if (nowMs - m_refreshedAtMs >= ApiListenerRepository::refreshMs) {
        m_refreshedAtMs = nowMs;
        const qint64 last = m_service->lastRequestAtMs();
        (void)ApiListenerRepository(*m_store).refresh(
            QSysInfo::machineHostName(), QCoreApplication::applicationPid(), count,
            last > 0 ? QDateTime::fromMSecsSinceEpoch(last, Qt::UTC) : QDateTime(),
            QDateTime::fromMSecsSinceEpoch(nowMs, Qt::UTC));
    }
}

void ApiServer::remindInsecure()
{
    Q_EMIT logged(tr("the API serves plain HTTP on %1: tokens cross the network unencrypted")
                      .arg(m_options.address.toString()));
}

ApiServer::~ApiServer()
{
    m_http.reset(); // before the service its handler calls
    if (m_store && !m_url.isEmpty())
        (void)ApiListenerRepository(*m_store).remove(QSysInfo::machineHostName(),
                                                     QCoreApplication::applicationPid());
}

void ApiServer::start()
{
    Store::Options storeOptions;
    storeOptions.alreadyChecked = true;
    Result<std::unique_ptr<Store>> opened =
        Store::open(m_location, QStringLiteral("api"), storeOptions);
    if (!opened) {
        Q_EMIT startFailed(opened.error().message);
        return;
    }
    m_store = std::move(opened.value());
    m_service = std::make_unique<ApiService>(*m_store,
                                             [this](const QString &line) { Q_EMIT logged(line); });
    m_service->gate().setMetricsOpenOnLoopback(m_options.metricsOpenOnLoopback);
    m_http = std::make_unique<HttpServer>(
        [this](const HttpRequest &request) { return m_service->handle(request); });
    m_http->setPreflight(
        [this](const HttpRequest &request) { return m_service->preflight(request); });
    HttpServer::Options http;
    http.address = m_options.address;
    http.port = m_options.port;
    http.maxBodyBytes = m_options.maxBodyBytes;
    http.certificatePem = m_options.certificatePem;
    http.keyPem = m_options.keyPem;
    if (Status s = m_http->listen(http); !s) {
        Q_EMIT startFailed(s.error().message);
        return;
    }
    const bool tls = !m_options.certificatePem.isEmpty();
    if (!tls && !m_options.address.isLoopback()) {
        m_insecureReminder.start();
        remindInsecure();
    }
    m_url = urlOf(m_options.address, m_http->port(), tls);
    const QDateTime now = QDateTime::currentDateTimeUtc();
    ApiListenerRepository::Listener listener;
    listener.host = QSysInfo::machineHostName();
    listener.pid = QCoreApplication::applicationPid();
    listener.engineName = m_options.engineName;
    listener.url = m_url;
    listener.insecure = !tls && !m_options.address.isLoopback();
    listener.startedAt = now;
    listener.seenAt = now;
    if (Status s = ApiListenerRepository(*m_store).announce(listener); !s)
        Q_EMIT logged(
            tr("`hourglass api status` will not see this server: %1").arg(s.error().message));
    m_refreshedAtMs = now.toMSecsSinceEpoch();
    m_reporter.start();
    Q_EMIT started(m_http->port(), tls);
}

void ApiServer::observeRun(const Run &run)
{
    if (!m_service)
        return;
    auto path = m_chainPaths.find(run.chainId);
    if (path == m_chainPaths.end()) {
        const Result<ChainPath> read = ChainRepository(*m_store).pathOf(run.chainId);
        path = m_chainPaths.insert(run.chainId, read ? read->toString() : QString());
    }
    m_service->metrics().observe(run, path.value());
}

void ApiServer::observeTaskRun(const TaskRun &attempt)
{
    if (m_service)
        m_service->metrics().observe(attempt);
}

} // namespace hg
