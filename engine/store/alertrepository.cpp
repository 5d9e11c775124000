#include "alertrepository.h"

#include "domain/alertrulesvalidator.h"
#include "store.h"
#include "storequery.h"

#include <QStringList>

namespace hg {
namespace {

const QString ruleColumns = QStringLiteral(
    "chain_id, late_after, longer_than, longer_than_factor, shorter_than, shorter_than_factor, "
    "deadline, deadline_zone");
const QString alertColumns = QStringLiteral("id, chain_id, run_id, kind, at, detail, raised_at");

AlertRules rulesRow(const StoreQuery &q)
{
    AlertRules r;
    r.lateAfterMs = q.int64(1);
    r.longerThanMs = q.int64(2);
    r.longerThanFactor = q.value(3).toDouble();
    r.shorterThanMs = q.int64(4);
    r.shorterThanFactor = q.value(5).toDouble();
    r.deadline = q.text(6);
    r.deadlineZone = q.text(7);
    return r;
}

Alert alertRow(const StoreQuery &q)
{
    Alert a;
    a.id = q.int64(0);
    a.chainId = q.int64(1);
    a.runId = q.int64(2);
    a.kind = enumFromString<AlertKind>(q.text(3)).value_or(AlertKind::Late);
    a.atMs = q.int64(4);
    a.detail = q.text(5);
    a.raisedAtMs = q.int64(6);
    return a;
}

} // namespace

Result<AlertRules> AlertRepository::rules(qint64 chainId) const
{
    StoreQuery q(m_store,
                 QStringLiteral("SELECT %1 FROM alert_rule WHERE chain_id = ?").arg(ruleColumns));
    q.bind(chainId);
    if (Status s = q.exec(tr("read the alert rules")); !s)
        return s.error();
    return q.next() ? rulesRow(q) : AlertRules{};
}

Result<QHash<qint64, AlertRules>> AlertRepository::all() const
{
    StoreQuery q(m_store, QStringLiteral("SELECT %1 FROM alert_rule").arg(ruleColumns));
    if (Status s = q.exec(tr("read the alert rules")); !s)
        return s.error();
    QHash<qint64, AlertRules> rules;
    while (q.next())
        rules.insert(q.int64(0), rulesRow(q));
    return rules;
}

Status AlertRepository::setRules(qint64 chainId, const AlertRules &rules)
{
    if (const Status valid = AlertRulesValidator::validate(rules); !valid)
        return valid;
    if (!rules.isSet()) {
        StoreQuery q(m_store, QStringLiteral("DELETE FROM alert_rule WHERE chain_id = ?"));
        q.bind(chainId);
        return q.exec(tr("save the alert rules"));
    }
    StoreQuery q(
        m_store,
        QStringLiteral("INSERT INTO alert_rule (%1) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT "
                       "(chain_id) DO UPDATE SET late_after = excluded.late_after, longer_than = "
                       "excluded.longer_than, longer_than_factor = excluded.longer_than_factor, "
                       "shorter_than = excluded.shorter_than, shorter_than_factor = "
                       "excluded.shorter_than_factor, deadline = excluded.deadline, deadline_zone "
                       "= excluded.deadline_zone")
            .arg(ruleColumns));
    q.bind(chainId)
        .bind(rules.lateAfterMs)
        .bind(rules.longerThanMs)
        .bind(rules.longerThanFactor)
        .bind(rules.shorterThanMs)
        .bind(rules.shorterThanFactor)
        .bind(rules.deadline)
        .bind(rules.deadlineZone);
    return q.exec(tr("save the alert rules"));
}

Result<qint64> AlertRepository::record(const Alert &alert)
{
    StoreQuery q(m_store, QStringLiteral("INSERT INTO alert (chain_id, run_id, kind, at, detail, "
                                         "raised_at) VALUES (?, ?, ?, ?, ?, ?) RETURNING id"));
    q.bind(alert.chainId)
        .bind(StoreQuery::fromId(alert.runId))
        .bind(enumName(alert.kind))
        .bind(alert.atMs)
        .bind(alert.detail)
        .bind(alert.raisedAtMs);
    if (Status s = q.execSingle(tr("record an alert"), {}); !s)
        return s.error();
    return q.int64(0);
}

Result<QList<Alert>> AlertRepository::list(qint64 chainId, qint64 fromMs, qint64 toMs) const
{
    StoreQuery q(m_store, QStringLiteral("SELECT %1 FROM alert WHERE chain_id = ? AND at >= ? AND "
                                         "at <= ? ORDER BY at, id")
                              .arg(alertColumns));
    q.bind(chainId).bind(fromMs).bind(toMs);
    if (Status s = q.exec(tr("read the alerts")); !s)
        return s.error();
    QList<Alert> alerts;
    while (q.next())
        alerts << alertRow(q);
    return alerts;
}

Result<QHash<qint64, QList<Alert>>> AlertRepository::forRuns(const QList<qint64> &runIds) const
{
    QHash<qint64, QList<Alert>> byRun;
    if (runIds.isEmpty())
        return byRun;
    QStringList marks;
    marks.fill(QStringLiteral("?"), runIds.size());
    StoreQuery q(m_store, QStringLiteral("SELECT %1 FROM alert WHERE run_id IN (%2) ORDER BY id")
                              .arg(alertColumns, marks.join(QLatin1Char(','))));
    for (qint64 id : runIds)
        q.bind(id);
    if (Status s = q.exec(tr("read the alerts")); !s)
        return s.error();
    while (q.next()) {
        const Alert alert = alertRow(q);
        byRun[alert.runId] << alert;
    }
    return byRun;
}

Result<QList<qint64>> AlertRepository::recentDurations(qint64 chainId, qint64 beforeRunId,
                                                       int count) const
{
    // Through run_chain (chain_id, id), newest first: the scan stops after `count` matches.
    StoreQuery q(m_store, QStringLiteral("SELECT finished_at - started_at FROM run WHERE chain_id "
                                         "= ? AND id < ? AND state = 'succeeded' AND started_at "
                                         "IS NOT NULL AND finished_at IS NOT NULL ORDER BY id "
                                         "DESC LIMIT ?"));
    q.bind(chainId).bind(beforeRunId).bind(count);
    if (Status s = q.exec(tr("read the chain's run durations")); !s)
        return s.error();
    QList<qint64> durations;
    while (q.next())
        durations << q.int64(0);
    return durations;
}

Result<bool> AlertRepository::succeededBetween(qint64 chainId, qint64 fromMs, qint64 toMs) const
{
    StoreQuery q(m_store, QStringLiteral("SELECT 1 FROM run WHERE chain_id = ? AND state = "
                                         "'succeeded' AND finished_at > ? AND finished_at <= ? "
                                         "LIMIT 1"));
    q.bind(chainId).bind(fromMs).bind(toMs);
    if (Status s = q.exec(tr("read the chain's runs")); !s)
        return s.error();
    return q.next();
}

} // namespace hg
