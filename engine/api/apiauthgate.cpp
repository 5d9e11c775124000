#include "apiauthgate.h"

#include "store/apitokenrepository.h"

namespace hg {
namespace {

// "127.0.0.1:8080", "localhost", "[::1]:9000": a Host naming this machine by loopback.
bool isLoopbackHost(const QByteArray &host)
{
    QByteArray name = host.trimmed().toLower();
    if (name.startsWith('[')) {
        name = name.mid(1, name.indexOf(']') - 1);
    } else if (const qsizetype colon = name.lastIndexOf(':'); colon >= 0) {
        name = name.left(colon);
    }
    if (name == "localhost")
        return true;
    const QHostAddress address(QString::fromLatin1(name));
    return !address.isNull() && address.isLoopback();
}

} // namespace

std::optional<HttpResponse> ApiAuthGate::limited(const QHostAddress &peer, qint64 nowMs)
{
    const QString address = peer.toString();
    auto known = m_failures.find(address);
    if (known == m_failures.end())
        return std::nullopt;
    if (nowMs - known->windowStartMs >= windowMs) {
        if (known->unlogged > 0)
            m_log(tr("%n failed authentication(s) from %1 in the last minute", nullptr,
                     known->unlogged)
                      .arg(address));
        m_failures.erase(known);
        return std::nullopt;
    }
    if (known->count < maxFailures)
        return std::nullopt;
    HttpResponse response = HttpResponse::error(
        429, tr("too many failed authentications from this address; try again later"));
    response.headers.emplaceBack(
        "Retry-After", QByteArray::number((windowMs - (nowMs - known->windowStartMs)) / 1000 + 1));
    ++known->unlogged;
    return response;
}

ApiAuthGate::Admitted ApiAuthGate::admit(const HttpRequest &request, ApiRole needed, qint64 nowMs)
{
    // Open to this machine's programs, not to a web page a browser here was led to: a name
    // rebound to 127.0.0.1 still sends its own Host.
    if (needed == ApiRole::Metrics && m_metricsOpen && request.peer.isLoopback()
        && isLoopbackHost(request.header("host")))
        return {};
    const QByteArray header = request.header("authorization");
    if (header.isEmpty())
        return {std::nullopt, refuse(request.peer, nowMs,
                                     tr("no token: send Authorization: "
                                        "Bearer TOKEN"))};
    // The scheme's name is case-insensitive (RFC 9110).
    if (!header.left(7).toLower().startsWith("bearer "))
        return {std::nullopt,
                refuse(request.peer, nowMs, tr("the Authorization header is not a Bearer token"))};
    const QString text = QString::fromLatin1(header.mid(7).trimmed());
    const QDateTime now = QDateTime::fromMSecsSinceEpoch(nowMs, Qt::UTC);
    ApiTokenRepository tokens(m_store);
    const Result<ApiToken> token = tokens.check(text, now);
    if (!token) {
        if (token.error().kind != ErrorKind::NotFound)
            return {std::nullopt,
                    HttpResponse::error(
                        503, tr("the store cannot be read: %1").arg(token.error().message))};
        return {std::nullopt,
                refuse(request.peer, nowMs, tr("the token is not known or has expired"))};
    }
    if (!ApiToken::allows(token->role, needed))
        return {token.value(), HttpResponse::error(403, tr("token '%1' is %2; this needs %3")
                                                            .arg(token->name, enumName(token->role),
                                                                 enumName(needed)))};
    // A store that cannot note the use does not refuse the request for it.
    (void)tokens.touch(token.value(), now);
    return {token.value(), std::nullopt};
}

HttpResponse ApiAuthGate::refuse(const QHostAddress &peer, qint64 nowMs, const QString &why)
{
    // Over its failures an address is answered 429, but only what fails: a good token or
    // signature from it is still admitted (on loopback, or behind a proxy, every client is
    // one address, and a stranger's failures must not lock the others out).
    if (std::optional<HttpResponse> limitedNow = limited(peer, nowMs))
        return *limitedNow;
    // Addresses seen long ago are dropped: a scan from many addresses stays bounded.
    if (m_failures.size() > 10000)
        m_failures.removeIf(
            [nowMs](const auto &entry) { return nowMs - entry.value().windowStartMs >= windowMs; });
    Failures &failures = m_failures[peer.toString()];
    if (failures.count == 0)
        failures.windowStartMs = nowMs;
    ++failures.count;
    ++failures.unlogged;
    // The first failure of a window is said at once; the rest when the window ends.
    if (failures.loggedAtMs == 0 || nowMs - failures.loggedAtMs >= windowMs) {
        m_log(tr("failed authentication from %1: %2").arg(peer.toString(), why));
        failures.loggedAtMs = nowMs;
        failures.unlogged = 0;
    }
    HttpResponse response = HttpResponse::error(401, why);
    response.headers.emplaceBack("WWW-Authenticate", "Bearer realm=\"hourglass\"");
    return response;
}

} // namespace hg
