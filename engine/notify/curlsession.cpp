#include "curlsession.h"

#include "base/canceltoken.h"

#include <algorithm>
#include <cstring>
#include <mutex>
#include <sys/socket.h>
#include <unistd.h>

namespace hg {
namespace {

constexpr qsizetype bodyLimit = 4096;

void initialiseOnce()
{
    static std::once_flag once;
    std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

} // namespace

CurlSession::CurlSession()
{
    initialiseOnce();
    m_curl = curl_easy_init();
    if (!m_curl)
        return;
    curl_easy_setopt(m_curl, CURLOPT_NOSIGNAL, 1L); // threads: no SIGALRM for timeouts
    curl_easy_setopt(m_curl, CURLOPT_ERRORBUFFER, m_error);
    curl_easy_setopt(m_curl, CURLOPT_WRITEFUNCTION, &CurlSession::writeBody);
    curl_easy_setopt(m_curl, CURLOPT_WRITEDATA, this);
    curl_easy_setopt(m_curl, CURLOPT_DEBUGFUNCTION, &CurlSession::debug);
    curl_easy_setopt(m_curl, CURLOPT_DEBUGDATA, this);
    curl_easy_setopt(m_curl, CURLOPT_VERBOSE, 1L); // through debug(): the server's lines only
    curl_easy_setopt(m_curl, CURLOPT_SSL_VERIFYPEER, 1L);
    curl_easy_setopt(m_curl, CURLOPT_SSL_VERIFYHOST, 2L);
    curl_easy_setopt(m_curl, CURLOPT_FOLLOWLOCATION, 0L);
}

CurlSession::~CurlSession()
{
    if (m_cancel)
        m_cancel->setHook({}); // never called on a session that is gone
    if (m_curl)
        curl_easy_cleanup(m_curl);
}

void CurlSession::setUpload(const QByteArray &upload)
{
    m_upload = upload;
    m_uploaded = 0;
    curl_easy_setopt(m_curl, CURLOPT_READFUNCTION, &CurlSession::readUpload);
    curl_easy_setopt(m_curl, CURLOPT_READDATA, this);
    curl_easy_setopt(m_curl, CURLOPT_UPLOAD, 1L);
    curl_easy_setopt(m_curl, CURLOPT_INFILESIZE_LARGE, curl_off_t(upload.size()));
}

void CurlSession::setCancel(CancelToken *cancel)
{
    if (m_cancel)
        m_cancel->setHook({});
    m_cancel = cancel;
    if (!cancel)
        return;
    curl_easy_setopt(m_curl, CURLOPT_XFERINFOFUNCTION, &CurlSession::progress);
    curl_easy_setopt(m_curl, CURLOPT_XFERINFODATA, this);
    curl_easy_setopt(m_curl, CURLOPT_NOPROGRESS, 0L);
    curl_easy_setopt(m_curl, CURLOPT_OPENSOCKETFUNCTION, &CurlSession::openSocket);
    curl_easy_setopt(m_curl, CURLOPT_OPENSOCKETDATA, this);
    curl_easy_setopt(m_curl, CURLOPT_CLOSESOCKETFUNCTION, &CurlSession::closeSocket);
    curl_easy_setopt(m_curl, CURLOPT_CLOSESOCKETDATA, this);
    cancel->setHook([this] { cutSocket(); });
}

int CurlSession::progress(void *self, curl_off_t, curl_off_t, curl_off_t, curl_off_t)
{
    const auto *session = static_cast<const CurlSession *>(self);
    return session->m_cancel && session->m_cancel->isCancelled() ? 1 : 0; // non-zero aborts
}

curl_socket_t CurlSession::openSocket(void *self, curlsocktype, curl_sockaddr *address)
{
    auto *session = static_cast<CurlSession *>(self);
    const std::lock_guard lock(session->m_socketMutex);
    if (session->m_cancel && session->m_cancel->isCancelled())
        return CURL_SOCKET_BAD;
    const curl_socket_t socket =
        ::socket(address->family, address->socktype | SOCK_CLOEXEC, address->protocol);
    session->m_socket = socket;
    return socket;
}

int CurlSession::closeSocket(void *self, curl_socket_t socket)
{
    auto *session = static_cast<CurlSession *>(self);
    const std::lock_guard lock(session->m_socketMutex);
    if (session->m_socket == socket)
        session->m_socket = CURL_SOCKET_BAD;
    return ::close(socket);
}

void CurlSession::cutSocket()
{
    // Shut down, not closed: libcurl still owns the descriptor and closes it itself, so the
    // number is never reused under it.
    const std::lock_guard lock(m_socketMutex);
    if (m_socket != CURL_SOCKET_BAD)
        ::shutdown(m_socket, SHUT_RDWR);
}

CURLcode CurlSession::perform()
{
    m_error[0] = '\0';
    return curl_easy_perform(m_curl);
}

QString CurlSession::errorText(CURLcode code) const
{
    const QString what = QString::fromUtf8(curl_easy_strerror(code));
    const QString detail = QString::fromUtf8(m_error).trimmed();
    return detail.isEmpty() || detail == what ? what : what + QStringLiteral(": ") + detail;
}

long CurlSession::responseCode() const
{
    long code = 0;
    curl_easy_getinfo(m_curl, CURLINFO_RESPONSE_CODE, &code);
    return code;
}

size_t CurlSession::readUpload(char *buffer, size_t size, size_t count, void *self)
{
    auto *session = static_cast<CurlSession *>(self);
    const qsizetype left = session->m_upload.size() - session->m_uploaded;
    const qsizetype n = std::min<qsizetype>(left, qsizetype(size * count));
    std::memcpy(buffer, session->m_upload.constData() + session->m_uploaded, size_t(n));
    session->m_uploaded += n;
    return size_t(n);
}

size_t CurlSession::writeBody(char *data, size_t size, size_t count, void *self)
{
    auto *session = static_cast<CurlSession *>(self);
    const qsizetype room = bodyLimit - session->m_body.size();
    if (room > 0)
        session->m_body.append(data, std::min<qsizetype>(room, qsizetype(size * count)));
    return size * count; // the rest is read and dropped, so the transfer ends normally
}

int CurlSession::debug(CURL *, curl_infotype type, char *data, size_t size, void *self)
{
    // CURLINFO_HEADER_IN carries the server's reply lines (SMTP's "250 …", HTTP's status line
    // and headers); nothing sent (a password in AUTH) is ever kept.
    if (type != CURLINFO_HEADER_IN)
        return 0;
    const QString line = QString::fromUtf8(data, qsizetype(size)).trimmed();
    auto *session = static_cast<CurlSession *>(self);
    if (!line.isEmpty())
        session->m_lastServerLine = line.left(300);
    return 0;
}

} // namespace hg
