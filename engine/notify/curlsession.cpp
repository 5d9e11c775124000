#include "curlsession.h"

#include <algorithm>
#include <cstring>
#include <mutex>

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

void CurlSession::setCancel(const std::atomic<bool> *cancel)
{
    m_cancel = cancel;
    if (!cancel)
        return;
    curl_easy_setopt(m_curl, CURLOPT_XFERINFOFUNCTION, &CurlSession::progress);
    curl_easy_setopt(m_curl, CURLOPT_XFERINFODATA, this);
    curl_easy_setopt(m_curl, CURLOPT_NOPROGRESS, 0L);
}

int CurlSession::progress(void *self, curl_off_t, curl_off_t, curl_off_t, curl_off_t)
{
    const auto *session = static_cast<const CurlSession *>(self);
    return session->m_cancel && session->m_cancel->load() ? 1 : 0; // non-zero aborts
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
