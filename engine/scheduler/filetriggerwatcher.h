#pragma once

#include "domain/chaintrigger.h"
#include "domain/globpattern.h"
#include "filetriggerruns.h"
#include "folderscan.h"

#include <QHash>
#include <QObject>
#include <QSet>
#include <QTimer>

#include <functional>
#include <memory>

namespace hg {

class InotifyWatch;
class Store;

// One file trigger at work: its folders watched with inotify (or polled: when asked, on
// network and FUSE filesystems, past the watch limit), each file that changes followed
// until it settles — closed by every writer (or renamed into place) and the same size and
// modification time for the settle time — then handed to FileTriggerRuns. At start the
// folder is compared with what the trigger saw before: what arrived meanwhile is "missed"
// and goes through its misfire policy. A watched folder that disappears is looked for every
// second and watched again when it is back; meanwhile its trigger's note says it is gone.
// A root reached through a symbolic link is looked at every second: pointed elsewhere, the
// folder it names now is watched and compared with what the trigger saw.
class FileTriggerWatcher final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(FileTriggerWatcher)

public:
    FileTriggerWatcher(const ChainTrigger &trigger, Store &store, InotifyWatch &inotify,
                       std::function<qint64()> monotonicMs, std::function<qint64()> wallMs,
                       QObject *parent = nullptr);
    ~FileTriggerWatcher() override;

    const ChainTrigger &trigger() const { return m_trigger; }
    // Reads the snapshot, compares the folder with it, begins watching. False: the store
    // could not be read (tried again by the next reload).
    bool start();
    // From the inotify instance: a folder this trigger watches changed.
    void folderChanged(const QString &folder, const QString &name, quint32 mask);
    // Events were lost (the kernel's queue overflowed): everything is looked at again.
    void rescan();
    bool isPolling() const { return m_pollTimer.isActive(); }
    void setMissedCause(OccurrenceCause cause) { m_runs->setMissedCause(cause); }

Q_SIGNALS:
    void runsStarted(int count);
    // What the trigger's note now says ("" all is well), said once when it changes.
    void noted(qint64 triggerId, const QString &note);

private:
    struct Pending
    {
        std::optional<FileTriggerRepository::Version> last; // nullopt: not there
        qint64 changedMs = 0;                               // monotonic
        int opens = 0;         // writers (and readers) that have it open
        bool movedIn = false;  // renamed into place
        bool wentAway = false; // deleted or moved out meanwhile: what is there now is new
        bool missed = false;   // changed while no engine watched
    };

    bool takeBaseline(const FolderScan::Found &found);
    void watchFolders(const QStringList &folders);
    void releaseFolders(const QString &under);
    // Adds what differs from the snapshot to the files followed.
    void compare(const FolderScan::Found &found, bool missed, const QString &under = QString());
    void follow(const QString &path, const std::optional<FileTriggerRepository::Version> &now,
                bool missed);
    void settle();
    void armSettle();
    void lookForRoot(); // the root folder is gone or unreadable: is it back?
    void rootLost(FolderScan::RootState state);
    // The root reached through a symbolic link: is it still the same folder?
    void followRootTarget();
    void checkRootTarget();
    void poll();
    void setNote(const QString &note);
    void sayUndecodable(const FolderScan::Found &found);
    QString relativeOf(const QString &path) const;
    // Polling chosen by itself: the filesystem's name when inotify cannot see it.
    static QString remoteFilesystem(const QString &folder);

    ChainTrigger m_trigger;
    GlobPattern m_glob;
    Store &m_store;
    InotifyWatch &m_inotify;
    std::function<qint64()> m_monotonicMs;
    std::unique_ptr<FileTriggerRuns> m_runs;
    QHash<QString, Pending> m_pending;
    QSet<QString> m_watched; // folders watched with inotify
    QTimer m_settleTimer;
    QTimer m_pollTimer;
    QTimer m_rootTimer;
    QTimer m_linkTimer;
    QString m_rootTarget; // the root's canonical path when watched
    qint64 m_pollMs = 0;
    bool m_rootPresent = false;
    bool m_needsBaseline = false; // never looked at: the first look takes a baseline
    QString m_note;
};

} // namespace hg
