#include "chaineditor.h"

#include "chain/chainoccurrencesbox.h"
#include "chain/chainschedulesbox.h"
#include "chain/chainsettingsbar.h"
#include "chain/chaintriggersbox.h"
#include "common/elidedlabel.h"
#include "common/questionbox.h"
#include "common/taborder.h"
#include "dag/connecttaskdialog.h"
#include "dag/daglayout.h"
#include "dag/dagscene.h"
#include "dag/dagview.h"
#include "dag/tasknodeitem.h"
#include "definitioneditor.h"
#include "dependenciesmodel.h"
#include "schedulesmodel.h"
#include "statepresentation.h"
#include "store/chainrepository.h"
#include "store/store.h"
#include "taskform/taskform.h"
#include "tasksmodel.h"

#include <QAction>
#include <QFrame>
#include <QGraphicsView>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QMessageBox>
#include <QPushButton>
#include <QSplitter>
#include <QToolButton>
#include <QVBoxLayout>

namespace hg {

ChainEditor::ChainEditor(Store &store, DefinitionEditor *editor, QWidget *parent)
    : QWidget(parent)
    , m_store(store)
    , m_editor(editor)
    , m_tasks(new TasksModel(store, this))
    , m_dependencies(new DependenciesModel(store, this))
    , m_schedules(new SchedulesModel(store, this))
    , m_scene(new DagScene(m_tasks, m_dependencies, this))
    , m_view(new DagView(m_scene, this))
    , m_form(new TaskForm(this))
    , m_occurrences(new ChainOccurrencesBox(store, this))
    , m_message(new QLabel(this))
    , m_title(new ElidedLabel(this))
    , m_description(new QLabel(this))
    , m_settings(new ChainSettingsBar(this))
    , m_addTask(new QAction(tr("Add &task"), this))
    , m_addSchedule(new QAction(tr("Add &schedule…"), this))
    , m_autoLayout(new QAction(tr("Auto &layout"), this))
    , m_fit(new QAction(tr("&Fit"), this))
    , m_connect(new QAction(tr("&Connect to…"), this))
{
    m_view->setObjectName(QStringLiteral("canvas"));
    m_view->setAccessibleName(tr("Chain canvas"));
    m_view->setAccessibleDescription(tr("The chain's tasks and their dependencies"));
    m_view->setRenderHint(QPainter::Antialiasing);
    m_view->setDragMode(QGraphicsView::RubberBandDrag);
    m_view->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    m_view->setMinimumWidth(260);
    m_message->setObjectName(QStringLiteral("chain.message"));
    m_message->setWordWrap(true);
    m_message->setStyleSheet(QStringLiteral("background: %1; color: %2; padding: 6px; "
                                            "border-radius: 4px;")
                                 .arg(StatePresentation::errorBackground().name(),
                                      StatePresentation::errorText().name()));
    m_message->hide();
    QFont titleFont = m_title->font();
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.3);
    titleFont.setBold(true);
    m_title->setFont(titleFont);

