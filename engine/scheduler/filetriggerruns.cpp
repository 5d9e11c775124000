#include "filetriggerruns.h"

#include "store/store.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QDir>
#include <QDirIterator>
#include <QSaveFile>
#include <QStandardPaths>

#include <sys/stat.h>

namespace hg {
namespace {

constexpr qint64 guardWindowMs = qint64(60) * 1000;
constexpr qint64 retryMs = 1000;
constexpr qint64 listsKeptMs = qint64(30) * 24 * 3600 * 1000;

QString eventKey(const FileTriggerRuns::Settled &settled)
{
    const QString key = settled.version.key();
    return settled.event == FileEvent::Deleted ? QStringLiteral("deleted|") + key : key;
}

// One path a line; a control character in a name (a newline would split it) is written as
// a backslash escape, as `ls -b` does.
QByteArray listLine(const QString &path)
{
    QByteArray line;
    for (const char c : path.toUtf8()) {
        if (c == '\\')
            line += "\\\\";
        else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
            line += QByteArrayLiteral("\\x")
                    + QByteArray::number(static_cast<unsigned char>(c), 16).rightJustified(2, '0');
        else
            line += c;
    }
    return line + '\n';
}

} // namespace

FileTriggerRuns::FileTriggerRuns(const ChainTrigger &trigger, Store &store,
                                 std::function<qint64()> monotonicMs,
                                 std::function<qint64()> wallMs, QObject *parent)
    : QObject(parent)
    , m_trigger(trigger)
    , m_store(store)
    , m_monotonicMs(std::move(monotonicMs))
    , m_wallMs(std::move(wallMs))
{
    m_flushTimer.setSingleShot(true);
    connect(&m_flushTimer, &QTimer::timeout, this, [this] {
        if (!flush())
            m_flushTimer.start(int(retryMs));
    });
}

QString FileTriggerRuns::listFolder()
{
    return QStandardPaths::writableLocation(QStandardPaths::GenericDataLocation)
           + QLatin1String("/hourglass/trigger-lists");
}

void FileTriggerRuns::load(const QHash<QString, FileTriggerRepository::Seen> &seen)
{
    m_seen = seen;
    for (const FileTriggerRepository::Seen &row : seen)
        if (row.waiting) {
            // Gathered before the engine stopped: they go into the first run now.
            m_waitingMissed = true;
            ++m_gatheredByGuard;
        }
    if (m_trigger.file.batchMs > 0)
        m_batchOpenedMs = m_monotonicMs();
    // Lists of runs a month old are history: their runs have long read them.
    QDirIterator old(listFolder(), {QStringLiteral("trigger-*")}, QDir::Files);
    const QDateTime before = QDateTime::fromMSecsSinceEpoch(m_wallMs() - listsKeptMs);
    while (old.hasNext()) {
        old.next();
        if (old.fileInfo().lastModified() < before)
            QFile::remove(old.filePath());
    }
    armFlush();
}

bool FileTriggerRuns::guardFull() const
{
    const int most = m_trigger.file.maxPerMinute;
    if (most <= 0)
        return false;
    const qint64 since = m_monotonicMs() - guardWindowMs;
    qsizetype recent = 0;
    for (const qint64 at : m_recentStarts)
        recent += at > since ? 1 : 0;
    return recent >= most;
}

qint64 FileTriggerRuns::guardOpensInMs() const
{
    const qint64 now = m_monotonicMs();
    const int most = m_trigger.file.maxPerMinute;
    // The run that must leave the window before another may start.
    const qsizetype recent = qsizetype(m_recentStarts.size());
    if (most <= 0 || recent < most)
        return 0;
    return std::max<qint64>(0, m_recentStarts.at(size_t(recent - most)) + guardWindowMs - now);
}

void FileTriggerRuns::noteStarted(int count)
{
    const qint64 now = m_monotonicMs();
    for (int i = 0; i < count; ++i)
        m_recentStarts.push_back(now);
    while (!m_recentStarts.empty() && m_recentStarts.front() <= now - guardWindowMs)
        m_recentStarts.pop_front();
    if (count > 0)
        Q_EMIT runsStarted(count);
}

bool FileTriggerRuns::take(const QList<Settled> &settled, bool missedStillSettling)
{
    const FileTriggerSpec &spec = m_trigger.file;
    FileTriggerRepository::Change change;
    bool waiting = std::any_of(m_seen.cbegin(), m_seen.cend(),
                               [](const FileTriggerRepository::Seen &s) { return s.waiting; });
    qint64 byGuard = 0;
    bool missed = false;
    bool batchOpened = false;
    int startsAllowed = std::numeric_limits<int>::max();
    if (spec.maxPerMinute > 0) {
        const qint64 since = m_monotonicMs() - guardWindowMs;
        startsAllowed = spec.maxPerMinute
                        - int(std::count_if(m_recentStarts.cbegin(), m_recentStarts.cend(),
                                            [since](qint64 at) { return at > since; }));
    }
    QList<FileTriggerRepository::Seen> skipped; // misfire skip: noted, and in the ledger
    QList<FileTriggerRepository::Seen> asked;   // misfire ask: held for the inbox
    for (const Settled &s : settled) {
        const auto known = m_seen.constFind(s.version.path);
        const std::optional<FileEvent> alreadyWaiting =
            known == m_seen.cend() ? std::nullopt : known->waiting;
        FileTriggerRepository::Seen row{s.version, alreadyWaiting};
        const auto missedBy = [&](MisfirePolicy policy) {
            return s.missed && spec.misfire == policy && spec.wants(s.event) && !alreadyWaiting;
        };
        if (missedBy(MisfirePolicy::Skip))
            skipped << FileTriggerRepository::Seen{s.version, s.event};
        if (missedBy(MisfirePolicy::Ask)) {
            asked << FileTriggerRepository::Seen{s.version, s.event};
            if (s.event == FileEvent::Deleted)
                change.forgotten << s.version.path;
            else
                change.seen << row;
            continue;
        }
        const bool wanted =
            spec.wants(s.event) && !(s.missed && spec.misfire == MisfirePolicy::Skip);
        if (!wanted || alreadyWaiting) {
            // Noted only, or already waiting for the next run (as the version it has now).
            if (s.event == FileEvent::Deleted && !alreadyWaiting)
                change.forgotten << s.version.path;
            else
                change.seen << row;
            continue;
        }
        const bool gather = spec.batchMs > 0 || (s.missed && spec.misfire == MisfirePolicy::Once);
        if (!gather && !waiting && startsAllowed > 0) {
            QJsonObject parameters{{QStringLiteral("trigger.path"), s.version.path},
                                   {QStringLiteral("trigger.event"), enumName(s.event)}};
            if (s.missed)
                parameters.insert(QStringLiteral("trigger.missed"), QStringLiteral("1"));
            change.runs << FileTriggerRepository::RunStart{eventKey(s), parameters};
            --startsAllowed;
            if (s.event == FileEvent::Deleted)
                change.forgotten << s.version.path;
            else
                change.seen << row;
            continue;
        }
        row.waiting = s.event;
        change.seen << row;
        waiting = true;
        missed = missed || s.missed;
        byGuard += gather ? 0 : 1;
        batchOpened = batchOpened || spec.batchMs > 0;
    }
    if (!asked.isEmpty()) {
        change.ledger = ledgerRow(asked, OccurrenceOutcome::Missed, m_missedCause);
        change.ledger->inbox = InboxState::Pending;
        change.held = asked;
    } else if (!skipped.isEmpty()) {
        change.ledger = ledgerRow(skipped, OccurrenceOutcome::SkippedMisfire, m_missedCause);
    }
    const Result<QList<qint64>> started =
        FileTriggerRepository(m_store).apply(m_trigger.id, m_trigger.chainId, change, m_wallMs());
    if (!started)
        return false;
    for (const FileTriggerRepository::Seen &row : std::as_const(change.seen))
        m_seen.insert(row.version.path, row);
    for (const QString &path : std::as_const(change.forgotten))
        m_seen.remove(path);
    m_gatheredByGuard += byGuard;
    m_waitingMissed = m_waitingMissed || missed;
    if (batchOpened && m_batchOpenedMs < 0)
        m_batchOpenedMs = m_monotonicMs();
    m_holdForMissed = missedStillSettling && spec.misfire == MisfirePolicy::Once;
    noteStarted(int(started->size()));
    armFlush();
    return true;
}

void FileTriggerRuns::armFlush()
{
    const bool waiting =
        std::any_of(m_seen.cbegin(), m_seen.cend(),
                    [](const FileTriggerRepository::Seen &s) { return s.waiting; });
    if (!waiting || m_holdForMissed) {
        m_flushTimer.stop();
        return;
    }
    qint64 delay = guardOpensInMs();
    if (m_trigger.file.batchMs > 0 && m_batchOpenedMs >= 0)
        delay = std::max(delay, m_batchOpenedMs + m_trigger.file.batchMs - m_monotonicMs());
    m_flushTimer.start(int(std::clamp<qint64>(delay, 0, qint64(24) * 3600 * 1000)));
}

bool FileTriggerRuns::flush()
{
    if (guardFull()) {
        armFlush();
        return true;
    }
    QList<FileTriggerRepository::Seen> files;
    for (const FileTriggerRepository::Seen &row : std::as_const(m_seen))
        if (row.waiting)
            files << row;
    if (files.isEmpty())
        return true;
    std::sort(files.begin(), files.end(),
              [](const auto &a, const auto &b) { return a.version.path < b.version.path; });
    const FileTriggerRepository::Seen &first = files.constFirst();
    const QString key = QStringLiteral("batch|") + first.version.key();
    const QString list = writeList(m_trigger.id, files, key);
    if (list.isEmpty())
        return false;
    QJsonObject parameters{{QStringLiteral("trigger.path"), first.version.path},
                           {QStringLiteral("trigger.event"), enumName(*first.waiting)},
                           {QStringLiteral("trigger.paths"), list},
                           {QStringLiteral("trigger.count"), QString::number(files.size())}};
    if (m_gatheredByGuard > 0)
        parameters.insert(QStringLiteral("trigger.gathered"),
                          QString::number(std::min<qint64>(m_gatheredByGuard, files.size())));
    if (m_waitingMissed)
        parameters.insert(QStringLiteral("trigger.missed"), QStringLiteral("1"));
    FileTriggerRepository::Change change;
    change.runs << FileTriggerRepository::RunStart{key, parameters};
    // The run stands for its first file; the others were gathered into it.
    if (files.size() > 1)
        change.ledger = ledgerRow(files.mid(1), OccurrenceOutcome::Coalesced,
                                  m_trigger.file.batchMs > 0 ? OccurrenceCause::Batch
                                  : m_gatheredByGuard > 0    ? OccurrenceCause::StormGuard
                                                             : m_missedCause);
    for (FileTriggerRepository::Seen row : std::as_const(files)) {
        if (*row.waiting == FileEvent::Deleted) {
            change.forgotten << row.version.path;
            continue;
        }
        row.waiting.reset();
        change.seen << row;
    }
    const Result<QList<qint64>> started =
        FileTriggerRepository(m_store).apply(m_trigger.id, m_trigger.chainId, change, m_wallMs());
    if (!started)
        return false;
    for (const FileTriggerRepository::Seen &row : std::as_const(change.seen))
        m_seen.insert(row.version.path, row);
    for (const QString &path : std::as_const(change.forgotten))
        m_seen.remove(path);
    m_batchOpenedMs = -1;
    m_gatheredByGuard = 0;
    m_waitingMissed = false;
    noteStarted(int(started->size()));
    return true;
}

Occurrence FileTriggerRuns::ledgerRow(const QList<FileTriggerRepository::Seen> &files,
                                      OccurrenceOutcome outcome, OccurrenceCause cause)
{
    Occurrence row;
    row.outcome = outcome;
    row.cause = cause;
    row.count = files.size();
    row.firstFireMs = std::numeric_limits<qint64>::max();
    row.lastFireMs = std::numeric_limits<qint64>::min();
    for (const FileTriggerRepository::Seen &file : files) {
        row.firstFireMs = std::min(row.firstFireMs, file.version.mtimeMs);
        row.lastFireMs = std::max(row.lastFireMs, file.version.mtimeMs);
    }
    row.detail = FileTriggerRepository::describe(files);
    return row;
}

QString FileTriggerRuns::writeList(qint64 triggerId,
                                   const QList<FileTriggerRepository::Seen> &files,
                                   const QString &key)
{
    const QString folder = listFolder();
    if (!QDir().mkpath(folder))
        return {};
    ::chmod(QFile::encodeName(folder).constData(), 0700);
    const QString name = QStringLiteral("%1/trigger-%2-%3.txt")
                             .arg(folder)
                             .arg(triggerId)
                             .arg(QString::fromLatin1(
                                 QCryptographicHash::hash(key.toUtf8(), QCryptographicHash::Sha256)
                                     .toHex()
                                     .left(20)));
    QSaveFile out(name);
    if (!out.open(QIODevice::WriteOnly))
        return {};
    ::fchmod(out.handle(), 0600); // the names of a user's files are the user's
    for (const FileTriggerRepository::Seen &row : files)
        out.write(listLine(row.version.path));
    return out.commit() ? name : QString();
}

} // namespace hg
