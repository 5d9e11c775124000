#pragma once

#include <QByteArray>
#include <QString>

#include <curl/curl.h>
#include <mutex>

namespace hg {

class CancelToken;

// One libcurl easy handle, for one transfer on the calling thread (a pool thread: a transfer
// blocks for up to its timeout). Keeps the server's last reply line (for SMTP, the last
// status line it sent) and at most 4 KiB of a response body.
class CurlSession final
{
public:
    CurlSession();
    ~CurlSession();
    CurlSession(const CurlSession &) = delete;
    CurlSession &operator=(const CurlSession &) = delete;

    CURL *handle() const { return m_curl; }
    bool isValid() const { return m_curl != nullptr; }
    // Sends `upload` as the request body read by libcurl (SMTP's message).
    void setUpload(const QByteArray &upload);
    // The transfer ends within a fraction of a second once `cancel` is cancelled (an engine
    // stopping does not wait for a slow server): its progress callback says so, and where
    // libcurl waits without calling back (an SMTP server's answer to the message's end, two
    // minutes), its socket is shut down.
    void setCancel(CancelToken *cancel);
    CURLcode perform();
    // curl's own explanation of a failure, with its detail.
    QString errorText(CURLcode code) const;
    QString lastServerLine() const { return m_lastServerLine; }
    QByteArray responseBody() const { return m_body; }
    long responseCode() const;

private:
    static size_t readUpload(char *buffer, size_t size, size_t count, void *self);
    static size_t writeBody(char *data, size_t size, size_t count, void *self);
    static int progress(void *self, curl_off_t, curl_off_t, curl_off_t, curl_off_t);
    static int debug(CURL *handle, curl_infotype type, char *data, size_t size, void *self);
    static curl_socket_t openSocket(void *self, curlsocktype purpose, curl_sockaddr *address);
    static int closeSocket(void *self, curl_socket_t socket);
    void cutSocket();

    CURL *m_curl = nullptr;
    CancelToken *m_cancel = nullptr;
    std::mutex m_socketMutex;
    curl_socket_t m_socket = CURL_SOCKET_BAD; // the connection's, while it is open
    QByteArray m_upload;
    qsizetype m_uploaded = 0;
    QByteArray m_body;
    QString m_lastServerLine;
    char m_error[CURL_ERROR_SIZE] = {};
};

} // namespace hg