    m_addTask->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_T));
    m_addTask->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    m_autoLayout->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_L));
    m_autoLayout->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    // Ctrl+K: connect the selected task to another from a dialog, without a mouse drag.
    m_connect->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_K));
    m_addSchedule->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S));
    m_connect->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    addActions({m_addTask, m_autoLayout, m_connect});
    connect(m_connect, &QAction::triggered, this, &ChainEditor::connectSelectedTask);
    connect(m_addTask, &QAction::triggered, this, &ChainEditor::addTask);
    connect(m_autoLayout, &QAction::triggered, this, &ChainEditor::autoLayout);
    m_schedulesBox = new ChainSchedulesBox(store, m_schedules, m_addSchedule, this);
    // Not while a chain opens: the chain shown is not the one selected (helper-15).
    connect(m_addSchedule, &QAction::triggered, this, [this] {
        if (!m_opening)
            m_schedulesBox->editSchedule(0);
    });
    m_triggersBox = new ChainTriggersBox(store, m_editor, this);
    connect(m_triggersBox, &ChainTriggersBox::refused, this,
            [this](const QString &message) { report(Error::invalid(message)); });
    connect(m_schedulesBox, &ChainSchedulesBox::removeRequested, this,
            [this](qint64 id) { report(m_editor->removeSchedule(id)); });
    connect(m_schedulesBox, &ChainSchedulesBox::scheduleEdited, this,
            [this](const Schedule &edited) {
                if (edited.id > 0) {
                    report(m_editor->updateSchedule(edited));
                    return;
                }
                const Result<Schedule> added = m_editor->addSchedule(edited);
                report(added ? Status() : Status(added.error()));
            });
    connect(m_fit, &QAction::triggered, this,
            [this] { m_view->fitInView(m_scene->sceneRect(), Qt::KeepAspectRatio); });

    auto *tools = new QHBoxLayout;
    tools->addWidget(m_title);
    tools->addStretch();
    QList<QWidget *> tabOrder;
    for (QAction *action : {m_addTask, m_autoLayout, m_fit}) {
        auto *button = new QToolButton(this);
        button->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
        button->setDefaultAction(action);
        tools->addWidget(button);
        tabOrder << button;
    }
    auto *canvasColumn = new QWidget(this);
    auto *canvasLayout = new QVBoxLayout(canvasColumn);
    canvasLayout->setContentsMargins(0, 0, 0, 0);
    canvasLayout->addLayout(tools);
    m_description->setObjectName(QStringLiteral("chain.description"));
    m_description->setWordWrap(true);
    m_description->setForegroundRole(QPalette::PlaceholderText);
    canvasLayout->addWidget(m_description);
    canvasLayout->addWidget(m_settings);
    canvasLayout->addWidget(m_message);
    canvasLayout->addWidget(buildEmptyState());
    canvasLayout->addWidget(m_view, 1);
    auto *hint = new QLabel(tr("Drag from a task's right-hand port to another task to add a "
                               "dependency (or Ctrl+K). Right-click an edge for its condition; "
                               "Delete removes what is selected; arrows move between tasks, "
                               "Enter edits one."),
                            this);
    hint->setWordWrap(true);
    hint->setForegroundRole(QPalette::PlaceholderText);
    canvasLayout->addWidget(hint);

    // The form scrolls its own fields and keeps Apply in view below them.
    auto *right = new QSplitter(Qt::Vertical, this);
    right->setObjectName(QStringLiteral("chain.formAndSchedules"));
    right->addWidget(m_form);
    right->addWidget(m_schedulesBox);
    right->addWidget(m_triggersBox);
    right->addWidget(m_occurrences);
    // Most of the height to the task's fields: the schedules, triggers and fire times need a
    // few lines.
    right->setStretchFactor(0, 3);
    right->setStretchFactor(1, 1);
    right->setStretchFactor(2, 1);
    right->setStretchFactor(3, 0);
    right->setSizes({460, 150, 100, 130}); // proportions until the editor has its size

    auto *split = new QSplitter(this);
    split->setObjectName(QStringLiteral("chain.canvasAndForm"));
    split->addWidget(canvasColumn);
    split->addWidget(right);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    split->setSizes({560, 420});
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addWidget(split);
    // Tab as the eye reads, top to bottom, left to right (creation order put the canvas
    // first and the header's buttons last).
    tabOrder << m_settings << m_emptyState << m_view << m_form << m_schedulesBox << m_triggersBox
             << m_occurrences;
    setTabOrderOf(tabOrder);

    connect(m_scene, &DagScene::currentTaskChanged, this, &ChainEditor::selectTask);
    // Enter on a task: into its form, at the name.
    connect(m_scene, &DagScene::editRequested, this, [this] { m_form->focusFirstField(); });
    // Esc in the form: back to the canvas, where the arrows move between tasks.
    connect(m_form, &TaskForm::canvasRequested, this, [this] { m_view->setFocus(); });
    connect(m_scene, &DagScene::rebuilt, this, &ChainEditor::sceneRebuilt);
    connect(m_scene, &DagScene::connectRequested, this, [this](qint64 task, qint64 upstream) {
        report(m_editor->addDependency(task, upstream, DependencyCondition::Success));
    });
    connect(m_scene, &DagScene::conditionRequested, this,
            [this](qint64 task, qint64 upstream, DependencyCondition condition) {
                report(m_editor->setDependencyCondition(task, upstream, condition));
            });
    connect(m_scene, &DagScene::removeEdgeRequested, this, [this](qint64 task, qint64 upstream) {
        report(m_editor->removeDependency(task, upstream));
    });
    connect(m_scene, &DagScene::removeTaskRequested, this, [this](qint64 task) {
        // Gathered: Delete on several selected tasks asks once, after the key handler.
        if (m_pendingRemoval.isEmpty())
            QMetaObject::invokeMethod(this, &ChainEditor::confirmRemoval, Qt::QueuedConnection);
        m_pendingRemoval << task;
    });
    connect(m_scene, &DagScene::tasksMoved, this, [this](const QHash<qint64, QPointF> &moved) {
        report(m_editor->moveTasks(moved, tr("Move %n task(s)", nullptr, int(moved.size()))));
    });
    connect(m_form, &TaskForm::applyRequested, this, [this] { (void)applyForm(); });
    connect(m_settings, &ChainSettingsBar::chainEdited, this, &ChainEditor::writeChain);
    connect(m_editor, &DefinitionEditor::chainChanged, this, [this](qint64 chainId) {
        if (chainId == m_chain.id)
            reload();
    });
    showChain(0);
}

