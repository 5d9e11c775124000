#include "inotifywatch.h"

#include <QFile>
#include <QSocketNotifier>

#include <cerrno>
#include <sys/inotify.h>
#include <unistd.h>

namespace hg {
namespace {

// IN_OPEN and the closes tell a file still being written; IN_ATTRIB a touch or chmod.
constexpr quint32 watchedEvents = IN_CREATE | IN_OPEN | IN_MODIFY | IN_CLOSE_WRITE
                                  | IN_CLOSE_NOWRITE | IN_MOVED_FROM | IN_MOVED_TO | IN_DELETE
                                  | IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR;

} // namespace

InotifyWatch::InotifyWatch(QObject *parent)
    : QObject(parent)
    , m_fd(inotify_init1(IN_NONBLOCK | IN_CLOEXEC))
{
    if (m_fd < 0)
        return;
    m_notifier = std::make_unique<QSocketNotifier>(m_fd, QSocketNotifier::Read);
    connect(m_notifier.get(), &QSocketNotifier::activated, this, &InotifyWatch::readEvents);
}

InotifyWatch::~InotifyWatch()
{
    m_notifier.reset();
    if (m_fd >= 0)
        ::close(m_fd);
}

InotifyWatch::Added InotifyWatch::add(const QString &folder)
{
    if (m_fd < 0)
        return Added::Failed;
    if (m_watchOf.contains(folder)) {
        ++m_uses[folder];
        return Added::Watched;
    }
    const int wd = inotify_add_watch(m_fd, QFile::encodeName(folder).constData(), watchedEvents);
    if (wd < 0) {
        switch (errno) {
        case ENOSPC:
            return Added::LimitReached;
        case EACCES:
            return Added::Denied;
        case ENOENT:
        case ENOTDIR:
            return Added::Missing;
        default:
            return Added::Failed;
        }
    }
    // A folder renamed and another made in its place may share a descriptor for a moment.
    if (const QString old = m_folderOf.value(wd); !old.isEmpty() && old != folder) {
        m_watchOf.remove(old);
        m_uses.remove(old);
    }
    m_watchOf.insert(folder, wd);
    m_folderOf.insert(wd, folder);
    m_uses[folder] = 1;
    return Added::Watched;
}

void InotifyWatch::release(const QString &folder)
{
    const auto uses = m_uses.find(folder);
    if (uses == m_uses.end() || --uses.value() > 0)
        return;
    m_uses.erase(uses);
    const int wd = m_watchOf.take(folder);
    m_folderOf.remove(wd);
    inotify_rm_watch(m_fd, wd); // fails harmlessly when the folder is gone already
}

void InotifyWatch::readEvents()
{
    alignas(struct inotify_event) char buffer[64 * 1024];
    for (;;) {
        const ssize_t length = ::read(m_fd, buffer, sizeof buffer);
        if (length <= 0)
            return; // EAGAIN: all read
        for (ssize_t at = 0; at < length;) {
            const auto *event = reinterpret_cast<const struct inotify_event *>(buffer + at);
            at += ssize_t(sizeof(struct inotify_event)) + event->len;
            if (event->mask & IN_Q_OVERFLOW) {
                Q_EMIT overflowed();
                continue;
            }
            const QString folder = m_folderOf.value(event->wd);
            if (folder.isEmpty())
                continue;
            if (event->mask & IN_IGNORED) {
                // The folder went away (or was unwatched): the kernel dropped the watch.
                m_folderOf.remove(event->wd);
                if (m_watchOf.value(folder) == event->wd) {
                    m_watchOf.remove(folder);
                    m_uses.remove(folder);
                }
                Q_EMIT changed(folder, QString(), IN_DELETE_SELF);
                continue;
            }
            const QString name = event->len > 0 ? QFile::decodeName(event->name) : QString();
            Q_EMIT changed(folder, name, event->mask);
        }
    }
}

} // namespace hg
