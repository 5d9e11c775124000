#pragma once

#include <QHash>
#include <QObject>
#include <QString>

#include <memory>

class QSocketNotifier;

namespace hg {

// One inotify instance for all of an engine's file triggers (a user has 128 instances, and
// watches share fs.inotify.max_user_watches). A folder is watched once however many
// triggers look at it; events come out named by folder.
class InotifyWatch final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(InotifyWatch)

public:
    enum class Added { Watched, LimitReached, Denied, Missing, Failed };

    explicit InotifyWatch(QObject *parent = nullptr);
    ~InotifyWatch() override;

    bool isOpen() const { return m_fd >= 0; }
    // Counted: the folder is watched until as many releases as adds.
    Added add(const QString &folder);
    void release(const QString &folder);

Q_SIGNALS:
    // mask: inotify's IN_* bits; name "" for the folder itself (IN_DELETE_SELF, IN_MOVE_SELF).
    void changed(const QString &folder, const QString &name, quint32 mask);
    // The kernel's queue overflowed: events were lost, every folder must be looked at again.
    void overflowed();

private:
    void readEvents();

    int m_fd = -1;
    std::unique_ptr<QSocketNotifier> m_notifier;
    QHash<QString, int> m_watchOf;  // folder -> watch descriptor
    QHash<int, QString> m_folderOf; // watch descriptor -> folder
    QHash<QString, int> m_uses;
};

} // namespace hg
