#pragma once

#include <QHash>
#include <QObject>
#include <QString>

#include <functional>
#include <memory>

namespace hg {

class FileTriggerWatcher;
class InotifyWatch;
class Store;

// The file triggers an engine watches: those of its enabled chains, not paused, and on a
// shared store those whose chain names this engine (client name). Read again when
// definitions change (a trigger's changes are its chain's); a trigger whose settings did
// not change keeps its watcher, so a reload loses nothing that was settling.
class FileTriggerWatch final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(FileTriggerWatch)

public:
    FileTriggerWatch(Store &store, QString engineName, std::function<qint64()> monotonicMs,
                     std::function<qint64()> wallMs, QObject *parent = nullptr);
    ~FileTriggerWatch() override;

    void reload();
    int watching() const { return int(m_watchers.size()); }

Q_SIGNALS:
    void runsStarted(int count);
    // A trigger's note changed: "trigger 4 (p/c): the folder /srv/in is gone; …".
    void noted(const QString &message);

private:
    Store &m_store;
    QString m_engineName;
    std::function<qint64()> m_monotonicMs;
    std::function<qint64()> m_wallMs;
    std::unique_ptr<InotifyWatch> m_inotify;
    QHash<qint64, FileTriggerWatcher *> m_watchers; // children of this
    bool m_loadedOnce = false;
};

} // namespace hg
