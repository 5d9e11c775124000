#include "elsewherewatch.h"

#include "store/logrepository.h"
#include "store/store.h"
#include "store/taskrunrepository.h"

namespace hg {
namespace {

constexpr int lookDelayMs = 200;   // notifications within it make one look
constexpr int linesPerLook = 2000; // more: read again at once
// Lines are numbered when inserted but seen when committed: one numbered just before the
// last seen may still appear. So the last ids are read again, and the told ones skipped.
constexpr qint64 lineOverlap = 500;
constexpr qsizetype toldAttemptsBound = 100000;

bool sameAttempt(const TaskRun &a, const TaskRun &b)
{
    return a.state == b.state && a.pid == b.pid && a.exitCode == b.exitCode
           && a.startedAt == b.startedAt && a.finishedAt == b.finishedAt && a.error == b.error;
}

} // namespace

ElsewhereWatch::ElsewhereWatch(Store &store, std::function<qint64()> sessionId, QObject *parent)
    : QObject(parent)
    , m_store(store)
    , m_sessionId(std::move(sessionId))
{
    m_timer.setSingleShot(true);
    m_timer.setInterval(lookDelayMs);
    connect(&m_timer, &QTimer::timeout, this, &ElsewhereWatch::look);
}

ElsewhereWatch::~ElsewhereWatch() = default;

void ElsewhereWatch::start()
{
    if (const Result<qint64> last = LogRepository(m_store).lastId())
        m_linesSeenUpTo = last.value();
}

void ElsewhereWatch::attemptsChanged()
{
    m_attempts = true;
    if (!m_timer.isActive())
        m_timer.start();
}

void ElsewhereWatch::linesWritten()
{
    m_lines = true;
    if (!m_timer.isActive())
        m_timer.start();
}

void ElsewhereWatch::runEnded(qint64 runId)
{
    m_ended.insert(runId);
    attemptsChanged();
    linesWritten();
}

void ElsewhereWatch::look()
{
    if (!m_store.isReachable())
        return; // told again by the next notification after the store is back
    const QList<qint64> ended = m_ended.values();
    bool allRead = true;
    if (std::exchange(m_attempts, false))
        lookAtAttempts(ended);
    if (std::exchange(m_lines, false))
        allRead = lookAtLines(ended);
    m_ended.clear();
    if (!allRead)
        linesWritten();
}

void ElsewhereWatch::lookAtAttempts(const QList<qint64> &ended)
{
    const Result<QList<TaskRun>> attempts =
        TaskRunRepository(m_store).listElsewhere(m_sessionId(), ended);
    if (!attempts)
        return; // a window misses a live update; reading the run again shows it
    if (m_toldAttempts.size() > toldAttemptsBound)
        m_toldAttempts.clear(); // a bound; at worst an attempt is told twice
    for (const TaskRun &attempt : attempts.value()) {
        auto told = m_toldAttempts.find(attempt.id);
        if (told != m_toldAttempts.end() && sameAttempt(told.value(), attempt))
            continue;
        m_toldAttempts.insert(attempt.id, attempt);
        Q_EMIT taskRunChanged(attempt);
    }
}

bool ElsewhereWatch::lookAtLines(const QList<qint64> &ended)
{
    const qint64 from = std::max<qint64>(0, m_linesSeenUpTo - lineOverlap);
    const Result<QList<LogLine>> read =
        LogRepository(m_store).readElsewhere(from, m_sessionId(), ended, linesPerLook);
    if (!read)
        return true;
    QList<LogLine> fresh;
    for (const LogLine &line : read.value()) {
        if (m_toldLines.contains(line.id))
            continue;
        m_toldLines.insert(line.id);
        m_linesSeenUpTo = std::max(m_linesSeenUpTo, line.id);
        fresh << line;
    }
    m_toldLines.removeIf([this](qint64 id) { return id <= m_linesSeenUpTo - lineOverlap; });
    if (!fresh.isEmpty())
        Q_EMIT logLinesWritten(fresh);
    return read->size() < linesPerLook;
}

} // namespace hg
