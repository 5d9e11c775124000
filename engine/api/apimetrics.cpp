#include "apimetrics.h"

#include "base/enumnames.h"
#include "store/enginesessionrepository.h"
#include "store/occurrencerepository.h"
#include "store/store.h"
#include "store/storequery.h"

#include <QDateTime>

#include <map>
#include <vector>

namespace hg {
namespace {

// A label value as the text format wants it: backslash, double quote and newline escaped.
QByteArray label(const QString &value)
{
    const QByteArray utf8 = value.toUtf8();
    QByteArray out;
    out.reserve(utf8.size());
    for (const char c : utf8) {
        if (c == '\\')
            out += "\\\\";
        else if (c == '"')
            out += "\\\"";
        else if (c == '\n')
            out += "\\n";
        else
            out += c;
    }
    return out;
}

QByteArray number(double value)
{
    return QByteArray::number(value, 'g', 12);
}

// Appended straight to bytes: at 10,000 chains the text is some 10 MB, and a QTextStream
// over a QString took 78 ms of the 50 ms the issue allows (bench_api).
void header(QByteArray &out, const char *name, const char *type, const QString &help)
{
    out += "# HELP ";
    out += name;
    out += ' ';
    out += help.toUtf8();
    out += "\n# TYPE ";
    out += name;
    out += ' ';
    out += type;
    out += '\n';
}

void line(QByteArray &out, const char *name, const QByteArray &labels, quint64 value)
{
    out += name;
    out += labels;
    out += ' ';
    out += QByteArray::number(value);
    out += '\n';
}

// The bucket bounds as the text format spells them, made once.
template<std::size_t N>
const std::array<QByteArray, N> &boundTexts(const std::array<double, N> &bounds)
{
    static const std::array<QByteArray, N> texts = [&bounds] {
        std::array<QByteArray, N> made;
        for (std::size_t i = 0; i < N; ++i)
            made[i] = "le=\"" + number(bounds[i]) + "\"}";
        return made;
    }();
    return texts;
}

template<std::size_t N>
void writeHistogram(QByteArray &out, const char *name, const QByteArray &labels,
                    const std::array<double, N> &bounds, const std::array<quint64, N> &buckets,
                    quint64 count, double sum)
{
    const QByteArray open =
        QByteArray(name) + "_bucket{" + (labels.isEmpty() ? QByteArray() : labels + ',');
    const std::array<QByteArray, N> &texts = boundTexts(bounds);
    quint64 cumulative = 0;
    for (std::size_t i = 0; i < N; ++i) {
        cumulative += buckets[i];
        out += open;
        out += texts[i];
        out += ' ';
        out += QByteArray::number(cumulative);
        out += '\n';
    }
    out += open;
    out += "le=\"+Inf\"} ";
    out += QByteArray::number(count);
    out += '\n';
    const QByteArray braces = labels.isEmpty() ? QByteArray() : '{' + labels + '}';
    out += name;
    out += "_sum";
    out += braces;
    out += ' ';
    out += number(sum);
    out += '\n';
    out += name;
    out += "_count";
    out += braces;
    out += ' ';
    out += QByteArray::number(count);
    out += '\n';
}

} // namespace

template<std::size_t N>
void ApiMetrics::Histogram<N>::add(const std::array<double, N> &bounds, double value)
{
    ++count;
    sum += value;
    for (std::size_t i = 0; i < N; ++i) {
        if (value <= bounds[i]) {
            ++buckets[i];
            return;
        }
    }
}

void ApiMetrics::observe(const Run &run, const QString &chainPath)
{
    if (run.startedAt.isValid() && !m_started.contains(run.id) && !m_ended.contains(run.id)) {
        m_started.insert(run.id);
        // Lateness is a schedule's figure: a manual run has no time it was due.
        if (run.trigger == RunTrigger::Schedule && run.scheduledFor.isValid())
            m_lateness.add(latenessBuckets,
                           std::max<qint64>(0, run.scheduledFor.msecsTo(run.startedAt)) / 1000.0);
    }
    if (!isTerminal(run.state) || m_ended.contains(run.id))
        return;
    m_started.remove(run.id);
    m_ended.insert(run.id);
    m_endedOrder.append(run.id);
    if (m_endedOrder.size() > 10000)
        m_ended.remove(m_endedOrder.takeFirst());
    ChainFigures &figures = m_chains[chainPath];
    ++figures.endedByState[enumName(run.state)];
    if (run.startedAt.isValid() && run.finishedAt.isValid())
        figures.duration.add(durationBuckets, run.startedAt.msecsTo(run.finishedAt) / 1000.0);
}

void ApiMetrics::observe(const TaskRun &attempt)
{
    if (isTerminal(attempt.state) && attempt.startedAt.isValid() && attempt.finishedAt.isValid())
        m_taskDuration.add(durationBuckets, attempt.startedAt.msecsTo(attempt.finishedAt) / 1000.0);
}

void ApiMetrics::countRequest(int status)
{
    ++m_requests[status];
}

QByteArray ApiMetrics::render(Store &store) const
{
    QByteArray out;
    out.reserve(1024 + m_chains.size() * 1200);
    // Sorted, so two scrapes list series alike (and a test can compare them).
    const std::map<QString, ChainFigures> chains(m_chains.constKeyValueBegin(),
                                                 m_chains.constKeyValueEnd());
    std::vector<QByteArray> chainLabels;
    chainLabels.reserve(chains.size());
    for (const auto &entry : chains)
        chainLabels.push_back("chain=\"" + label(entry.first) + '"');
    header(out, "hourglass_runs_finished_total", "counter",
           tr("Runs ended since this engine started, by chain and final state."));
    std::size_t index = 0;
    for (const auto &[path, figures] : chains) {
        const std::map<QString, quint64> states(figures.endedByState.constKeyValueBegin(),
                                                figures.endedByState.constKeyValueEnd());
        for (const auto &[state, count] : states)
            line(out, "hourglass_runs_finished_total",
                 '{' + chainLabels[index] + ",state=\"" + state.toLatin1() + "\"}", count);
        ++index;
    }
    header(out, "hourglass_run_duration_seconds", "histogram",
           tr("How long runs took from start to end, by chain."));
    index = 0;
    for (const auto &[path, figures] : chains)
        writeHistogram(out, "hourglass_run_duration_seconds", chainLabels[index++], durationBuckets,
                       figures.duration.buckets, figures.duration.count, figures.duration.sum);
    header(out, "hourglass_task_duration_seconds", "histogram",
           tr("How long task attempts took from start to end."));
    writeHistogram(out, "hourglass_task_duration_seconds", {}, durationBuckets,
                   m_taskDuration.buckets, m_taskDuration.count, m_taskDuration.sum);
    header(out, "hourglass_start_lateness_seconds", "histogram",
           tr("How late scheduled runs started after their fire time."));
    writeHistogram(out, "hourglass_start_lateness_seconds", {}, latenessBuckets, m_lateness.buckets,
                   m_lateness.count, m_lateness.sum);
    header(out, "hourglass_api_requests_total", "counter",
           tr("API requests answered since start, by status code."));
    const std::map<int, quint64> requests(m_requests.constKeyValueBegin(),
                                          m_requests.constKeyValueEnd());
    for (const auto &[status, count] : requests)
        line(out, "hourglass_api_requests_total", "{code=\"" + QByteArray::number(status) + "\"}",
             count);

    // Gauges: what the store holds now. An unreachable store says so and nothing else.
    const bool reachable = store.isReachable();
    QHash<QString, qint64> active;
    bool read = reachable;
    if (read) {
        StoreQuery q(store, QStringLiteral("SELECT state, COUNT(*) FROM run WHERE state IN "
                                           "('queued', 'waiting', 'running', 'paused') GROUP BY "
                                           "state"));
        read = bool(q.exec(tr("count active runs")));
        while (read && q.next())
            active.insert(q.text(0), q.int64(1));
    }
    header(out, "hourglass_store_reachable", "gauge",
           tr("1 when the store answered this scrape, 0 when it could not be read."));
    line(out, "hourglass_store_reachable", {}, read ? 1 : 0);
    if (!read)
        return out;
    header(out, "hourglass_runs", "gauge", tr("Runs not ended, by state."));
    for (const char *state : {"queued", "waiting", "running", "paused"})
        line(out, "hourglass_runs", "{state=\"" + QByteArray(state) + "\"}",
             quint64(active.value(QString::fromLatin1(state))));
    const Result<qint64> missed = OccurrenceRepository(store).pendingCount();
    header(out, "hourglass_missed_runs_waiting", "gauge",
           tr("Missed fires waiting in the inbox for a decision."));
    line(out, "hourglass_missed_runs_waiting", {}, quint64(missed ? missed.value() : 0));
    QHash<QString, qint64> outbox;
    {
        StoreQuery q(store, QStringLiteral("SELECT state, COUNT(*) FROM notify_outbox WHERE state "
                                           "IN ('queued', 'held', 'failed') GROUP BY state"));
        if (q.exec(tr("count notifications")))
            while (q.next())
                outbox.insert(q.text(0), q.int64(1));
    }
    header(out, "hourglass_outbox_pending", "gauge",
           tr("Notifications waiting to be sent (queued or held by flood control)."));
    line(out, "hourglass_outbox_pending", {},
         quint64(outbox.value(QStringLiteral("queued")) + outbox.value(QStringLiteral("held"))));
    header(out, "hourglass_outbox_failed", "gauge",
           tr("Notifications that failed for good and are kept in the outbox."));
    line(out, "hourglass_outbox_failed", {}, quint64(outbox.value(QStringLiteral("failed"))));
    {
        StoreQuery q(store, QStringLiteral("SELECT COUNT(*) FROM chain"));
        header(out, "hourglass_chains", "gauge", tr("Chains defined in the store."));
        line(out, "hourglass_chains", {},
             quint64(q.execSingle(tr("count chains"), {}) ? q.int64(0) : 0));
    }
    // One series per engine name: the newest session of each (a restarted engine's old rows
    // would repeat its name, which the format forbids).
    std::map<QString, EngineSession> engines;
    if (const Result<QList<EngineSession>> list = EngineSessionRepository(store).list(); list)
        for (const EngineSession &e : list.value())
            if (!engines.count(e.name) || engines[e.name].heartbeatAt < e.heartbeatAt)
                engines[e.name] = e;
    const QDateTime now = QDateTime::currentDateTimeUtc();
    header(out, "hourglass_engine_up", "gauge",
           tr("1 for each engine whose lease is current, by name."));
    for (const auto &[name, e] : engines)
        line(out, "hourglass_engine_up", "{engine=\"" + label(name) + "\"}",
             EngineSessionRepository::serves(e, now, store.backend()) ? 1 : 0);
    header(out, "hourglass_engine_heartbeat_age_seconds", "gauge",
           tr("Seconds since each engine's last heartbeat."));
    for (const auto &[name, e] : engines) {
        out += "hourglass_engine_heartbeat_age_seconds{engine=\"" + label(name) + "\"} ";
        out += number(e.heartbeatAt.isValid() ? e.heartbeatAt.msecsTo(now) / 1000.0 : 0);
        out += '\n';
    }
    return out;
}

} // namespace hg
