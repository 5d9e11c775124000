#include "engineeventrecorder.h"

#include "base/terminaltext.h"
#include "domain/notification.h"
#include "domain/version.h"
#include "store/outboxrepository.h"
#include "store/store.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSysInfo>
#include <QTimeZone>

namespace hg {

EngineEventRecorder::EngineEventRecorder(Store &store, QString engineName, qint64 awayMs,
                                         QObject *parent)
    : QObject(parent)
    , m_store(store)
    , m_engineName(std::move(engineName))
    , m_awayMs(awayMs)
{
    m_retry.setInterval(5000);
    connect(&m_retry, &QTimer::timeout, this, &EngineEventRecorder::writePending);
}

void EngineEventRecorder::leaseLost(const QString &why)
{
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    const QString engine = terminaltext::escaped(m_engineName);
    record(QStringLiteral("engine:%1:lease:%2").arg(m_engineName).arg(now),
           QStringLiteral("lease-lost"),
           QStringLiteral("[Hourglass] ") + tr("engine %1 lost its lease").arg(engine),
           tr("Engine %1 on %2 lost its lease: %3. Its runs were stopped there and it "
              "registered anew.")
               .arg(engine, QSysInfo::machineHostName(), terminaltext::escaped(why)),
           now, why);
}

void EngineEventRecorder::reachabilityChanged(qint64 sinceMs, const QString &why)
{
    if (sinceMs >= 0) {
        if (m_awaySinceMs < 0) {
            m_awaySinceMs = sinceMs;
            m_awayWhy = why;
        }
        return;
    }
    const qint64 since = m_awaySinceMs;
    m_awaySinceMs = -1;
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    if (since < 0 || now - since < m_awayMs)
        return;
    const qint64 minutes = (now - since + 30000) / 60000;
    const QString engine = terminaltext::escaped(m_engineName);
    const auto local = [](qint64 ms) {
        return QDateTime::fromMSecsSinceEpoch(ms).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
    };
    record(QStringLiteral("engine:%1:away:%2").arg(m_engineName).arg(since),
           QStringLiteral("store-unreachable"),
           QStringLiteral("[Hourglass] ")
               + tr("the store was unreachable for %n minute(s) (engine %1)", nullptr, int(minutes))
                     .arg(engine),
           tr("Engine %1 on %2 could not reach its store from %3 to %4: %5. Nothing new "
              "started meanwhile; what ran went on, and its results were written once the "
              "store was back.")
               .arg(engine, QSysInfo::machineHostName(), local(since), local(now),
                    terminaltext::escaped(m_awayWhy)),
           since, m_awayWhy);
}

void EngineEventRecorder::record(const QString &key, const QString &kind, const QString &subject,
                                 const QString &text, qint64 sinceMs, const QString &why)
{
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    const QJsonObject json{
        {QStringLiteral("event"), QStringLiteral("engine")},
        {QStringLiteral("kind"), kind},
        {QStringLiteral("engine"), m_engineName},
        {QStringLiteral("host"), QSysInfo::machineHostName()},
        {QStringLiteral("reason"), why},
        {QStringLiteral("since"),
         QDateTime::fromMSecsSinceEpoch(sinceMs, QTimeZone::utc()).toString(Qt::ISODateWithMs)},
        {QStringLiteral("hourglass"), versionString()},
        {QStringLiteral("subject"), subject},
        {QStringLiteral("text"), text}};
    if (m_pending.isEmpty())
        m_firstPendingMs = now;
    m_pending << Pending{key, subject,
                         QString::fromUtf8(QJsonDocument(json).toJson(QJsonDocument::Compact))};
    writePending();
}

void EngineEventRecorder::writePending()
{
    bool wrote = false;
    while (!m_pending.isEmpty()) {
        const Pending &next = m_pending.constFirst();
        const Result<int> written = OutboxRepository(m_store).addEngineEvent(
            next.key, next.subject, next.body, QDateTime::currentMSecsSinceEpoch());
        if (!written) {
            if (QDateTime::currentMSecsSinceEpoch() - m_firstPendingMs < qint64(3600) * 1000) {
                m_retry.start();
                return;
            }
            // An hour of refusals: given up, and said rather than lost in silence.
            qWarning("hourglass: an engine event could not be written: %s",
                     qPrintable(written.error().message));
        }
        wrote = wrote || (written && written.value() > 0);
        m_pending.removeFirst();
        m_firstPendingMs = QDateTime::currentMSecsSinceEpoch();
    }
    m_retry.stop();
    if (wrote)
        Q_EMIT recorded();
}

} // namespace hg
