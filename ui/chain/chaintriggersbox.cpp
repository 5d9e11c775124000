#include "chaintriggersbox.h"

#include "base/terminaltext.h"
#include "definitioneditor.h"
#include "store/chainrepository.h"
#include "triggerdialog.h"

#include <QHBoxLayout>
#include <QListWidget>
#include <QMenu>
#include <QPushButton>
#include <QVBoxLayout>

namespace hg {
namespace {

QString eventNames(const FileTriggerSpec &file)
{
    QStringList names;
    for (const FileEvent event : file.events)
        switch (event) {
        case FileEvent::Created:
            names << ChainTriggersBox::tr("created");
            break;
        case FileEvent::Modified:
            names << ChainTriggersBox::tr("modified");
            break;
        case FileEvent::Deleted:
            names << ChainTriggersBox::tr("deleted");
            break;
        case FileEvent::Moved:
            names << ChainTriggersBox::tr("moved in");
            break;
        }
    return names.join(QStringLiteral(", "));
}

QString stateName(TriggerOn on)
{
    switch (on) {
    case TriggerOn::Succeeded:
        return ChainTriggersBox::tr("succeeded");
    case TriggerOn::Failed:
        return ChainTriggersBox::tr("failed");
    case TriggerOn::Finished:
        return ChainTriggersBox::tr("finished");
    }
    return {};
}

} // namespace

ChainTriggersBox::ChainTriggersBox(Store &store, DefinitionEditor *editor, QWidget *parent)
    : QGroupBox(tr("Triggers"), parent)
    , m_store(store)
    , m_editor(editor)
    , m_list(new QListWidget(this))
    , m_pause(new QPushButton(tr("&Pause"), this))
    , m_remove(new QPushButton(tr("Remove"), this))
{
    m_list->setObjectName(QStringLiteral("triggers"));
    m_list->setAccessibleName(tr("Triggers"));
    m_list->setAccessibleDescription(
        tr("What starts this chain besides its schedules: other chains, files, desktop events"));
    m_list->setWordWrap(true);
    auto *add = new QPushButton(tr("Add trigger"), this);
    add->setObjectName(QStringLiteral("triggers.add"));
    add->setToolTip(tr("Start this chain after other chains, when files arrive, or on a "
                       "desktop event"));
    auto *menu = new QMenu(add);
    menu->addAction(tr("After other chains end…"), this,
                    [this] { addTrigger(TriggerKind::After); });
    menu->addAction(tr("When files arrive…"), this, [this] { addTrigger(TriggerKind::File); });
    menu->addAction(tr("On a desktop event…"), this, [this] { addTrigger(TriggerKind::Desktop); });
    add->setMenu(menu);
    m_pause->setObjectName(QStringLiteral("triggers.pause"));
    m_pause->setToolTip(tr("Pause or resume the selected trigger; Undo takes it back"));
    m_remove->setObjectName(QStringLiteral("triggers.remove"));
    m_remove->setToolTip(tr("Remove the selected trigger; Undo brings it back"));
    connect(m_pause, &QPushButton::clicked, this, [this] {
        const qint64 id = selectedId();
        for (const ChainTrigger &t : std::as_const(m_triggers))
            if (t.id == id)
                if (const Status done = m_editor->setTriggerPaused(id, !t.paused); !done)
                    Q_EMIT refused(done.error().message);
    });
    connect(m_remove, &QPushButton::clicked, this, [this] {
        if (const qint64 id = selectedId())
            if (const Status done = m_editor->removeTrigger(id); !done)
                Q_EMIT refused(done.error().message);
    });
    connect(m_list, &QListWidget::currentRowChanged, this, &ChainTriggersBox::updateButtons);
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(add);
    buttons->addWidget(m_pause);
    buttons->addWidget(m_remove);
    buttons->addStretch();
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_list);
    layout->addLayout(buttons);
    updateButtons();
}

QString ChainTriggersBox::describe(const ChainTrigger &t)
{
    QString text;
    switch (t.kind) {
    case TriggerKind::After: {
        QStringList paths;
        for (const ChainTrigger::Upstream &u : t.upstreams)
            paths << terminaltext::escaped(u.path);
        text =
            t.upstreams.size() == 1 || t.withinMs == 0
                ? tr("after a run of %1 %2").arg(paths.join(tr(" or ")), stateName(t.on))
                : tr("after runs of all of %1 %2 within %n min", nullptr, int(t.withinMs / 60'000))
                      .arg(paths.join(QStringLiteral(", ")), stateName(t.on));
        break;
    }
    case TriggerKind::File:
        text = tr("files %1 %2").arg(terminaltext::escaped(t.file.glob), eventNames(t.file));
        break;
    case TriggerKind::Desktop:
        text = DesktopTriggerSpec::describe(t.desktop.event, t.desktop.idleMs);
        break;
    case TriggerKind::Webhook:
        text = tr("a signed POST to %1").arg(t.webhook.path());
        break;
    }
    if (t.paused)
        text = tr("%1 (paused)").arg(text);
    if (!t.watchNote.isEmpty())
        text += QStringLiteral(" — ") + terminaltext::escaped(t.watchNote);
    return text;
}

void ChainTriggersBox::show(qint64 chainId, const QList<ChainTrigger> &triggers)
{
    const qint64 selected = chainId == m_chainId ? selectedId() : 0;
    m_chainId = chainId;
    m_triggers = triggers;
    m_list->clear();
    for (const ChainTrigger &t : triggers) {
        auto *item = new QListWidgetItem(describe(t), m_list);
        item->setData(Qt::UserRole, t.id);
        if (t.id == selected)
            m_list->setCurrentItem(item);
    }
    if (triggers.isEmpty())
        m_list->setToolTip(tr("No trigger: the chain starts by its schedules or by hand"));
    else
        m_list->setToolTip({});
    updateButtons();
}

qint64 ChainTriggersBox::selectedId() const
{
    const QListWidgetItem *item = m_list->currentItem();
    return item ? item->data(Qt::UserRole).toLongLong() : qint64(0);
}

void ChainTriggersBox::updateButtons()
{
    const qint64 id = selectedId();
    bool paused = false;
    for (const ChainTrigger &t : std::as_const(m_triggers))
        if (t.id == id)
            paused = t.paused;
    m_pause->setEnabled(id > 0);
    m_remove->setEnabled(id > 0);
    m_pause->setText(paused ? tr("&Resume") : tr("&Pause"));
}

void ChainTriggersBox::addTrigger(TriggerKind kind)
{
    if (m_chainId <= 0)
        return;
    auto *dialog = new TriggerDialog(
        m_chainId, kind,
        [this](const QString &path) -> Result<qint64> {
            const Result<Chain> chain = ChainRepository(m_store).byPath(path);
            if (!chain)
                return chain.error();
            return chain->id;
        },
        [this](ChainTrigger trigger) -> Status {
            // Named in what the store may refuse ("p/c has no client name").
            if (const Result<ChainPath> path = ChainRepository(m_store).pathOf(trigger.chainId))
                trigger.path = path->toString();
            const Result<ChainTrigger> added = m_editor->addTrigger(trigger);
            return added ? Status() : Status(added.error());
        },
        this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->open(); // no nested event loop; a test can fill it in
}

} // namespace hg
