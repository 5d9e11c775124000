#include "httpserver.h"

#include <QDateTime>
#include <QSocketNotifier>

#include <arpa/inet.h>
#include <cstring>
#include <microhttpd.h>
#include <netinet/in.h>
#include <sys/resource.h>
#include <sys/socket.h>

namespace hg {

// What one request has gathered between libmicrohttpd's calls: its headers are read at the
// first call, its body over the ones after, and the answer is made at the last.
struct HttpServer::Peer
{
    int fd = -1;
    qint64 waitingSinceMs = 0; // for a request's headers (0: within a request)
    qint64 requestSinceMs = 0; // a request's headers came; its body is read until answered
    bool answered = false;
    bool shutDown = false;
};

struct HttpServer::Exchange
{
    HttpServer *server = nullptr;
    qint64 buffered = 0; // of the server's body budget
    ~Exchange() { server->m_bufferedBytes -= buffered; }
    HttpRequest request;
    bool refused = false; // an answer was queued before the body was read (413, 400)
    // A body without a length (chunked) that grew past the limit: the rest is read and
    // dropped, and 413 answered at its end (libmicrohttpd takes an answer in the middle of an
    // upload only by closing the connection), unless it goes on past discardLimit.
    bool overLimit = false;
    qint64 discarded = 0;
};

// An answer being streamed: the connection sleeps (suspended) while its stream has nothing.
struct HttpServer::StreamState
{
    HttpServer *server = nullptr;
    MHD_Connection *connection = nullptr;
    std::shared_ptr<HttpStream> stream;
    bool suspended = false;
};

namespace {

MHD_Result collectHeader(void *into, MHD_ValueKind, const char *key, const char *value)
{
    auto &headers = *static_cast<QHash<QByteArray, QByteArray> *>(into);
    const QByteArray name = QByteArray(key).toLower();
    // A repeated header is joined, as RFC 9110 reads a list; Content-Length is refused
    // before this when repeated.
    const QByteArray text(value ? value : "");
    auto found = headers.find(name);
    if (found == headers.end())
        headers.insert(name, text);
    else
        found.value() += ", " + text;
    return MHD_YES;
}

MHD_Result collectArgument(void *into, MHD_ValueKind, const char *key, const char *value)
{
    auto &query = *static_cast<QList<std::pair<QString, QString>> *>(into);
    query.append({QString::fromUtf8(key), QString::fromUtf8(value ? value : "")});
    return MHD_YES;
}

MHD_Result countContentLength(void *count, MHD_ValueKind, const char *key, const char *)
{
    if (qstricmp(key, "content-length") == 0)
        ++*static_cast<int *>(count);
    return MHD_YES;
}

int hexValue(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

// libmicrohttpd's own unescaping, but %00 is kept as it is written: decoded, it ended the
// path where it stood ("/chains/p/c%00zzz" read as p/c), and the route refuses it instead.
size_t unescape(void *, MHD_Connection *, char *text)
{
    char *out = text;
    for (const char *in = text; *in; ++in) {
        const int high = in[0] == '%' ? hexValue(in[1]) : -1;
        const int low = high >= 0 ? hexValue(in[2]) : -1;
        if (low >= 0 && (high | low) != 0) {
            *out++ = char(high * 16 + low);
            in += 2;
        } else {
            *out++ = *in;
        }
    }
    *out = '\0';
    return size_t(out - text);
}

QHostAddress peerOf(MHD_Connection *connection)
{
    const MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (!info || !info->client_addr)
        return {};
    return QHostAddress(info->client_addr);
}

} // namespace

struct HttpServerCallbacks
{
    static MHD_Result onRequest(void *self, MHD_Connection *connection, const char *url,
                                const char *method, const char *version, const char *uploadData,
                                size_t *uploadDataSize, void **exchange);
    static void onCompleted(void *self, MHD_Connection *connection, void **exchange,
                            MHD_RequestTerminationCode reason);
    static ssize_t readStream(void *state, uint64_t position, char *buffer, size_t max);
    static void freeStream(void *state);
    static void onConnection(void *self, MHD_Connection *connection, void **socketContext,
                             MHD_ConnectionNotificationCode code);
};

HttpServer::HttpServer(Handler handler, QObject *parent)
    : QObject(parent)
    , m_handler(std::move(handler))
{
    m_timer.setSingleShot(true);
    connect(&m_timer, &QTimer::timeout, this, &HttpServer::run);
    m_sweeper.setInterval(1000);
    connect(&m_sweeper, &QTimer::timeout, this, &HttpServer::sweep);
}

void HttpServer::sweep()
{
    const qint64 nowMs = QDateTime::currentMSecsSinceEpoch();
    bool any = false;
    for (Peer *peer : std::as_const(m_peers)) {
        if (peer->shutDown)
            continue;
        const bool lateHeaders =
            peer->waitingSinceMs > 0 && nowMs - peer->waitingSinceMs > m_options.headerDeadlineMs;
        const bool lateBody = peer->requestSinceMs > 0 && !peer->answered
                              && nowMs - peer->requestSinceMs > m_options.bodyDeadlineMs;
        if (lateHeaders || lateBody) {
            ::shutdown(peer->fd, SHUT_RDWR);
            peer->shutDown = true;
            any = true;
        }
    }
    if (any)
        runSoon();
}

HttpServer::~HttpServer()
{
    close();
}

Status HttpServer::listen(const Options &options)
{
    close();
    m_options = options;
    sockaddr_in v4{};
    sockaddr_in6 v6{};
    const sockaddr *address = nullptr;
    unsigned flags = MHD_USE_EPOLL | MHD_ALLOW_SUSPEND_RESUME;
    if (options.address.protocol() == QAbstractSocket::IPv6Protocol) {
        v6.sin6_family = AF_INET6;
        v6.sin6_port = htons(options.port);
        const Q_IPV6ADDR bytes = options.address.toIPv6Address();
        std::memcpy(&v6.sin6_addr, &bytes, sizeof bytes);
        address = reinterpret_cast<const sockaddr *>(&v6);
        flags |= MHD_USE_IPv6;
    } else {
        v4.sin_family = AF_INET;
        v4.sin_port = htons(options.port);
        v4.sin_addr.s_addr = htonl(options.address.toIPv4Address());
        address = reinterpret_cast<const sockaddr *>(&v4);
    }
    const bool tls = !options.certificatePem.isEmpty() && !options.keyPem.isEmpty();
    if (tls)
        flags |= MHD_USE_TLS;
    // A connection is a descriptor: a desktop's soft limit (1,024) is raised to what the
    // system allows, up to 8,192, so the connection limit is not met by EMFILE first.
    rlimit files{};
    if (getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur < 8192) {
        files.rlim_cur = std::min<rlim_t>(files.rlim_max, 8192);
        setrlimit(RLIMIT_NOFILE, &files);
    }
    // libmicrohttpd keeps the PEM pointers: the copies in m_options live as long as it runs.
    m_daemon = MHD_start_daemon(
        flags, options.port, nullptr, nullptr, &HttpServerCallbacks::onRequest, this,
        // libmicrohttpd's own limit well above ours: ours closes the extra connections at once
        // and keeps accepting (see sweep()).
        MHD_OPTION_SOCK_ADDR, address, MHD_OPTION_CONNECTION_LIMIT,
        options.connectionLimit * 2 + 64, MHD_OPTION_UNESCAPE_CALLBACK, &unescape, nullptr,
        MHD_OPTION_NOTIFY_CONNECTION, &HttpServerCallbacks::onConnection, this,
        MHD_OPTION_CONNECTION_TIMEOUT, options.idleTimeoutSeconds,
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, options.connectionMemoryBytes,
        MHD_OPTION_LISTEN_BACKLOG_SIZE, 1024u, MHD_OPTION_NOTIFY_COMPLETED,
        &HttpServerCallbacks::onCompleted, this, MHD_OPTION_HTTPS_MEM_CERT,
        tls ? m_options.certificatePem.constData() : nullptr, MHD_OPTION_HTTPS_MEM_KEY,
        tls ? m_options.keyPem.constData() : nullptr, MHD_OPTION_END);
    if (!m_daemon)
        return Error::runtime(
            tr("cannot listen on %1 port %2: %3")
                .arg(options.address.toString())
                .arg(options.port)
                .arg(tls ? tr("the address is taken or not this machine's, or the certificate "
                              "or key is not valid PEM")
                         : tr("the address is taken or not this machine's")));
    const MHD_DaemonInfo *port = MHD_get_daemon_info(m_daemon, MHD_DAEMON_INFO_BIND_PORT);
    m_port = port ? port->port : options.port;
    const MHD_DaemonInfo *epoll = MHD_get_daemon_info(m_daemon, MHD_DAEMON_INFO_EPOLL_FD);
    m_notifier = std::make_unique<QSocketNotifier>(epoll->epoll_fd, QSocketNotifier::Read);
    connect(m_notifier.get(), &QSocketNotifier::activated, this, &HttpServer::run);
    m_sweeper.start();
    run();
    return {};
}

void HttpServer::close()
{
    if (!m_daemon)
        return;
    // A suspended connection must be resumed before the daemon may stop; its stream ends.
    for (StreamState *state : std::as_const(m_streams)) {
        state->stream->close();
        if (state->suspended) {
            state->suspended = false;
            MHD_resume_connection(state->connection);
        }
    }
    MHD_run(m_daemon);
    m_notifier.reset();
    m_timer.stop();
    m_sweeper.stop();
    MHD_stop_daemon(m_daemon); // frees what is left of every exchange and stream
    m_daemon = nullptr;
    m_streams.clear();
    qDeleteAll(m_peers);
    m_peers.clear();
}

unsigned HttpServer::connectionCount() const
{
    if (!m_daemon)
        return 0;
    const MHD_DaemonInfo *info = MHD_get_daemon_info(m_daemon, MHD_DAEMON_INFO_CURRENT_CONNECTIONS);
    return info ? info->num_connections : 0;
}

void HttpServer::runSoon()
{
    if (m_runQueued)
        return;
    m_runQueued = true;
    QMetaObject::invokeMethod(this, &HttpServer::run, Qt::QueuedConnection);
}

void HttpServer::run()
{
    m_runQueued = false;
    if (!m_daemon)
        return;
    MHD_run(m_daemon);
    MHD_UNSIGNED_LONG_LONG timeoutMs = 0;
    if (MHD_get_timeout(m_daemon, &timeoutMs) == MHD_YES)
        m_timer.start(int(std::min<MHD_UNSIGNED_LONG_LONG>(timeoutMs, 60000)));
    else
        m_timer.stop();
}

MHD_Result HttpServerCallbacks::onRequest(void *self, MHD_Connection *connection, const char *url,
                                          const char *method, const char *, const char *uploadData,
                                          size_t *uploadDataSize, void **exchangePointer)
{
    auto *server = static_cast<HttpServer *>(self);
    auto *exchange = static_cast<HttpServer::Exchange *>(*exchangePointer);
    const auto refuse = [&](const HttpResponse &response) {
        exchange->refused = true;
        exchange->request.body.clear();
        return MHD_Result(server->queue(connection, response));
    };
    if (!exchange) {
        exchange = new HttpServer::Exchange;
        exchange->server = server;
        *exchangePointer = exchange;
        if (const MHD_ConnectionInfo *info =
                MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
            info && info->socket_context) {
            auto *peer = static_cast<HttpServer::Peer *>(info->socket_context);
            peer->waitingSinceMs = 0;
            peer->requestSinceMs = QDateTime::currentMSecsSinceEpoch();
        }
        HttpRequest &request = exchange->request;
        request.method = QByteArray(method);
        request.path = QString::fromUtf8(url);
        request.peer = peerOf(connection);
        MHD_get_connection_values(connection, MHD_HEADER_KIND, &collectHeader, &request.headers);
        MHD_get_connection_values(connection, MHD_GET_ARGUMENT_KIND, &collectArgument,
                                  &request.query);
        int lengths = 0;
        MHD_get_connection_values(connection, MHD_HEADER_KIND, &countContentLength, &lengths);
        if (lengths > 1)
            return refuse(HttpResponse::error(400, HttpServer::tr("two Content-Length headers")));
        bool ok = false;
        const qint64 length = request.header("content-length").toLongLong(&ok);
        if (ok && length > server->m_options.maxBodyBytes)
            return refuse(server->tooLarge());
        if (server->m_preflight)
            if (std::optional<HttpResponse> early = server->m_preflight(request))
                return refuse(*early);
        return MHD_YES;
    }
    if (*uploadDataSize > 0) {
        const qint64 size = qint64(*uploadDataSize);
        *uploadDataSize = 0;
        if (exchange->refused)
            return MHD_YES;
        if (exchange->overLimit
            || exchange->request.body.size() + size > server->m_options.maxBodyBytes) {
            exchange->overLimit = true;
            exchange->request.body.clear();
            exchange->discarded += size;
            // Far past the limit: not worth reading to say so; the connection is closed.
            return exchange->discarded > 8 * server->m_options.maxBodyBytes + qint64(1024) * 1024
                       ? MHD_NO
                       : MHD_YES;
        }
        if (server->m_bufferedBytes + size > server->m_options.bufferedBodyBudget)
            return refuse(HttpResponse::error(
                503, HttpServer::tr("too many request bodies are being read; try again later")));
        exchange->request.body.append(uploadData, size);
        exchange->buffered += size;
        server->m_bufferedBytes += size;
        return MHD_YES;
    }
    if (exchange->refused)
        return MHD_YES;
    if (exchange->overLimit)
        return refuse(server->tooLarge());
    return MHD_Result(server->queue(connection, server->m_handler(exchange->request)));
}

HttpResponse HttpServer::tooLarge() const
{
    return HttpResponse::error(413, tr("the body is over %1 bytes").arg(m_options.maxBodyBytes));
}

int HttpServer::queue(MHD_Connection *connection, const HttpResponse &answer)
{
    if (const MHD_ConnectionInfo *info =
            MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
        info && info->socket_context)
        static_cast<Peer *>(info->socket_context)->answered = true;
    MHD_Response *response = nullptr;
    if (answer.stream) {
        auto *state = new StreamState{this, connection, answer.stream, false};
        m_streams.append(state);
        answer.stream->setWake([state] {
            if (!state->suspended)
                return;
            state->suspended = false;
            MHD_resume_connection(state->connection);
            state->server->runSoon();
        });
        response = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 4096,
                                                     &HttpServerCallbacks::readStream, state,
                                                     &HttpServerCallbacks::freeStream);
    } else {
        response = MHD_create_response_from_buffer(size_t(answer.body.size()),
                                                   const_cast<char *>(answer.body.constData()),
                                                   MHD_RESPMEM_MUST_COPY);
    }
    if (!response)
        return MHD_NO;
    MHD_add_response_header(response, "Content-Type", answer.contentType.constData());
    MHD_add_response_header(response, "X-Content-Type-Options", "nosniff");
    MHD_add_response_header(response, "Cache-Control", "no-store");
    for (const auto &[name, value] : answer.headers)
        MHD_add_response_header(response, name.constData(), value.constData());
    const MHD_Result queued = MHD_queue_response(connection, unsigned(answer.status), response);
    MHD_destroy_response(response);
    return queued;
}

ssize_t HttpServerCallbacks::readStream(void *statePointer, uint64_t, char *buffer, size_t max)
{
    auto *state = static_cast<HttpServer::StreamState *>(statePointer);
    const qsizetype taken = state->stream->take(buffer, qsizetype(max));
    if (taken > 0)
        return taken;
    if (state->stream->isClosed())
        return MHD_CONTENT_READER_END_OF_STREAM;
    // Nothing to send yet: the connection sleeps until the stream is written (its wake).
    state->suspended = true;
    MHD_suspend_connection(state->connection);
    return 0;
}

void HttpServerCallbacks::freeStream(void *statePointer)
{
    auto *state = static_cast<HttpServer::StreamState *>(statePointer);
    state->server->m_streams.removeOne(state);
    state->stream->markGone();
    delete state;
}

void HttpServerCallbacks::onConnection(void *self, MHD_Connection *connection, void **socketContext,
                                       MHD_ConnectionNotificationCode code)
{
    auto *server = static_cast<HttpServer *>(self);
    if (code == MHD_CONNECTION_NOTIFY_STARTED) {
        auto *peer = new HttpServer::Peer;
        const MHD_ConnectionInfo *info =
            MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
        peer->fd = info ? info->connect_fd : -1;
        peer->waitingSinceMs = QDateTime::currentMSecsSinceEpoch();
        *socketContext = peer;
        server->m_peers.append(peer);
        // Past the limit: closed at once, so the server never stops accepting.
        if (unsigned(server->m_peers.size()) > server->m_options.connectionLimit && peer->fd >= 0) {
            ::shutdown(peer->fd, SHUT_RDWR);
            peer->shutDown = true;
            server->runSoon();
        }
        return;
    }
    auto *peer = static_cast<HttpServer::Peer *>(*socketContext);
    server->m_peers.removeOne(peer);
    delete peer;
    *socketContext = nullptr;
}

void HttpServerCallbacks::onCompleted(void *, MHD_Connection *connection, void **exchangePointer,
                                      MHD_RequestTerminationCode)
{
    // The connection waits for its next request's headers from now.
    if (const MHD_ConnectionInfo *info =
            MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
        info && info->socket_context) {
        auto *peer = static_cast<HttpServer::Peer *>(info->socket_context);
        peer->requestSinceMs = 0;
        peer->answered = false;
        peer->waitingSinceMs = QDateTime::currentMSecsSinceEpoch();
    }
    delete static_cast<HttpServer::Exchange *>(*exchangePointer);
    *exchangePointer = nullptr;
}

} // namespace hg
