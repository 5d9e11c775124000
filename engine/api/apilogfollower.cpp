#include "apilogfollower.h"

#include "api/apijson.h"
#include "base/enumnames.h"
#include "store/apitokenrepository.h"
#include "store/logrepository.h"
#include "store/runrepository.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QPointer>

namespace hg {
namespace {

QByteArray sseEvent(const char *name, const QJsonObject &data, qint64 id = 0)
{
    QByteArray text;
    if (id > 0)
        text += "id: " + QByteArray::number(id) + '\n';
    // Compact JSON holds no raw newline (one is escaped in its strings): one data line.
    text += "event: " + QByteArray(name)
            + "\ndata: " + QJsonDocument(data).toJson(QJsonDocument::Compact) + "\n\n";
    return text;
}

} // namespace

ApiLogFollower::ApiLogFollower(Store &store, qint64 runId, qint64 afterLineId, qint64 tokenId,
                               QObject *parent)
    : QObject(parent)
    , m_store(store)
    , m_runId(runId)
    , m_after(afterLineId)
    , m_tokenId(tokenId)
{
    QPointer<ApiLogFollower> self(this);
    m_stream->closedByClient = [self] {
        if (self)
            self->deleteLater();
    };
    m_poll.setInterval(pollMs);
    connect(&m_poll, &QTimer::timeout, this, &ApiLogFollower::poll);
    m_heartbeat.setInterval(heartbeatMs);
    connect(&m_heartbeat, &QTimer::timeout, this, [this] { m_stream->write(": ping\n\n"); });
    m_poll.start();
    m_heartbeat.start();
    // The first lines at once, not a quarter of a second later.
    QMetaObject::invokeMethod(this, &ApiLogFollower::poll, Qt::QueuedConnection);
}

void ApiLogFollower::poll()
{
    if (m_stream->isGone() || m_stream->isClosed())
        return;
    if (m_stream->pending() > maxBehindBytes) {
        finish(sseEvent(
            "error", QJsonObject{{QStringLiteral("error"), tr("the reader fell too far behind")}}));
        return;
    }
    if (m_tokenId > 0 && ++m_polls % (5000 / pollMs) == 0) {
        const Result<bool> valid =
            ApiTokenRepository(m_store).stillValid(m_tokenId, QDateTime::currentDateTimeUtc());
        if (valid && !valid.value()) {
            finish(sseEvent("error", QJsonObject{{QStringLiteral("error"),
                                                  tr("the token was removed or has expired")}}));
            return;
        }
    }
    // The run's state is read before its lines: lines written before it ended are all there.
    const Result<Run> run = RunRepository(m_store).byId(m_runId);
    if (!run) {
        finish(sseEvent("error", QJsonObject{{QStringLiteral("error"), run.error().message}}));
        return;
    }
    for (;;) {
        const Result<QList<LogLine>> lines = LogRepository(m_store).read(m_runId, m_after, 1000);
        if (!lines)
            return; // the store away: tried again at the next poll
        for (const LogLine &line : lines.value()) {
            m_after = line.id;
            m_stream->write(sseEvent("line",
                                     QJsonObject{{QStringLiteral("id"), line.id},
                                                 {QStringLiteral("at"), apijson::time(line.at)},
                                                 {QStringLiteral("stream"), enumName(line.stream)},
                                                 {QStringLiteral("text"), line.text}},
                                     line.id));
        }
        if (lines->size() < 1000)
            break;
    }
    if (isTerminal(run->state))
        finish(sseEvent("end", QJsonObject{{QStringLiteral("state"), enumName(run->state)}}));
}

void ApiLogFollower::finish(const QByteArray &lastEvent)
{
    m_poll.stop();
    m_heartbeat.stop();
    m_stream->write(lastEvent);
    m_stream->close();
}

} // namespace hg