QWidget *ChainEditor::buildEmptyState()
{
    // A new chain: what to do first, rather than a blank canvas beside a disabled form.
    m_emptyState = new QFrame(this);
    m_emptyState->setObjectName(QStringLiteral("chain.emptyState"));
    m_emptyState->setFrameShape(QFrame::StyledPanel);
    auto *text = new QLabel(tr("This chain has no tasks yet. Add its first task; then drag "
                               "from one task's port to another to make it wait for that one."),
                            m_emptyState);
    text->setWordWrap(true);
    auto *add = new QPushButton(tr("Add the first task"), m_emptyState);
    add->setObjectName(QStringLiteral("chain.addFirstTask"));
    connect(add, &QPushButton::clicked, m_addTask, &QAction::trigger);
    auto *layout = new QHBoxLayout(m_emptyState);
    layout->addWidget(text, 1);
    layout->addWidget(add);
    m_emptyState->hide();
    return m_emptyState;
}

void ChainEditor::setStoreReader(StoreReader *reader)
{
    m_reader = reader;
    m_schedulesBox->setStoreReader(reader);
    m_occurrences->setReader(reader);
}

void ChainEditor::setDefaultZone(const QTimeZone &zone)
{
    m_schedulesBox->setDefaultZone(zone);
    m_schedules->setDefaultZone(zone);
}

const QTimeZone &ChainEditor::defaultZone() const
{
    return m_schedulesBox->defaultZone();
}

void ChainEditor::selectTask(qint64 taskId)
{
    const int row = m_tasks->rowOf(taskId);
    if (row >= 0 && taskId != m_form->taskId() && m_form->hasUnappliedChanges()) {
        // Asked once the scene's mouse handler has returned: the answer may redraw the canvas.
        const qint64 editing = m_form->taskId();
        QMetaObject::invokeMethod(
            this,
            [this, taskId, editing] {
                m_scene->selectTask(editing); // the edited task stays selected while asked
                settleUnappliedEdits([this, taskId] { m_scene->selectTask(taskId); });
            },
            Qt::QueuedConnection);
        return;
    }
    if (row < 0) {
        if (taskId == 0 && m_form->taskId() != 0 && !m_scene->node(m_form->taskId()))
            m_form->clear();
        return;
    }
    if (m_form->taskId() != taskId)
        m_form->showTask(m_tasks->tasks().at(row));
}

void ChainEditor::addTask()
{
    if (m_chain.id <= 0 || m_opening) // the chain shown is not the one selected
        return;
    if (m_form->hasUnappliedChanges())
        return settleUnappliedEdits([this] { addTask(); });
    QString name;
    for (int n = int(m_tasks->tasks().size()) + 1;; ++n) {
        name = tr("task-%1").arg(n);
        if (std::none_of(m_tasks->tasks().begin(), m_tasks->tasks().end(),
                         [&](const Task &task) { return task.name == name; }))
            break;
    }
    Task task;
    task.chainId = m_chain.id;
    task.name = name;
    task.kind = TaskKind::Shell;
    task.command = QStringLiteral("echo \"hello from $HOURGLASS_TASK\"");
    // Right of everything already placed, so it never lands on another task. From the model,
    // not the canvas: the canvas redraws a moment after an edit.
    qreal right = -DagLayout::columnWidth;
    const QHash<qint64, QPointF> automatic = m_scene->automaticLayout();
    for (const Task &existing : m_tasks->tasks())
        right = std::max(right, existing.position.value_or(automatic.value(existing.id)).x());
    task.position = QPointF(right + DagLayout::columnWidth, 0);
    const Result<Task> added = m_editor->addTask(task);
    report(added ? Status() : Status(added.error()));
    if (!added)
        return;
    m_form->showTask(added.value());
    m_form->focusFirstField(); // a new task is named first
    QMetaObject::invokeMethod(
        this, [this, id = added->id] { m_scene->selectTask(id); }, Qt::QueuedConnection);
}

