#include "desktoptriggerwatch.h"

#include "desktopsignals.h"
#include "store/chainrepository.h"
#include "store/chaintriggerrepository.h"
#include "store/desktoptriggerrepository.h"
#include "store/store.h"

#include <algorithm>

namespace hg {
namespace {

constexpr int storeRetryMs = 5000;
constexpr int mostPendingEvents = 1000; // a store away for days: the oldest events go first

} // namespace

DesktopTriggerWatch::DesktopTriggerWatch(Store &store, QString engineName,
                                         std::function<qint64()> wallMs, QObject *parent)
    : QObject(parent)
    , m_store(store)
    , m_engineName(std::move(engineName))
    , m_wallMs(std::move(wallMs))
{
    m_idleTimer.setSingleShot(true);
    connect(&m_idleTimer, &QTimer::timeout, this, &DesktopTriggerWatch::idleDue);
    m_retryTimer.setSingleShot(true);
    m_retryTimer.setInterval(storeRetryMs);
    connect(&m_retryTimer, &QTimer::timeout, this, &DesktopTriggerWatch::writePending);
}

DesktopTriggerWatch::~DesktopTriggerWatch() = default;

void DesktopTriggerWatch::reload()
{
    const Result<QList<ChainTrigger>> triggers = ChainTriggerRepository(m_store).list();
    const Result<QList<Chain>> chains = ChainRepository(m_store).list();
    if (!triggers || !chains)
        return; // the store is away: what is watched goes on
    QHash<qint64, const Chain *> chainOf;
    for (const Chain &chain : chains.value())
        chainOf.insert(chain.id, &chain);
    m_triggers.clear();
    bool network = false;
    for (const ChainTrigger &trigger : triggers.value()) {
        const Chain *chain = chainOf.value(trigger.chainId);
        if (trigger.kind != TriggerKind::Desktop || trigger.paused || !chain || !chain->enabled)
            continue;
        // A desktop is one machine's: a shared store's trigger is the named engine's.
        const bool ours = chain->clientName.isEmpty() ? m_store.backend() == StoreBackend::Sqlite
                                                      : chain->clientName == m_engineName;
        if (!ours)
            continue;
        m_triggers << trigger;
        network = network || trigger.desktop.event == DesktopEvent::Network;
    }
    // A removed trigger's events wait no more (its run could never be written).
    m_pending.removeIf([this](const Pending &pending) {
        return std::none_of(m_triggers.cbegin(), m_triggers.cend(),
                            [&](const ChainTrigger &t) { return t.id == pending.trigger.id; });
    });
    if (m_triggers.isEmpty())
        return; // the sources stay connected once made: nothing fires without a trigger
    if (!m_signals) {
        m_signals = std::make_unique<DesktopSignals>(m_wallMs);
        connect(m_signals.get(), &DesktopSignals::happened, this, &DesktopTriggerWatch::happened);
        connect(m_signals.get(), &DesktopSignals::idleChanged, this, [this] {
            m_idleFired.clear();
            armIdle();
        });
        connect(m_signals.get(), &DesktopSignals::sourcesChanged, this,
                &DesktopTriggerWatch::updateNotes);
    }
    m_signals->start(network);
    updateNotes();
    armIdle();
}

void DesktopTriggerWatch::noteResumed(qint64 atMs)
{
    if (m_signals && !m_triggers.isEmpty())
        m_signals->noteResumed(atMs);
}

void DesktopTriggerWatch::happened(DesktopEvent event, qint64 atMs)
{
    for (const ChainTrigger &trigger : std::as_const(m_triggers))
        if (trigger.desktop.event == event && event != DesktopEvent::Idle)
            m_pending << Pending{trigger, atMs};
    writePending();
}

void DesktopTriggerWatch::armIdle()
{
    m_idleTimer.stop();
    const std::optional<qint64> since = m_signals ? m_signals->idleSince() : std::nullopt;
    if (!since)
        return;
    std::optional<qint64> next;
    for (const ChainTrigger &trigger : std::as_const(m_triggers))
        if (trigger.desktop.event == DesktopEvent::Idle && !m_idleFired.contains(trigger.id)) {
            const qint64 due = *since + trigger.desktop.idleMs;
            next = next ? std::min(*next, due) : due;
        }
    if (next) // at most a day at a time: a timer's int milliseconds
        m_idleTimer.start(int(std::clamp<qint64>(*next - m_wallMs(), 0, 86'400'000)));
}

void DesktopTriggerWatch::idleDue()
{
    const std::optional<qint64> since = m_signals ? m_signals->idleSince() : std::nullopt;
    if (!since)
        return;
    const qint64 now = m_wallMs();
    for (const ChainTrigger &trigger : std::as_const(m_triggers)) {
        const qint64 due = *since + trigger.desktop.idleMs;
        if (trigger.desktop.event != DesktopEvent::Idle || m_idleFired.contains(trigger.id)
            || due > now)
            continue;
        m_idleFired.insert(trigger.id);
        // Keyed by when the idle time was reached: an engine restarted in the same idle
        // period starts no second run.
        m_pending << Pending{trigger, due};
    }
    writePending();
    armIdle();
}

void DesktopTriggerWatch::writePending()
{
    int started = 0;
    DesktopTriggerRepository runs(m_store);
    while (!m_pending.isEmpty()) {
        const Pending &next = m_pending.first();
        const Result<std::optional<qint64>> run = runs.start(
            next.trigger.id, next.trigger.chainId, next.trigger.desktop, next.atMs, m_wallMs());
        if (!run) {
            if (m_pending.size() > mostPendingEvents)
                m_pending.erase(m_pending.begin(), m_pending.end() - mostPendingEvents);
            m_retryTimer.start();
            break;
        }
        started += run.value() ? 1 : 0;
        m_pending.removeFirst();
    }
    if (started > 0)
        Q_EMIT runsStarted(started);
}

void DesktopTriggerWatch::updateNotes()
{
    if (!m_signals)
        return;
    ChainTriggerRepository repository(m_store);
    for (ChainTrigger &trigger : m_triggers) {
        const QString why = m_signals->missing(trigger.desktop.event);
        const QString note = why.isEmpty() ? QString() : tr("cannot fire here: %1").arg(why);
        if (note == trigger.watchNote)
            continue;
        if (!repository.setWatchNote(trigger.id, note))
            continue; // the store is away: said at the next change
        trigger.watchNote = note;
        Q_EMIT noted(note.isEmpty()
                         ? tr("trigger %1 (%2): watching again").arg(trigger.id).arg(trigger.path)
                         : tr("trigger %1 (%2): %3").arg(trigger.id).arg(trigger.path, note));
    }
}

} // namespace hg
