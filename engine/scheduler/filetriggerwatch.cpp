#include "filetriggerwatch.h"

#include "filetriggerwatcher.h"
#include "inotifywatch.h"
#include "store/chainrepository.h"
#include "store/chaintriggerrepository.h"
#include "store/store.h"

namespace hg {

FileTriggerWatch::FileTriggerWatch(Store &store, QString engineName,
                                   std::function<qint64()> monotonicMs,
                                   std::function<qint64()> wallMs, QObject *parent)
    : QObject(parent)
    , m_store(store)
    , m_engineName(std::move(engineName))
    , m_monotonicMs(std::move(monotonicMs))
    , m_wallMs(std::move(wallMs))
    , m_inotify(std::make_unique<InotifyWatch>())
{
    connect(m_inotify.get(), &InotifyWatch::changed, this,
            [this](const QString &folder, const QString &name, quint32 mask) {
                for (FileTriggerWatcher *watcher : std::as_const(m_watchers))
                    watcher->folderChanged(folder, name, mask);
            });
    connect(m_inotify.get(), &InotifyWatch::overflowed, this, [this] {
        for (FileTriggerWatcher *watcher : std::as_const(m_watchers))
            watcher->rescan();
    });
}

FileTriggerWatch::~FileTriggerWatch()
{
    qDeleteAll(m_watchers); // before the inotify instance they release folders of
    m_watchers.clear();
}

void FileTriggerWatch::reload()
{
    const Result<QList<ChainTrigger>> triggers = ChainTriggerRepository(m_store).list();
    const Result<QList<Chain>> chains = ChainRepository(m_store).list();
    if (!triggers || !chains)
        return; // the store is away: what is watched goes on, the next reload reads again
    QHash<qint64, const Chain *> chainOf;
    for (const Chain &chain : chains.value())
        chainOf.insert(chain.id, &chain);
    QHash<qint64, ChainTrigger> wanted;
    for (const ChainTrigger &trigger : triggers.value()) {
        const Chain *chain = chainOf.value(trigger.chainId);
        if (trigger.kind != TriggerKind::File || trigger.paused || !chain || !chain->enabled)
            continue;
        // A file is on one machine: a shared store's trigger is the named engine's.
        const bool ours = chain->clientName.isEmpty() ? m_store.backend() == StoreBackend::Sqlite
                                                      : chain->clientName == m_engineName;
        if (ours)
            wanted.insert(trigger.id, trigger);
    }
    for (auto it = m_watchers.begin(); it != m_watchers.end();) {
        const auto keep = wanted.constFind(it.key());
        if (keep != wanted.cend() && keep->file == it.value()->trigger().file) {
            wanted.remove(it.key());
            ++it;
            continue;
        }
        delete it.value();
        it = m_watchers.erase(it);
    }
    for (const ChainTrigger &trigger : std::as_const(wanted)) {
        auto *watcher =
            new FileTriggerWatcher(trigger, m_store, *m_inotify, m_monotonicMs, m_wallMs, this);
        // Watched from a later reload: the engine ran meanwhile, the trigger did not (paused,
        // its chain disabled, or its settings changed).
        if (m_loadedOnce)
            watcher->setMissedCause(OccurrenceCause::Paused);
        connect(watcher, &FileTriggerWatcher::runsStarted, this, &FileTriggerWatch::runsStarted);
        const QString path = trigger.path;
        connect(watcher, &FileTriggerWatcher::noted, this,
                [this, path](qint64 id, const QString &note) {
                    Q_EMIT noted(note.isEmpty()
                                     ? tr("trigger %1 (%2): watching again").arg(id).arg(path)
                                     : tr("trigger %1 (%2): %3").arg(id).arg(path, note));
                });
        if (!watcher->start()) {
            delete watcher; // the store is away: the next reload starts it
            continue;
        }
        m_watchers.insert(trigger.id, watcher);
    }
    m_loadedOnce = true;
}

} // namespace hg