void ChainEditor::connectSelectedTask()
{
    if (m_opening)
        return;
    const QList<qint64> selected = m_scene->selectedTaskIds();
    const int row = selected.size() == 1 ? m_tasks->rowOf(selected.constFirst()) : -1;
    if (row < 0)
        return report(Error::invalid(tr("Select one task to connect from.")));
    auto *dialog = new ConnectTaskDialog(m_tasks->tasks().at(row), m_tasks->tasks(),
                                         m_dependencies->dependencies(), this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    const qint64 upstream = selected.constFirst();
    connect(dialog, &QDialog::accepted, this, [this, dialog, upstream] {
        report(m_editor->addDependency(dialog->downstreamId(), upstream, dialog->condition()));
        m_view->setFocus(); // back on the canvas, the task still selected
    });
    dialog->open();
}

void ChainEditor::autoLayout()
{
    if (m_opening)
        return;
    report(m_editor->moveTasks(m_scene->automaticLayout(), tr("Auto layout")));
}

bool ChainEditor::applyForm()
{
    const Status applied = m_editor->updateTask(m_form->task());
    if (!applied)
        m_form->showProblem(applied.error().message);
    return applied.ok();
}

bool ChainEditor::hasUnappliedEdits() const
{
    return m_form->hasUnappliedChanges();
}

void ChainEditor::settleUnappliedEdits(const std::function<void()> &proceed)
{
    if (!m_form->hasUnappliedChanges()) {
        proceed();
        return;
    }
    if (m_prompt)
        return; // one question at a time; the first one decides
    const bool applicable = m_form->canApply();
    m_prompt = QuestionBox::create(
        this, QStringLiteral("unappliedPrompt"), tr("Unapplied changes"),
        tr("The task “%1” has changes that are not applied.").arg(m_form->originalName()),
        applicable ? tr("Apply them before going on?")
                   : tr("They cannot be applied as they are: %1").arg(m_form->problem()),
        QMessageBox::Apply | QMessageBox::Discard | QMessageBox::Cancel);
    m_prompt->button(QMessageBox::Apply)->setEnabled(applicable);
    m_prompt->setDefaultButton(applicable ? QMessageBox::Apply : QMessageBox::Cancel);
    m_prompt->setEscapeButton(QMessageBox::Cancel);
    QMessageBox *box = m_prompt;
    connect(box, &QMessageBox::finished, this, [this, box, proceed] {
        switch (box->standardButton(box->clickedButton())) {
        case QMessageBox::Apply:
            if (applyForm())
                proceed();
            break;
        case QMessageBox::Discard:
            m_form->revert();
            proceed();
            break;
        default:
            m_form->setFocus(); // back to the edits
            break;
        }
    });
    m_prompt->open();
}

void ChainEditor::confirmRemoval()
{
    const QList<qint64> tasks = std::exchange(m_pendingRemoval, {});
    QStringList names;
    QStringList dependents;
    for (const Task &task : m_tasks->tasks()) {
        if (tasks.contains(task.id))
            names << task.name;
    }
    for (const Dependency &edge : m_dependencies->dependencies()) {
        if (tasks.contains(edge.upstreamId) && !tasks.contains(edge.taskId)
            && !dependents.contains(edge.taskName))
            dependents << edge.taskName;
    }
    const auto remove = [this, tasks] {
        for (qint64 task : tasks) {
            if (const Status removed = m_editor->removeTask(task); !removed)
                return report(removed);
        }
    };
    if (dependents.isEmpty()) {
        remove();
        return;
    }
    if (m_prompt)
        return; // another question is open: this Delete is dropped, nothing is lost
    m_prompt = QuestionBox::create(
        this, QStringLiteral("removeTaskPrompt"), tr("Delete task"),
        tr("Delete %1? %2 depend on it.")
            .arg(QLocale().createSeparatedList(names), QLocale().createSeparatedList(dependents)),
        tr("Their dependencies on it are deleted too. Undo (Ctrl+Z) brings both back."),
        QMessageBox::Yes | QMessageBox::Cancel);
    m_prompt->button(QMessageBox::Yes)->setText(tr("&Delete"));
    m_prompt->setDefaultButton(QMessageBox::Cancel);
    connect(m_prompt, &QMessageBox::finished, this, [remove](int answer) {
        if (answer == QMessageBox::Yes)
            remove();
    });
    m_prompt->open();
}

void ChainEditor::writeChain(const Chain &chain)
{
    report(m_editor->updateChain(chain));
}

void ChainEditor::report(const Status &status)
{
    m_message->setVisible(!status);
    m_message->setText(status ? QString() : status.error().message);
}

QString ChainEditor::message() const
{
    return m_message->isVisible() ? m_message->text() : QString();
}

void ChainEditor::applyTaskRun(const TaskRun &taskRun)
{
    m_tasks->applyTaskRun(taskRun);
}

} // namespace hg
