#pragma once

#include "base/result.h"
#include "httprequest.h"
#include "httpresponse.h"

#include <QCoreApplication>
#include <QHostAddress>
#include <QObject>
#include <QTimer>

#include <functional>
#include <memory>
#include <optional>

struct MHD_Daemon;
struct MHD_Connection;
class QSocketNotifier;

namespace hg {

// An HTTP/1.1 server on this thread's event loop: libmicrohttpd in its external epoll mode,
// its epoll descriptor watched by a QSocketNotifier and its timeouts by a QTimer, so no
// thread of its own and the handler runs on this thread. (Qt 6.4's QtHttpServer was tried
// first and left: it buffers a body of any size before a handler sees it, has no limit on
// headers and no timeout, and crashed when a client left before its answer.)
// libmicrohttpd refuses oversized headers (431) and URLs (414) itself; this class refuses a
// body over the limit before it is read (413, from Content-Length, or as it grows) and a
// request with two Content-Lengths, and closes connections idle for the timeout.
class HttpServer final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(HttpServer)

public:
    struct Options
    {
        QHostAddress address = QHostAddress::LocalHost;
        quint16 port = 0; // 0: any free port (port() tells which)
        qint64 maxBodyBytes = qint64(1024) * 1024;
        unsigned connectionLimit = 1000;
        unsigned idleTimeoutSeconds = 30;
        // Per connection, for its headers and what is read of it at once.
        size_t connectionMemoryBytes = size_t(64) * 1024;
        // PEM text; both set: HTTPS only.
        QByteArray certificatePem;
        QByteArray keyPem;
        // A connection that has not sent a request's headers this long after it opened (or
        // after its last answer) is closed: a client sending a byte now and then
        // (slowloris) resets libmicrohttpd's idle timer but not this.
        int headerDeadlineMs = 15000;
        // The same for a request's body.
        int bodyDeadlineMs = 60000;
        // Bodies held at once, over all connections; past it a request is answered 503.
        qint64 bufferedBodyBudget = qint64(64) * 1024 * 1024;
    };
    using Handler = std::function<HttpResponse(const HttpRequest &)>;
    // Asked with the headers alone, before the body is read: a refusal (no token) answered
    // then costs no body's memory.
    using Preflight = std::function<std::optional<HttpResponse>(const HttpRequest &)>;

    explicit HttpServer(Handler handler, QObject *parent = nullptr);
    ~HttpServer() override;

    void setPreflight(Preflight preflight) { m_preflight = std::move(preflight); }
    Status listen(const Options &options);
    void close();
    bool isListening() const { return m_daemon != nullptr; }
    quint16 port() const { return m_port; }
    unsigned connectionCount() const;

private:
    friend struct HttpServerCallbacks; // libmicrohttpd's callbacks, in the .cpp
    struct Exchange;
    struct StreamState;
    struct Peer; // one TCP connection: its descriptor and deadlines

    // Connections past the limit, and ones past a deadline, are shut down (libmicrohttpd then
    // closes them): its own limit, once reached, stopped it accepting for good.
    void sweep();

    // MHD_YES or MHD_NO.
    int queue(MHD_Connection *connection, const HttpResponse &response);
    HttpResponse tooLarge() const;
    void runSoon();
    void run();

    Handler m_handler;
    Preflight m_preflight;
    Options m_options;
    QList<Peer *> m_peers;
    QTimer m_sweeper;
    qint64 m_bufferedBytes = 0;
    MHD_Daemon *m_daemon = nullptr;
    std::unique_ptr<QSocketNotifier> m_notifier;
    QTimer m_timer;
    bool m_runQueued = false;
    quint16 m_port = 0;
    QList<StreamState *> m_streams; // alive, to resume them all before the daemon stops
};

} // namespace hg
