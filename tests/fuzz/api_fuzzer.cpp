// libFuzzer target for the local API's HTTP side: the input is written raw to a real
// HttpServer (libmicrohttpd on loopback, pumped on this thread) whose routes read it as the
// API does: the router, the query, a run id, a JSON body with its fields and parameters. No
// input may crash, hang or trip a sanitizer; every answer is HTTP/1.x with a three-digit
// status, and each of ours is JSON ({"error", "field"} when it refuses).
#include "api/apianswers.h"
#include "api/apirouter.h"
#include "api/httpserver.h"
#include "fuzzcheck.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

using namespace hg;

namespace {

struct Fixture
{
    std::unique_ptr<QCoreApplication> app;
    ApiRouter router;
    std::unique_ptr<HttpServer> server;
};

HttpResponse startRun(const HttpRequest &request)
{
    const Result<QJsonObject> body = ApiAnswers::bodyWith(request, {QStringLiteral("parameters")});
    if (!body)
        return ApiAnswers::fromError(body.error());
    const Result<QJsonObject> parameters = ApiAnswers::runParameters(body.value());
    if (!parameters)
        return ApiAnswers::fromError(parameters.error());
    // Accepted parameters are text only, none of a trigger's.
    for (auto it = parameters->constBegin(); it != parameters->constEnd(); ++it)
        if (!it.value().isString() || it.key().startsWith(QLatin1String("trigger.")))
            HG_FUZZ_FAIL();
    return HttpResponse::json(201, parameters.value());
}

Fixture &fixture()
{
    static Fixture f = [] {
        Fixture made;
        static int argc = 1;
        static char name[] = "api_fuzzer";
        static char *argv[] = {name, nullptr};
        made.app = std::make_unique<QCoreApplication>(argc, argv);
        return made;
    }();
    if (!f.server) {
        f.router.add(
            "GET", QStringLiteral("/api/v1/runs/{}"), ApiRole::Read,
            [](const HttpRequest &request, const QStringList &captures) {
                const Result<qint64> id = ApiAnswers::runId(captures.at(0));
                if (!id)
                    return ApiAnswers::fromError(id.error());
                if (id.value() <= 0)
                    HG_FUZZ_FAIL();
                return HttpResponse::json(
                    200,
                    QJsonObject{{QStringLiteral("id"), id.value()},
                                {QStringLiteral("limit"),
                                 request.queryValue(QStringLiteral("limit")).value_or(QString())}});
            });
        f.router.add(
            "POST", QStringLiteral("/api/v1/chains/{}/{}/runs"), ApiRole::Operate,
            [](const HttpRequest &request, const QStringList &) { return startRun(request); });
        f.server = std::make_unique<HttpServer>([](const HttpRequest &request) {
            const ApiRouter::Found found = fixture().router.find(request.method, request.path);
            if (!found.route)
                return HttpResponse::error(found.otherMethods.isEmpty() ? 404 : 405,
                                           QStringLiteral("no endpoint"));
            return found.route->handler(request, found.captures);
        });
        HttpServer::Options options;
        options.maxBodyBytes = 4096;
        options.idleTimeoutSeconds = 2;
        if (!f.server->listen(options))
            HG_FUZZ_FAIL();
    }
    return f;
}

// The answer to `input` sent on a connection of its own, the sending side closed after it.
QByteArray exchange(quint16 port, const QByteArray &input)
{
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(port);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    int fd = -1;
    // Thousands of connections a second: a refusal (the server at its connection limit,
    // closing the last ones) is waited out, not a finding; only one that lasts is.
    for (int attempt = 0; attempt < 500 && fd < 0; ++attempt) {
        fd = ::socket(AF_INET, SOCK_STREAM, 0);
        // Reset on close: no TIME_WAIT, so the loopback's ports are not used up.
        const linger reset{1, 0};
        ::setsockopt(fd, SOL_SOCKET, SO_LINGER, &reset, sizeof reset);
        if (::connect(fd, reinterpret_cast<const sockaddr *>(&address), sizeof address) != 0) {
            ::close(fd);
            fd = -1;
            QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
        }
    }
    if (fd < 0)
        HG_FUZZ_FAIL();
    qsizetype written = 0;
    QByteArray answer;
    QElapsedTimer waited;
    waited.start();
    bool closedWrite = false;
    // The server runs on this thread: it is pumped between each step of the client.
    while (waited.elapsed() < 5000) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 1);
        if (written < input.size()) {
            const ssize_t n = ::send(fd, input.constData() + written,
                                     size_t(input.size() - written), MSG_DONTWAIT | MSG_NOSIGNAL);
            if (n > 0)
                written += n;
            else if (n < 0 && errno != EAGAIN)
                break; // the server closed the connection before taking all of it
            continue;
        }
        if (!closedWrite) {
            ::shutdown(fd, SHUT_WR);
            closedWrite = true;
        }
        char buffer[8192];
        const ssize_t n = ::recv(fd, buffer, sizeof buffer, MSG_DONTWAIT);
        if (n == 0)
            break;
        if (n > 0)
            answer.append(buffer, n);
        else if (errno != EAGAIN)
            break;
    }
    ::close(fd);
    if (waited.elapsed() >= 5000)
        HG_FUZZ_FAIL(); // the server neither answered nor closed: a hang
    return answer;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    if (size > 16384)
        return 0;
    Fixture &f = fixture();
    const QByteArray answer = exchange(
        f.server->port(), QByteArray(reinterpret_cast<const char *>(data), qsizetype(size)));
    if (answer.isEmpty())
        return 0; // garbage may be closed without a word
    if (!answer.startsWith("HTTP/1.") || answer.size() < 12 || answer.at(8) != ' ')
        HG_FUZZ_FAIL();
    const int status = answer.mid(9, 3).toInt();
    if (status < 100 || status > 599)
        HG_FUZZ_FAIL();
    // Ours are JSON (libmicrohttpd's own refusals, 400/413/431, are HTML or empty).
    const qsizetype bodyAt = answer.indexOf("\r\n\r\n");
    if (bodyAt > 0 && answer.left(bodyAt).contains("Content-Type: application/json")) {
        const QByteArray body = answer.mid(bodyAt + 4);
        // Several answers (pipelined requests) are several documents: the first is checked.
        const qsizetype end = body.indexOf("}\n");
        const QJsonObject object =
            QJsonDocument::fromJson(end > 0 ? body.left(end + 1) : body).object();
        if (object.isEmpty() && status >= 400)
            HG_FUZZ_FAIL();
        if (status >= 400 && !object.contains(QStringLiteral("error")))
            HG_FUZZ_FAIL();
    }
    return 0;
}
