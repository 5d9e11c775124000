#pragma once

#include "base/longtimer.h"
#include "base/outputfile.h"
#include "domain/httprequestspec.h"
#include "taskexecutor.h"

#include <QElapsedTimer>
#include <QNetworkAccessManager>
#include <QPointer>
#include <QTimer>

#include <memory>

class QNetworkReply;

namespace hg {

// HTTP tasks and the HttpRequest and Download builtins. The status decides the outcome
// (expect_status, else any 2xx). Without a destination the start of the response body goes
// to the log; with one (Download) the body streams into that file, which is replaced only
// when the whole response arrived with an expected status (QSaveFile: never half a file).
class HttpExecutor final : public TaskExecutor
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(HttpExecutor)

public:
    struct Download
    {
        QString destination;
        bool overwrite = false;
    };

    HttpExecutor(HttpRequestSpec spec, qint64 timeoutMs, std::optional<Download> download = {},
                 QObject *parent = nullptr);
    ~HttpExecutor() override;

    void start() override;
    void stop(RunState reason) override;

    static constexpr qint64 loggedBodyBytes = qint64(64) * 1024;
    static constexpr qint64 readBufferBytes = qint64(1024) * 1024;

private:
    void readBody();
    void replyFinished();
    void fail(const QString &error, std::optional<int> status = std::nullopt);

    HttpRequestSpec m_spec;
    qint64 m_timeoutMs = 0;
    std::optional<Download> m_download;
    QNetworkAccessManager m_network;
    QPointer<QNetworkReply> m_reply;
    std::unique_ptr<OutputFile> m_file;
    QByteArray m_loggedBody;
    qint64 m_bodyBytes = 0;
    LongTimer m_timeout;
    QElapsedTimer m_elapsed;
    std::optional<RunState> m_stopReason;
};

} // namespace hg
