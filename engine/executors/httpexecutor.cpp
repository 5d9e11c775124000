#include "httpexecutor.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QNetworkReply>
#include <QNetworkRequest>

namespace hg {

HttpExecutor::HttpExecutor(HttpRequestSpec spec, qint64 timeoutMs, std::optional<Download> download,
                           QObject *parent)
    : TaskExecutor(parent)
    , m_spec(std::move(spec))
    , m_timeoutMs(timeoutMs)
    , m_download(std::move(download))
{
    connect(&m_timeout, &LongTimer::timeout, this, [this] { stop(RunState::TimedOut); });
}

HttpExecutor::~HttpExecutor()
{
    if (m_reply) {
        m_reply->disconnect(this);
        m_reply->abort();
    }
    if (m_file)
        m_file->cancel();
}

void HttpExecutor::start()
{
    if (m_download) {
        const QFileInfo target(m_download->destination);
        if (target.exists() && !m_download->overwrite) {
            fail(QStringLiteral("%1 exists (set \"overwrite\": true to replace it)")
                     .arg(m_download->destination));
            return;
        }
        // Only ever a regular file: the engine must not block on a FIFO nobody reads.
        m_file = std::make_unique<OutputFile>(m_download->destination, OutputFile::Special::Refuse);
        if (const Status opened = m_file->open(); !opened) {
            m_file.reset();
            fail(opened.error().message);
            return;
        }
    }
    QNetworkRequest request(m_spec.url);
    request.setHeader(QNetworkRequest::UserAgentHeader,
                      QStringLiteral("Hourglass/%1").arg(QCoreApplication::applicationVersion()));
    for (const auto &[name, value] : std::as_const(m_spec.headers))
        request.setRawHeader(name, value);
    m_elapsed.start();
    m_reply = m_network.sendCustomRequest(request, m_spec.method, m_spec.body);
    // Back-pressure: Qt reads the socket only as far as this buffer, so a body of any size
    // costs the same memory (unbounded, a 629 MB download held 858 MB).
    m_reply->setReadBufferSize(readBufferBytes);
    connect(m_reply, &QNetworkReply::readyRead, this, &HttpExecutor::readBody);
    connect(m_reply, &QNetworkReply::finished, this, &HttpExecutor::replyFinished);
    if (m_timeoutMs > 0)
        m_timeout.start(m_timeoutMs);
}

void HttpExecutor::readBody()
{
    const QByteArray chunk = m_reply->readAll();
    m_bodyBytes += chunk.size();
    if (m_file) {
        if (!m_file->write(chunk)) {
            stop(RunState::Failed);
            return;
        }
    } else if (m_loggedBody.size() < loggedBodyBytes) {
        m_loggedBody += chunk.left(loggedBodyBytes - m_loggedBody.size());
    }
}

void HttpExecutor::replyFinished()
{
    m_timeout.stop();
    if (!m_stopReason)
        readBody(); // whatever arrived with the end
    QNetworkReply *reply = m_reply;
    m_reply = nullptr;
    reply->deleteLater();
    if (m_stopReason) {
        if (m_file)
            m_file->cancel();
        const QString why = *m_stopReason == RunState::TimedOut ? QStringLiteral("timed out")
                            : *m_stopReason == RunState::Failed
                                ? QStringLiteral("cannot write %1: %2")
                                      .arg(m_download->destination, m_file->errorString())
                                : QStringLiteral("stopped");
        deliverOutcome(TaskOutcome{*m_stopReason, std::nullopt, why});
        return;
    }
    const QVariant statusAttribute = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute);
    const QString reason =
        reply->attribute(QNetworkRequest::HttpReasonPhraseAttribute).toString().trimmed();
    const QString target = QString::fromLatin1(m_spec.method) + QLatin1Char(' ')
                           + m_spec.url.toDisplayString(QUrl::RemoveUserInfo);
    if (!statusAttribute.isValid()) { // no HTTP response at all
        fail(QStringLiteral("%1: %2").arg(target, reply->errorString()));
        return;
    }
    const int status = statusAttribute.toInt();
    // One arg() with every part: a chained arg() would fill a "%1" inside the URL or the
    // server's reason phrase with a later value (found by a hostile test).
    Q_EMIT outputLine(LogStream::System,
                      QStringLiteral("%1 -> %2 %3, %4 bytes in %5 ms")
                          .arg(target, QString::number(status), reason,
                               QString::number(m_bodyBytes), QString::number(m_elapsed.elapsed())));
    if (!m_file && !m_loggedBody.isEmpty()) {
        emitText(LogStream::Stdout, QString::fromUtf8(m_loggedBody));
        if (m_bodyBytes > m_loggedBody.size())
            Q_EMIT outputLine(LogStream::System,
                              QStringLiteral("[response body truncated in the log after %1 bytes]")
                                  .arg(m_loggedBody.size()));
    }
    // A body cut short (the connection closed before Content-Length bytes, or a chunked body
    // without its last chunk) is never a success, nor saved over the destination: Qt ends such
    // a reply with a network error but a valid status, and it was taken for a whole download
    // (helper-10; curl exits 18 there).
    const int error = reply->error();
    const bool networkError = error != QNetworkReply::NoError
                              && (error < QNetworkReply::ContentAccessDenied
                                  || (error >= QNetworkReply::ProtocolUnknownError
                                      && error < QNetworkReply::InternalServerError));
    const QVariant length = reply->header(QNetworkRequest::ContentLengthHeader);
    const bool identity = reply->rawHeader("Content-Encoding").isEmpty()
                          || reply->rawHeader("Content-Encoding").trimmed().toLower() == "identity";
    const bool hasBody = m_spec.method != "HEAD" && status != 204 && status != 304;
    if (networkError
        || (hasBody && identity && length.isValid() && m_bodyBytes < length.toLongLong())) {
        fail(QStringLiteral("%1: the response was cut short after %2 bytes%3: %4")
                 .arg(target, QString::number(m_bodyBytes),
                      length.isValid() ? QStringLiteral(" of %1").arg(length.toLongLong())
                                       : QString(),
                      networkError ? reply->errorString()
                                   : QStringLiteral("the connection closed early")),
             status);
        return;
    }
    if (!m_spec.statusIsExpected(status)) {
        fail(QStringLiteral("%1: expected status %2, got %3 %4")
                 .arg(target, m_spec.expectedStatusText(), QString::number(status), reason),
             status);
        return;
    }
    if (m_file) {
        if (const Status committed = m_file->commit(); !committed) {
            fail(committed.error().message, status);
            return;
        }
    }
    if (m_file)
        Q_EMIT outputLine(LogStream::System,
                          QStringLiteral("saved %1 bytes to %2")
                              .arg(QString::number(m_bodyBytes), m_download->destination));
    m_file.reset();
    deliverOutcome(TaskOutcome{RunState::Succeeded, status, {}});
}

void HttpExecutor::stop(RunState reason)
{
    if (outcomeDelivered() || m_stopReason)
        return;
    m_stopReason = reason;
    if (m_reply)
        m_reply->abort(); // finished() follows, synchronously
    else
        deliverOutcome(TaskOutcome{reason, std::nullopt, QStringLiteral("stopped")});
}

void HttpExecutor::fail(const QString &error, std::optional<int> status)
{
    if (m_file)
        m_file->cancel();
    m_file.reset();
    deliverOutcome(TaskOutcome{RunState::Failed, status, error});
}

} // namespace hg
