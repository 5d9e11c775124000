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
    };
    using Handler = std::function<HttpResponse(const HttpRequest &)>;

    explicit HttpServer(Handler handler, QObject *parent = nullptr);
    ~HttpServer() override;

    Status listen(const Options &options);
    void close();
    bool isListening() const { return m_daemon != nullptr; }
    quint16 port() const { return m_port; }
    unsigned connectionCount() const;

private:
    friend struct HttpServerCallbacks; // libmicrohttpd's callbacks, in the .cpp
    struct Exchange;
    struct StreamState;

    // MHD_YES or MHD_NO.
    int queue(MHD_Connection *connection, const HttpResponse &response);
    HttpResponse tooLarge() const;
    void runSoon();
    void run();

    Handler m_handler;
    Options m_options;
    MHD_Daemon *m_daemon = nullptr;
    std::unique_ptr<QSocketNotifier> m_notifier;
    QTimer m_timer;
    bool m_runQueued = false;
    quint16 m_port = 0;
    QList<StreamState *> m_streams; // alive, to resume them all before the daemon stops
};

} // namespace hg
