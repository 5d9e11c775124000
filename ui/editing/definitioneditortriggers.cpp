// DefinitionEditor: a chain's triggers, added, paused and removed as undoable steps.
#include "definitioneditor.h"
#include "store/chaintriggerrepository.h"

#include <memory>

namespace hg {

namespace {

QString triggerTitle(const ChainTrigger &trigger)
{
    switch (trigger.kind) {
    case TriggerKind::After:
        return DefinitionEditor::tr("after another chain");
    case TriggerKind::File:
        return trigger.file.glob;
    case TriggerKind::Desktop:
        return DesktopTriggerSpec::describe(trigger.desktop.event, trigger.desktop.idleMs);
    case TriggerKind::Webhook:
        return trigger.webhook.path();
    }
    return {};
}

} // namespace

Result<ChainTrigger> DefinitionEditor::addTrigger(const ChainTrigger &trigger)
{
    auto firstId = std::make_shared<qint64>(0);
    auto stored = std::make_shared<ChainTrigger>();
    // Ids as they are now: an undone chain deletion made its chains again under new ids.
    const auto current = [this](ChainTrigger wanted) {
        wanted.id = 0;
        wanted.chainId = currentId(Entity::Chain, wanted.chainId);
        for (ChainTrigger::Upstream &upstream : wanted.upstreams)
            upstream.chainId = currentId(Entity::Chain, upstream.chainId);
        return wanted;
    };
    const Step add = [this, trigger, firstId, stored, current]() -> Status {
        const Result<ChainTrigger> added = ChainTriggerRepository(m_store).add(current(trigger));
        if (!added)
            return added.error();
        *stored = added.value();
        recordCreated(Entity::Trigger, *firstId, added->id);
        return chainEdited(added->chainId, {});
    };
    const Step remove = [this, trigger, firstId]() -> Status {
        return chainEdited(
            currentId(Entity::Chain, trigger.chainId),
            ChainTriggerRepository(m_store).remove(currentId(Entity::Trigger, *firstId)));
    };
    if (Status done = perform(tr("New trigger %1").arg(triggerTitle(trigger)), add, remove); !done)
        return done.error();
    return *stored;
}

Status DefinitionEditor::removeTrigger(qint64 triggerId)
{
    const Result<ChainTrigger> trigger = ChainTriggerRepository(m_store).byId(triggerId);
    if (!trigger)
        return trigger.error();
    const Step remove = [this, trigger = trigger.value()]() -> Status {
        return chainEdited(
            currentId(Entity::Chain, trigger.chainId),
            ChainTriggerRepository(m_store).remove(currentId(Entity::Trigger, trigger.id)));
    };
    const Step restore = [this, trigger = trigger.value()]() -> Status {
        ChainTrigger again = trigger;
        again.chainId = currentId(Entity::Chain, trigger.chainId);
        for (ChainTrigger::Upstream &upstream : again.upstreams)
            upstream.chainId = currentId(Entity::Chain, upstream.chainId);
        const Result<ChainTrigger> stored = ChainTriggerRepository(m_store).add(again);
        if (!stored)
            return stored.error();
        remember(Entity::Trigger, currentId(Entity::Trigger, trigger.id), stored->id);
        return chainEdited(again.chainId, {});
    };
    return perform(tr("Delete trigger %1").arg(triggerTitle(trigger.value())), remove, restore);
}

Status DefinitionEditor::setTriggerPaused(qint64 triggerId, bool paused)
{
    const Result<ChainTrigger> trigger = ChainTriggerRepository(m_store).byId(triggerId);
    if (!trigger)
        return trigger.error();
    const auto step = [this, trigger = trigger.value()](bool to) -> Step {
        return [this, trigger, to]() -> Status {
            return chainEdited(currentId(Entity::Chain, trigger.chainId),
                               ChainTriggerRepository(m_store).setPaused(
                                   currentId(Entity::Trigger, trigger.id), to));
        };
    };
    return perform(paused ? tr("Pause trigger %1").arg(triggerTitle(trigger.value()))
                          : tr("Resume trigger %1").arg(triggerTitle(trigger.value())),
                   step(paused), step(trigger->paused));
}

} // namespace hg
