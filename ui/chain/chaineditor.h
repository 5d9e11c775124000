#pragma once

#include "base/result.h"
#include "domain/chain.h"
#include "domain/taskrun.h"

#include <QPointer>
#include <QTimeZone>
#include <QWidget>

#include <functional>

class QAction;
class QComboBox;
class QFrame;
class QGraphicsView;
class QLabel;
class QMessageBox;
class QPushButton;
class QTableView;

namespace hg {

class ChainOccurrencesBox;
struct ChainOpening;
class ElidedLabel;
class StoreReader;
class ChainSchedulesBox;
class ChainTriggersBox;
class ChainSettingsBar;
class DagScene;
class DefinitionEditor;
class DependenciesModel;
class SchedulesModel;
class Store;
class TaskForm;
class TasksModel;

// One chain, edited: the DAG canvas (drag from a task's port to another task to add a
// dependency, right-click an edge for its condition, Delete to remove), the selected task's
// form, the chain's schedules and its run settings. Every change is an undoable edit made
// through the DefinitionEditor; a refused one is named in the banner above the canvas.
class ChainEditor final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ChainEditor)

public:
    ChainEditor(Store &store, DefinitionEditor *editor, QWidget *parent = nullptr);

    void showChain(qint64 chainId);
    qint64 chainId() const { return m_chain.id; }

    TasksModel *tasks() const { return m_tasks; }
    DependenciesModel *dependencies() const { return m_dependencies; }
    SchedulesModel *schedules() const { return m_schedules; }
    DagScene *scene() const { return m_scene; }
    QGraphicsView *canvas() const { return m_view; }
    TaskForm *taskForm() const { return m_form; }
    ChainOccurrencesBox *occurrences() const { return m_occurrences; }
    QString message() const;
    QAction *addTaskAction() const { return m_addTask; }
    // Its Channels… button: the window opens Notifications for the chain.
    ChainSettingsBar *settingsBar() const { return m_settings; }
    QAction *addScheduleAction() const { return m_addSchedule; }
    QAction *autoLayoutAction() const { return m_autoLayout; }
    QAction *connectAction() const { return m_connect; }
    void setDefaultZone(const QTimeZone &zone);
    // Reads that may wait on the store (the schedule dialog's calendars) go through it.
    // With a reader, opening a chain reads on its thread (the editor disabled meanwhile).
    void setStoreReader(StoreReader *reader);
    bool isOpening() const { return m_opening; }
    const QTimeZone &defaultZone() const;
    // The task form holds edits not yet applied.
    bool hasUnappliedEdits() const;
    // Before the form's task goes out of view: with unapplied edits, asks Apply / Discard /
    // Cancel (window-modal, not nested) and calls proceed once they are applied or discarded;
    // without any, calls it at once. Cancel keeps the edits and does not proceed.
    void settleUnappliedEdits(const std::function<void()> &proceed);

public Q_SLOTS:
    void applyTaskRun(const hg::TaskRun &taskRun);

private:
    QWidget *buildEmptyState();
    void reload();
    void present(const ChainOpening *opened); // null: read here
    void openOnReader(qint64 chainId);
    // The chain shown, read again on the reader (changed elsewhere); kept as it is meanwhile.
    void refreshOnReader();
    void setChoicesFor(qint64 chainId, const QStringList &connections);
    void addTask();
    void autoLayout();
    void connectSelectedTask();
    void sceneRebuilt();
    void selectTask(qint64 taskId);
    void report(const Status &status);
    void writeChain(const Chain &chain);
    bool applyForm();
    void confirmRemoval();

    Store &m_store;
    DefinitionEditor *m_editor;
    Chain m_chain;
    TasksModel *m_tasks;
    DependenciesModel *m_dependencies;
    SchedulesModel *m_schedules;
    QString m_occurrencesKey; // what the occurrences box last read for
    DagScene *m_scene;
    QGraphicsView *m_view;
    TaskForm *m_form;
    ChainOccurrencesBox *m_occurrences;
    QLabel *m_message;
    ElidedLabel *m_title; // the chain's name, elided where the editor is narrow
    QLabel *m_description;
    ChainSchedulesBox *m_schedulesBox = nullptr;
    ChainTriggersBox *m_triggersBox = nullptr;
    ChainSettingsBar *m_settings;
    QFrame *m_emptyState = nullptr; // shown while the chain has no task
    QAction *m_addTask;
    QAction *m_addSchedule;
    QAction *m_autoLayout;
    QAction *m_fit;
    QAction *m_connect;
    bool m_outsideRefresh = false; // present() shows what changed elsewhere
    bool m_freshChain = false;
    StoreReader *m_reader = nullptr;
    bool m_opening = false;      // a chain being read on the reader's thread
    int m_openings = 0;          // the newest opening asked; older answers are dropped
    bool m_readingChain = false; // a ChainOpening read is out on the reader
    qint64 m_wantedChain = 0;    // asked for while one was out: read when it answers
    qint64 m_choicesFor = -1;    // the chain the form's choices were set for
    QPointer<QMessageBox> m_prompt;
    QList<qint64> m_pendingRemoval; // tasks Delete asked to remove, confirmed together
    qint64 m_revealTask = 0;        // a task that appeared: selected once the canvas redraws
};

} // namespace hg
