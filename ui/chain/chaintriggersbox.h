#pragma once

#include "domain/chaintrigger.h"

#include <QGroupBox>
#include <QList>

class QListWidget;
class QPushButton;

namespace hg {

class DefinitionEditor;
class Store;

// The chain's triggers beside its schedules: each said in a line ("after a run of etl/load
// succeeded", "files /srv/in/*.csv created, moved in", "session unlocked"), paused ones
// marked, the watching engine's note after it; Add (after chains, files, a desktop event:
// a TriggerDialog), Pause/Resume and Remove, all undoable through the DefinitionEditor.
class ChainTriggersBox final : public QGroupBox
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ChainTriggersBox)

public:
    ChainTriggersBox(Store &store, DefinitionEditor *editor, QWidget *parent = nullptr);

    void show(qint64 chainId, const QList<ChainTrigger> &triggers);
    const QList<ChainTrigger> &triggers() const { return m_triggers; }
    // Opens the dialog for a new trigger of that kind.
    void addTrigger(TriggerKind kind);
    // One line for a trigger, as the list says it.
    static QString describe(const ChainTrigger &trigger);

Q_SIGNALS:
    void refused(const QString &message); // an edit the store refused

private:
    qint64 selectedId() const;
    void updateButtons();

    Store &m_store;
    DefinitionEditor *m_editor;
    QListWidget *m_list;
    QPushButton *m_pause;
    QPushButton *m_remove;
    qint64 m_chainId = 0;
    QList<ChainTrigger> m_triggers;
};

} // namespace hg
