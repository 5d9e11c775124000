#include "filetriggerwatcher.h"

#include "inotifywatch.h"
#include "store/chaintriggerrepository.h"
#include "store/store.h"

#include <QFile>
#include <QFileInfo>

#include <cerrno>
#include <climits>
#include <sys/inotify.h>
#include <sys/vfs.h>

namespace hg {
namespace {

constexpr int rootLookMs = 1000;

} // namespace

FileTriggerWatcher::FileTriggerWatcher(const ChainTrigger &trigger, Store &store,
                                       InotifyWatch &inotify, std::function<qint64()> monotonicMs,
                                       std::function<qint64()> wallMs, QObject *parent)
    : QObject(parent)
    , m_trigger(trigger)
    , m_glob(trigger.file.glob)
    , m_store(store)
    , m_inotify(inotify)
    , m_monotonicMs(monotonicMs)
    , m_runs(std::make_unique<FileTriggerRuns>(trigger, store, monotonicMs, std::move(wallMs)))
    , m_note(trigger.watchNote)
{
    m_settleTimer.setSingleShot(true);
    connect(&m_settleTimer, &QTimer::timeout, this, &FileTriggerWatcher::settle);
    connect(&m_pollTimer, &QTimer::timeout, this, &FileTriggerWatcher::poll);
    connect(&m_rootTimer, &QTimer::timeout, this, &FileTriggerWatcher::lookForRoot);
    connect(&m_linkTimer, &QTimer::timeout, this, &FileTriggerWatcher::checkRootTarget);
    connect(m_runs.get(), &FileTriggerRuns::runsStarted, this, &FileTriggerWatcher::runsStarted);
}

FileTriggerWatcher::~FileTriggerWatcher()
{
    for (const QString &folder : std::as_const(m_watched))
        m_inotify.release(folder);
}

QString FileTriggerWatcher::remoteFilesystem(const QString &folder)
{
    struct statfs fs
    {
    };
    if (::statfs(QFile::encodeName(folder).constData(), &fs) != 0)
        return {};
    switch (static_cast<unsigned long>(fs.f_type)) {
    case 0x6969UL:
        return QStringLiteral("NFS");
    case 0x517BUL:
        return QStringLiteral("SMB");
    case 0xFF534D42UL:
        return QStringLiteral("CIFS");
    case 0xFE534D42UL:
        return QStringLiteral("SMB2");
    case 0x65735546UL:
        return QStringLiteral("FUSE");
    case 0x01021997UL:
        return QStringLiteral("9P");
    case 0x00C36400UL:
        return QStringLiteral("Ceph");
    default:
        return {};
    }
}

bool FileTriggerWatcher::start()
{
    FileTriggerRepository repository(m_store);
    const auto seen = repository.seen(m_trigger.id);
    const auto baseline = repository.baselineAt(m_trigger.id);
    if (!seen || !baseline)
        return false;
    m_runs->load(seen.value());
    m_needsBaseline = !baseline.value();
    m_pollMs = m_trigger.file.pollMs;
    const QString remote = remoteFilesystem(m_glob.root());
    if (m_pollMs == 0 && !remote.isEmpty())
        m_pollMs = FileTriggerSpec::autoPollMs;
    // The root is watched before it is read: what arrives in between is seen twice at most.
    if (m_pollMs == 0)
        watchFolders({m_glob.root()});
    const FolderScan::Found found = FolderScan::scan(m_glob);
    if (found.root != FolderScan::RootState::Present) {
        rootLost(found.root);
        return true;
    }
    m_rootPresent = true;
    if (m_pollMs == 0) {
        watchFolders(found.folders);
        followRootTarget();
    }
    if (m_pollMs > 0) {
        m_pollTimer.start(int(m_pollMs));
        if (m_trigger.file.pollMs == 0)
            setNote(remote.isEmpty()
                        ? tr("polled every %1 s: inotify's watch limit is reached "
                             "(fs.inotify.max_user_watches)")
                              .arg(m_pollMs / 1000)
                        : tr("polled every %1 s: %2 is on %3, where inotify sees no changes "
                             "made on other machines")
                              .arg(m_pollMs / 1000)
                              .arg(m_glob.root().left(300), remote));
    }
    if (m_trigger.file.pollMs > 0 || m_pollMs == 0)
        setNote(QString());
    sayUndecodable(found);
    if (m_needsBaseline) {
        if (!takeBaseline(found))
            return false;
    } else {
        compare(found, true);
    }
    armSettle();
    return true;
}

bool FileTriggerWatcher::takeBaseline(const FolderScan::Found &found)
{
    // First look: what is there now was there before the trigger; no run for it.
    if (!FileTriggerRepository(m_store).takeBaseline(m_trigger.id, found.files,
                                                     QDateTime::currentMSecsSinceEpoch()))
        return false;
    QHash<QString, FileTriggerRepository::Seen> first;
    for (const FileTriggerRepository::Version &file : found.files)
        first.insert(file.path, {file, std::nullopt});
    m_runs->load(first);
    m_needsBaseline = false;
    return true;
}

void FileTriggerWatcher::watchFolders(const QStringList &folders)
{
    for (const QString &folder : folders) {
        if (m_pollMs > 0)
            return;
        if (m_watched.contains(folder))
            continue;
        const InotifyWatch::Added added = m_inotify.add(folder);
        switch (added) {
        case InotifyWatch::Added::Watched:
            m_watched.insert(folder);
            break;
        case InotifyWatch::Added::LimitReached:
        case InotifyWatch::Added::Failed: {
            // Every folder polled from now on: a trigger half watched would miss arrivals.
            const int why = errno; // what inotify_add_watch said, for a failure not the limit
            releaseFolders(QString());
            m_pollMs = FileTriggerSpec::autoPollMs;
            if (m_rootPresent)
                m_pollTimer.start(int(m_pollMs));
            if (added == InotifyWatch::Added::LimitReached)
                setNote(tr("polled every %1 s: inotify's watch limit is reached "
                           "(fs.inotify.max_user_watches)")
                            .arg(m_pollMs / 1000));
            else
                setNote(tr("polled every %1 s: inotify cannot watch %2 (%3)")
                            .arg(m_pollMs / 1000)
                            .arg(folder.left(300), qt_error_string(why)));
            return;
        }
        case InotifyWatch::Added::Denied:
            setNote(tr("no permission to read the folder %1").arg(folder.left(300)));
            break;
        case InotifyWatch::Added::Missing:
            break; // gone again already; its parent's event says so
        }
    }
}

void FileTriggerWatcher::releaseFolders(const QString &under)
{
    for (auto folder = m_watched.begin(); folder != m_watched.end();) {
        if (under.isEmpty() || *folder == under || folder->startsWith(under + QLatin1Char('/'))) {
            m_inotify.release(*folder);
            folder = m_watched.erase(folder);
        } else {
            ++folder;
        }
    }
}

QString FileTriggerWatcher::relativeOf(const QString &path) const
{
    const QString &root = m_glob.root();
    return root == QLatin1String("/") ? path.mid(1) : path.mid(root.size() + 1);
}

void FileTriggerWatcher::follow(const QString &path,
                                const std::optional<FileTriggerRepository::Version> &now,
                                bool missed)
{
    Pending &pending = m_pending[path];
    pending.last = now;
    pending.changedMs = m_monotonicMs();
    pending.missed = pending.missed || missed;
    // Unchanged for the settle time already (its modification time says so): due now.
    if (now && QDateTime::currentMSecsSinceEpoch() - now->mtimeMs >= m_trigger.file.settleMs)
        pending.changedMs -= m_trigger.file.settleMs;
}

void FileTriggerWatcher::compare(const FolderScan::Found &found, bool missed, const QString &under)
{
    const QHash<QString, FileTriggerRepository::Seen> &seen = m_runs->seen();
    QSet<QString> present;
    present.reserve(found.files.size());
    for (const FileTriggerRepository::Version &file : found.files) {
        present.insert(file.path);
        if (m_pending.contains(file.path))
            continue;
        const auto known = seen.constFind(file.path);
        if (known == seen.cend() || known->version != file)
            follow(file.path, file, missed);
    }
    const QString prefix =
        under.isEmpty() ? QString() : FolderScan::join(m_glob.root(), under) + QLatin1Char('/');
    for (auto known = seen.cbegin(); known != seen.cend(); ++known) {
        if (!prefix.isEmpty() && !known.key().startsWith(prefix))
            continue;
        if (known->waiting == FileEvent::Deleted || present.contains(known.key())
            || m_pending.contains(known.key()))
            continue;
        follow(known.key(), std::nullopt, missed);
    }
}

void FileTriggerWatcher::folderChanged(const QString &folder, const QString &name, quint32 mask)
{
    if (!m_watched.contains(folder))
        return;
    if (name.isEmpty()) {
        // Events of the folder itself: its reading (a scan opens it) is none of ours.
        if (!(mask & (IN_DELETE_SELF | IN_MOVE_SELF)))
            return;
        // The folder itself went away (renamed: its watch would follow it elsewhere).
        releaseFolders(folder);
        if (folder == m_glob.root()) {
            rootLost(FolderScan::RootState::Missing);
            return;
        }
        compare(FolderScan::scan(m_glob, relativeOf(folder)), false, relativeOf(folder));
        armSettle();
        return;
    }
    const QString path = FolderScan::join(folder, name);
    const QString relative = relativeOf(path);
    if (mask & IN_ISDIR) {
        // A subfolder opened or closed (a scan reads it) is no change of what it holds.
        if (!(mask & (IN_CREATE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE)))
            return;
        if (mask & (IN_MOVED_FROM | IN_DELETE))
            releaseFolders(path);
        if (m_glob.mayContain(relative)) {
            // A folder made or moved in (files may be in it before its watch), or gone.
            const FolderScan::Found found = FolderScan::scan(m_glob, relative);
            watchFolders(found.folders);
            compare(found, false, relative);
            armSettle();
        }
        return;
    }
    if (!m_glob.matches(relative))
        return;
    if (name.contains(QChar(QChar::ReplacementCharacter))) {
        // Perhaps a name that is not UTF-8, which no string of Qt's names again: said.
        sayUndecodable(FolderScan::scan(m_glob, relativeOf(folder)));
        return;
    }
    const bool known = m_pending.contains(path);
    Pending &pending = m_pending[path];
    if (!known)
        pending.last = FolderScan::stat(path);
    if (mask & IN_OPEN) {
        ++pending.opens;
    } else if (mask & IN_MODIFY) {
        pending.opens = std::max(pending.opens, 1); // opened before the watch began
        pending.changedMs = m_monotonicMs();
    } else if (mask & IN_CLOSE_NOWRITE) {
        pending.opens = std::max(0, pending.opens - 1);
    } else {
        if (mask & (IN_CLOSE_WRITE))
            pending.opens = std::max(0, pending.opens - 1);
        if (mask & (IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE))
            pending.opens = 0;
        if (mask & (IN_MOVED_FROM | IN_DELETE))
            pending.wentAway = true;
        if (mask & IN_MOVED_TO)
            pending.movedIn = true;
        if (known)
            pending.last = FolderScan::stat(path);
        pending.changedMs = m_monotonicMs();
    }
    if (!known && !(mask & IN_MODIFY) && pending.changedMs == 0)
        pending.changedMs = m_monotonicMs();
    if (pending.opens == 0 && !m_settleTimer.isActive())
        m_settleTimer.start(int(m_trigger.file.settleMs));
}

void FileTriggerWatcher::settle()
{
    const qint64 now = m_monotonicMs();
    const QHash<QString, FileTriggerRepository::Seen> &seen = m_runs->seen();
    QList<FileTriggerRuns::Settled> settled;
    QStringList done;
    bool missedLeft = false;
    bool missedDone = false;
    for (auto it = m_pending.begin(); it != m_pending.end(); ++it) {
        Pending &pending = it.value();
        if (pending.opens > 0 || now - pending.changedMs < m_trigger.file.settleMs) {
            missedLeft = missedLeft || pending.missed;
            continue;
        }
        const std::optional<FileTriggerRepository::Version> current = FolderScan::stat(it.key());
        if (current != pending.last) {
            pending.last = current;
            pending.changedMs = now;
            missedLeft = missedLeft || pending.missed;
            continue;
        }
        done << it.key();
        missedDone = missedDone || pending.missed;
        const auto known = seen.constFind(it.key());
        const bool wasSeen = known != seen.cend() && known->waiting != FileEvent::Deleted;
        if (!current) {
            if (wasSeen)
                settled << FileTriggerRuns::Settled{known->version, FileEvent::Deleted,
                                                    pending.missed};
        } else if (!wasSeen || (pending.wentAway && !pending.movedIn)
                   || known->version.inode != current->inode) {
            // Removed and written again (`rm out.csv; produce > out.csv`), even within the
            // settle time and under a reused inode, is a new file, not a change of the old.
            if (wasSeen && known->version == *current)
                continue; // the very same version back (moved out and in again)
            settled << FileTriggerRuns::Settled{
                *current, pending.movedIn ? FileEvent::Moved : FileEvent::Created, pending.missed};
        } else if (known->version != *current) {
            settled << FileTriggerRuns::Settled{
                *current, pending.movedIn ? FileEvent::Moved : FileEvent::Modified, pending.missed};
        }
    }
    if ((!settled.isEmpty() || (missedDone && !missedLeft)) && !m_runs->take(settled, missedLeft)) {
        // The store refused (gone for now): the same files are looked at again later.
        for (const QString &path : std::as_const(done))
            m_pending[path].changedMs = now;
        m_settleTimer.start(int(std::max<qint64>(m_trigger.file.settleMs, rootLookMs)));
        return;
    }
    for (const QString &path : std::as_const(done))
        m_pending.remove(path);
    armSettle();
}

void FileTriggerWatcher::armSettle()
{
    const qint64 now = m_monotonicMs();
    qint64 earliest = -1;
    for (const Pending &pending : std::as_const(m_pending)) {
        if (pending.opens > 0)
            continue;
        const qint64 due = pending.changedMs + m_trigger.file.settleMs;
        earliest = earliest < 0 ? due : std::min(earliest, due);
    }
    if (earliest < 0)
        m_settleTimer.stop();
    else
        m_settleTimer.start(int(std::clamp<qint64>(earliest - now, 0, m_trigger.file.settleMs)));
}

void FileTriggerWatcher::rootLost(FolderScan::RootState state)
{
    releaseFolders(QString());
    m_pollTimer.stop();
    m_linkTimer.stop();
    m_rootPresent = false;
    const QString root = m_glob.root().left(300);
    setNote(state == FolderScan::RootState::Denied
                ? tr("no permission to read the folder %1").arg(root)
            : QFileInfo::exists(m_glob.root())
                ? tr("%1 is not a folder; watched again when it is one").arg(root)
                : tr("the folder %1 is gone; watched again when it is back").arg(root));
    if (state == FolderScan::RootState::Missing) {
        // Its files went with it: each a deletion, for a trigger that wants those.
        compare(FolderScan::Found{}, false);
        armSettle();
    }
    m_rootTimer.start(rootLookMs);
}

void FileTriggerWatcher::lookForRoot()
{
    if (m_pollMs == 0)
        watchFolders({m_glob.root()});
    const FolderScan::Found found = FolderScan::scan(m_glob);
    if (found.root != FolderScan::RootState::Present) {
        releaseFolders(QString());
        return;
    }
    if (m_needsBaseline && !takeBaseline(found))
        return; // the store is away: the next look tries again
    m_rootTimer.stop();
    m_rootPresent = true;
    if (m_pollMs == 0) {
        watchFolders(found.folders);
        followRootTarget();
    } else
        m_pollTimer.start(int(m_pollMs));
    if (m_pollMs == 0 || m_trigger.file.pollMs > 0)
        setNote(QString());
    sayUndecodable(found);
    compare(found, false);
    armSettle();
}

void FileTriggerWatcher::followRootTarget()
{
    // inotify watches the folder a symbolic link named when the watch was made: a link
    // pointed elsewhere (`ln -sfn new in`, a release swap) would leave the trigger deaf to
    // the folder its path now names. Only a root reached through a link pays this look.
    m_rootTarget = QFileInfo(m_glob.root()).canonicalFilePath();
    if (!m_rootTarget.isEmpty() && m_rootTarget != m_glob.root())
        m_linkTimer.start(rootLookMs);
    else
        m_linkTimer.stop();
}

void FileTriggerWatcher::checkRootTarget()
{
    if (QFileInfo(m_glob.root()).canonicalFilePath() == m_rootTarget)
        return;
    // Another folder now: watched afresh, and compared with what the trigger saw.
    m_linkTimer.stop();
    releaseFolders(QString());
    m_rootPresent = false;
    lookForRoot();
    if (!m_rootPresent)
        rootLost(FolderScan::scan(m_glob).root);
}

void FileTriggerWatcher::poll()
{
    const FolderScan::Found found = FolderScan::scan(m_glob);
    if (found.root != FolderScan::RootState::Present) {
        rootLost(found.root);
        return;
    }
    compare(found, false);
    armSettle();
}

void FileTriggerWatcher::rescan()
{
    if (!m_rootPresent)
        return;
    for (Pending &pending : m_pending)
        pending.opens = 0; // closes may be among what was lost
    const FolderScan::Found found = FolderScan::scan(m_glob);
    if (found.root != FolderScan::RootState::Present) {
        rootLost(found.root);
        return;
    }
    watchFolders(found.folders);
    sayUndecodable(found);
    compare(found, false);
    armSettle();
}

void FileTriggerWatcher::sayUndecodable(const FolderScan::Found &found)
{
    // Said, not silently passed over; a later look that finds none leaves the note until
    // the next change of state clears it.
    if (found.undecodable > 0)
        setNote(tr("%n file name(s) here are not UTF-8 and cannot start a run (%1); rename "
                   "them",
                   nullptr, found.undecodable)
                    .arg(found.undecodableExamples.join(QStringLiteral(", "))));
    else if (found.tooLong > 0)
        setNote(tr("%n path(s) here are longer than the system allows (%1 bytes) and cannot "
                   "start a run (%2)",
                   nullptr, found.tooLong)
                    .arg(PATH_MAX)
                    .arg(found.tooLongExample));
}

void FileTriggerWatcher::setNote(const QString &note)
{
    if (note == m_note)
        return;
    m_note = note;
    (void)ChainTriggerRepository(m_store).setWatchNote(m_trigger.id, note);
    Q_EMIT noted(m_trigger.id, note);
}

} // namespace hg
