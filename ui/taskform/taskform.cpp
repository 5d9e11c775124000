#include "taskform.h"

#include "common/tableavesfield.h"
#include "domain/builtinarguments.h"
#include "domain/jsonfieldreader.h"
#include "domain/taskvalidator.h"
#include "statepresentation.h"
#include "taskform/argumentlisteditor.h"
#include "taskform/builtinargumentform.h"
#include "taskform/httprequestform.h"

#include <QAbstractSpinBox>
#include <QCheckBox>
#include <QComboBox>
#include <QFontDatabase>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QJsonDocument>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QShortcut>
#include <QSpinBox>
#include <QStackedWidget>
#include <QStyle>
#include <QVBoxLayout>

namespace hg {
namespace {

QWidget *page(QWidget *parent, std::initializer_list<QPair<QString, QWidget *>> rows)
{
    auto *widget = new QWidget(parent);
    auto *column = new QVBoxLayout(widget);
    column->setContentsMargins(0, 0, 0, 0);
    auto *form = new QFormLayout;
    form->setRowWrapPolicy(QFormLayout::WrapLongRows); // a narrow pane puts labels above
    for (const auto &[label, field] : rows)
        form->addRow(label, field);
    column->addLayout(form);
    column->addStretch(); // rows stay together at the top, whatever the tallest page needs
    return widget;
}

} // namespace

TaskForm::TaskForm(QWidget *parent)
    : QWidget(parent)
    , m_name(new QLineEdit(this))
    , m_kind(new QComboBox(this))
    , m_pages(new QStackedWidget(this))
    , m_program(new QLineEdit(this))
    , m_programArguments(new ArgumentListEditor(this))
    , m_shell(new QPlainTextEdit(this))
    , m_connection(new QComboBox(this))
    , m_sql(new QPlainTextEdit(this))
    , m_sqlParameters(new ArgumentListEditor(this))
    , m_builtin(new QComboBox(this))
    , m_builtinArgument(new BuiltinArgumentForm(this))
    , m_builtinConnection(new QComboBox(this))
    , m_http(new HttpRequestForm(this))
    , m_subchain(new QComboBox(this))
    , m_workingDirectory(new QLineEdit(this))
    , m_timeout(new QSpinBox(this))
    , m_retries(new QSpinBox(this))
    , m_retryDelay(new QSpinBox(this))
    , m_ignoreError(new QCheckBox(tr("A failure does not fail the run"), this))
    , m_problem(new QLabel(this))
    , m_unapplied(new QLabel(this))
    , m_apply(new QPushButton(tr("&Apply"), this))
    , m_revert(new QPushButton(tr("Re&vert"), this))
{
    m_name->setObjectName(QStringLiteral("task.name"));
    m_kind->setObjectName(QStringLiteral("task.kind"));
    m_program->setObjectName(QStringLiteral("program.command"));
    m_programArguments->setObjectName(QStringLiteral("program.arguments"));
    m_shell->setObjectName(QStringLiteral("shell.command"));
    m_connection->setObjectName(QStringLiteral("sql.connection"));
    m_sql->setObjectName(QStringLiteral("sql.text"));
    m_builtin->setObjectName(QStringLiteral("builtin.name"));
    m_builtinConnection->setObjectName(QStringLiteral("builtin.connection"));
    m_subchain->setObjectName(QStringLiteral("subchain.path"));
    m_problem->setObjectName(QStringLiteral("validation"));
    m_apply->setObjectName(QStringLiteral("apply"));

    // Named for screen readers here: the form's labels point at the field's message wrapper.
    const std::initializer_list<std::pair<QWidget *, QString>> names{
        {m_name, tr("Task name")},
        {m_kind, tr("Task kind")},
        {m_program, tr("Program")},
        {m_programArguments, tr("Program arguments")},
        {m_shell, tr("Shell script")},
        {m_connection, tr("Database connection")},
        {m_sql, tr("SQL statement")},
        {m_sqlParameters, tr("SQL parameters")},
        {m_builtin, tr("Builtin")},
        {m_builtinArgument, tr("Builtin arguments")},
        {m_builtinConnection, tr("Database connection of the COPY")},
        {m_http, tr("HTTP request")},
        {m_subchain, tr("Chain to run")},
        {m_workingDirectory, tr("Working directory")},
        {m_timeout, tr("Timeout in seconds")},
        {m_retries, tr("Retries")},
        {m_retryDelay, tr("Retry delay in seconds")},
        {m_apply, tr("Apply")},
        {m_revert, tr("Revert")},
    };
    for (const auto &[widget, name] : names)
        widget->setAccessibleName(name);
    // Descriptions: what a field is for, for the tooltip and for screen readers.
    const std::initializer_list<std::pair<QWidget *, QString>> descriptions{
        {m_name, tr("Unique within the chain; no '/'")},
        {m_kind, tr("What the task runs: a program, a shell script, SQL, a builtin, an HTTP "
                    "request or another chain")},
        {m_program, tr("The program's path; it runs without a shell")},
        {m_shell, tr("Run by /bin/sh -c")},
        {m_sql, tr("One statement, run in its own transaction")},
        {m_connection, tr("The database the SQL runs on")},
        {m_builtin, tr("The builtin to run")},
        {m_builtinConnection, tr("The PostgreSQL database a COPY builtin runs on")},
        {m_subchain, tr("PROJECT/CHAIN, run as part of this one")},
        {m_workingDirectory, tr("Where the task runs; empty: the engine's directory")},
        {m_timeout, tr("Stopped after this many seconds; 0: never")},
        {m_retries, tr("How many more attempts after a failure")},
        {m_retryDelay, tr("Seconds before the first retry; each next one waits longer")},
        {m_ignoreError, tr("The run goes on as if this task had succeeded")},
    };
    for (const auto &[widget, description] : descriptions)
        widget->setToolTip(description);
    // The list inside an argument editor is what a screen reader lands on.
    m_programArguments->list()->setAccessibleName(tr("Program arguments"));
    m_sqlParameters->list()->setAccessibleName(tr("SQL parameters"));

    const QFont fixed = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    m_shell->setFont(fixed);
    m_sql->setFont(fixed);
    TabLeavesField::install(m_shell);
    TabLeavesField::install(m_sql);
    m_program->setPlaceholderText(QStringLiteral("/usr/bin/program"));
    m_shell->setPlaceholderText(tr("Shell script, run by /bin/sh -c"));
    m_sql->setPlaceholderText(tr("SQL statements, run all or nothing; ? marks bind the "
                                 "parameters below (a single statement only)"));
    for (Builtin builtin : BuiltinArguments::all())
        m_builtin->addItem(enumName(builtin), int(builtin));
    m_subchain->setEditable(true);
    m_subchain->installEventFilter(this);
    for (TaskKind kind : {TaskKind::Program, TaskKind::Shell, TaskKind::Sql, TaskKind::Builtin,
                          TaskKind::Http, TaskKind::Subchain})
        m_kind->addItem(enumName(kind), int(kind));

    // In TaskKind order. Each field carries the label its validation message shows in.
    m_pages->addWidget(page(
        this,
        {{tr("Program:"), withMessage(m_program, TaskValidator::commandField, TaskKind::Program)},
         {tr("Arguments:"),
          withMessage(m_programArguments, TaskValidator::argumentsField, TaskKind::Program)}}));
    m_pages->addWidget(page(this, {{tr("Script:"), withMessage(m_shell, TaskValidator::commandField,
                                                               TaskKind::Shell)}}));
    m_pages->addWidget(
        page(this, {{tr("Connection:"), withMessage(m_connection, TaskValidator::connectionField)},
                    {tr("SQL:"), withMessage(m_sql, TaskValidator::commandField, TaskKind::Sql)},
                    {tr("Parameters:"),
                     withMessage(m_sqlParameters, TaskValidator::argumentsField, TaskKind::Sql)}}));
    m_pages->addWidget(page(
        this, {{tr("Builtin:"), m_builtin},
               {tr("Argument:"),
                withMessage(m_builtinArgument, TaskValidator::argumentsField, TaskKind::Builtin)},
               {tr("COPY on:"), withMessage(m_builtinConnection, TaskValidator::connectionField,
                                            TaskKind::Builtin)}}));
    QWidget *http = withMessage(m_http, TaskValidator::argumentsField, TaskKind::Http);
    // The URL is part of the HTTP form: a bad one is shown under it too.
    m_messages.insert(messageKey(TaskValidator::commandField, TaskKind::Http),
                      m_messages.value(messageKey(TaskValidator::argumentsField, TaskKind::Http)));
    m_pages->addWidget(http);
    m_pages->addWidget(
        page(this, {{tr("Chain to run:"),
                     withMessage(m_subchain, TaskValidator::commandField, TaskKind::Subchain)}}));

    m_pages->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);
    m_problem->setWordWrap(true);
    m_problem->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_unapplied->setObjectName(QStringLiteral("task.unapplied"));
    m_unapplied->setText(tr("Unapplied changes"));
    m_unapplied->setToolTip(tr("The form differs from the stored task. Apply (Enter) stores it, "
                               "Revert shows the stored task again."));
    QFont bold = m_unapplied->font();
    bold.setBold(true);
    m_unapplied->setFont(bold);
    m_unapplied->hide();
    m_apply->setDefault(true);
    m_apply->setToolTip(tr("Store the task as the form shows it (Enter)"));
    m_revert->setToolTip(tr("Show the stored task again, dropping the edits"));

    auto *top = new QFormLayout;
    top->setRowWrapPolicy(QFormLayout::WrapLongRows);
    // The label's buddy is the field, not the column holding it and its message: Alt+N
    // reached nothing (helper-13).
    auto *nameLabel = new QLabel(tr("&Name:"), this);
    nameLabel->setBuddy(m_name);
    top->addRow(nameLabel, withMessage(m_name, TaskValidator::nameField));
    top->addRow(tr("&Kind:"), m_kind);
    auto *fields = new QWidget(this);
    auto *fieldColumn = new QVBoxLayout(fields);
    fieldColumn->addLayout(top);
    fieldColumn->addWidget(m_pages);
    fieldColumn->addWidget(buildCommonFields());
    fieldColumn->addStretch();
    auto *scroll = new QScrollArea(this);
    scroll->setObjectName(QStringLiteral("task.fields"));
    scroll->setAccessibleName(tr("Task fields"));
    scroll->setAccessibleDescription(tr("The selected task's fields; Enter applies them"));
    scroll->setWidget(fields);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    // Its fields take the focus, and it scrolls to the one that has it: no Tab stop of its own.
    scroll->setFocusPolicy(Qt::NoFocus);
    // Fields narrow with the pane rather than scroll sideways, down to what they need: the
    // splitter then takes room from the canvas, not from the fields (1024 px windows).
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    scroll->setMinimumWidth(fields->minimumSizeHint().width()
                            + style()->pixelMetric(QStyle::PM_ScrollBarExtent));
    // The wheel scrolls the form; it changes a number or a choice only in the field that has
    // the focus (scrolling over Retries set it to 3 and marked the task changed; helper-13).
    m_scroll = scroll->verticalScrollBar();
    for (QWidget *field : fields->findChildren<QWidget *>()) {
        if (qobject_cast<QAbstractSpinBox *>(field) || qobject_cast<QComboBox *>(field)) {
            field->setFocusPolicy(Qt::StrongFocus);
            field->installEventFilter(this);
        }
    }
    // Below the scrolling fields, so the buttons and the unapplied mark are always seen.
    auto *buttons = new QHBoxLayout;
    buttons->addWidget(m_unapplied);
    buttons->addWidget(m_problem, 1);
    buttons->addWidget(m_revert);
    buttons->addWidget(m_apply);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(scroll, 1);
    layout->addLayout(buttons);
    for (const QKeySequence &keys :
         {QKeySequence(Qt::CTRL | Qt::Key_Return), QKeySequence(Qt::CTRL | Qt::Key_Enter)}) {
        auto *shortcut = new QShortcut(keys, this, this, &TaskForm::apply);
        shortcut->setContext(Qt::WidgetWithChildrenShortcut);
    }

    connect(m_kind, &QComboBox::currentIndexChanged, m_pages, &QStackedWidget::setCurrentIndex);
    connect(m_builtin, &QComboBox::currentIndexChanged, this, [this] {
        if (m_loading)
            return;
        const Builtin builtin = currentBuiltin();
        m_builtinArgument->show(builtin,
                                JsonFieldReader::parseObject(BuiltinArguments::example(builtin))
                                    .value_or(QJsonObject()));
        m_builtinConnection->setEnabled(BuiltinArguments::isCopy(builtin));
    });
    const auto changed = [this] {
        validate();
    };
    connect(m_name, &QLineEdit::textChanged, this, changed);
    connect(m_kind, &QComboBox::currentIndexChanged, this, changed);
    connect(m_program, &QLineEdit::textChanged, this, changed);
    connect(m_programArguments, &ArgumentListEditor::changed, this, changed);
    connect(m_shell, &QPlainTextEdit::textChanged, this, changed);
    connect(m_connection, &QComboBox::currentIndexChanged, this, changed);
    connect(m_sql, &QPlainTextEdit::textChanged, this, changed);
    connect(m_sqlParameters, &ArgumentListEditor::changed, this, changed);
    connect(m_builtin, &QComboBox::currentIndexChanged, this, changed);
    connect(m_builtinArgument, &BuiltinArgumentForm::changed, this, changed);
    connect(m_builtinConnection, &QComboBox::currentIndexChanged, this, changed);
    connect(m_http, &HttpRequestForm::changed, this, changed);
    connect(m_subchain, &QComboBox::currentTextChanged, this, changed);
    connect(m_workingDirectory, &QLineEdit::textChanged, this, changed);
    connect(m_timeout, &QSpinBox::valueChanged, this, changed);
    connect(m_retries, &QSpinBox::valueChanged, this, changed);
    connect(m_retryDelay, &QSpinBox::valueChanged, this, changed);
    connect(m_ignoreError, &QCheckBox::toggled, this, changed);
    connect(m_apply, &QPushButton::clicked, this, &TaskForm::apply);
    connect(m_revert, &QPushButton::clicked, this, &TaskForm::revert);
    clear();
}

QWidget *TaskForm::buildCommonFields()
{
    auto *box = new QGroupBox(tr("Run"), this);
    m_workingDirectory->setPlaceholderText(tr("(the engine's directory)"));
    m_timeout->setRange(0, 7 * 86400);
    m_timeout->setSuffix(tr(" s"));
    m_timeout->setSpecialValueText(tr("none"));
    m_retries->setRange(0, 100);
    m_retryDelay->setRange(0, 86400);
    m_retryDelay->setSuffix(tr(" s"));
    auto *form = new QFormLayout(box);
    form->setRowWrapPolicy(QFormLayout::WrapLongRows);
    form->addRow(tr("Working directory:"), m_workingDirectory);
    form->addRow(tr("Timeout:"), m_timeout);
    form->addRow(tr("Retries:"), m_retries);
    form->addRow(tr("Retry delay:"), withMessage(m_retryDelay, TaskValidator::limitsField));
    form->addRow(QString(), m_ignoreError);
    return box;
}

QString TaskForm::messageKey(const QString &fieldName, TaskKind kind)
{
    return fieldName + QLatin1Char('/') + enumName(kind);
}

QWidget *TaskForm::withMessage(QWidget *field, const QString &fieldName, TaskKind kind)
{
    return withMessage(field, messageKey(fieldName, kind));
}

QWidget *TaskForm::withMessage(QWidget *field, const QString &fieldName)
{
    auto *column = new QWidget(this);
    auto *layout = new QVBoxLayout(column);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(field);
    auto *message = new QLabel(column);
    message->setObjectName(QStringLiteral("message.") + fieldName);
    message->setWordWrap(true);
    message->setTextInteractionFlags(Qt::TextSelectableByMouse);
    message->setStyleSheet(QStringLiteral("color: %1;").arg(StatePresentation::errorText().name()));
    message->hide();
    layout->addWidget(message);
    m_messages.insert(fieldName, FieldMessage{field, message});
    return column;
}

void TaskForm::setChoices(const QStringList &connectionNames,
                          std::function<QStringList()> chainPaths)
{
    const QSignalBlocker a(m_connection), b(m_subchain), c(m_builtinConnection);
    for (QComboBox *box : {m_connection, m_builtinConnection}) {
        box->clear();
        box->addItem(tr("(the store itself)"), QString());
        for (const QString &name : connectionNames)
            box->addItem(name, name);
    }
    const QString text = m_subchain->currentText();
    m_subchain->clear();
    m_subchain->setCurrentText(text);
    m_chainPaths = std::move(chainPaths);
}

void TaskForm::fillSubchainChoices()
{
    if (!m_chainPaths)
        return;
    const QStringList paths = std::exchange(m_chainPaths, {})();
    const QSignalBlocker blocker(m_subchain);
    const QString text = m_subchain->currentText();
    m_subchain->addItems(paths);
    m_subchain->setCurrentText(text); // the field keeps what it showed or the user typed
}

bool TaskForm::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_subchain && event->type() == QEvent::FocusIn)
        fillSubchainChoices();
    if (event->type() == QEvent::Wheel && watched->isWidgetType()
        && !static_cast<QWidget *>(watched)->hasFocus()) {
        QCoreApplication::sendEvent(m_scroll, event);
        return true;
    }
    return QWidget::eventFilter(watched, event);
}

void TaskForm::clear()
{
    // Every field emptied, not the name alone: the disabled form showed another chain's task,
    // or a deleted task's script (issue 34).
    showTask(Task());
    m_original = Task();
    setEnabled(false);
    showMessage(Error());
    m_problem->setText(tr("Select a task on the canvas, or add one."));
    m_apply->setEnabled(false);
    m_revert->setEnabled(false);
    if (std::exchange(m_differs, false))
        Q_EMIT unappliedChangesChanged(false);
    m_unapplied->hide();
}

void TaskForm::showTask(const Task &task)
{
    // Another task starts at the top of its fields (they stayed scrolled from the last one,
    // the name out of view; helper-13); the same one shown again keeps its place.
    if (m_scroll != nullptr && (task.id != m_original.id || task.id == 0))
        m_scroll->setValue(0);
    m_original = task;
    m_loading = true;
    setEnabled(true);
    m_name->setText(task.name);
    m_kind->setCurrentIndex(m_kind->findData(int(task.kind)));
    m_pages->setCurrentIndex(m_kind->currentIndex());
    m_program->clear();
    m_programArguments->setArguments({});
    m_shell->clear();
    m_sql->clear();
    m_sqlParameters->setArguments({});
    const QJsonObject argument =
        JsonFieldReader::parseObject(task.arguments.value(0)).value_or(QJsonObject());
    switch (task.kind) {
    case TaskKind::Program:
        m_program->setText(task.command);
        m_programArguments->setArguments(task.arguments);
        break;
    case TaskKind::Shell:
        m_shell->setPlainText(task.command);
        break;
    case TaskKind::Sql:
        m_sql->setPlainText(task.command);
        m_sqlParameters->setArguments(task.arguments);
        m_connection->setCurrentIndex(std::max(0, m_connection->findData(task.connectionName)));
        break;
    case TaskKind::Builtin:
        m_builtin->setCurrentText(task.command);
        m_builtinConnection->setCurrentIndex(
            std::max(0, m_builtinConnection->findData(task.connectionName)));
        break;
    case TaskKind::Http:
        m_http->show(task.command, argument);
        break;
    case TaskKind::Subchain:
        m_subchain->setCurrentText(task.command);
        break;
    }
    m_builtinArgument->show(currentBuiltin(),
                            task.kind == TaskKind::Builtin ? argument : QJsonObject());
    m_builtinConnection->setEnabled(BuiltinArguments::isCopy(currentBuiltin()));
    m_workingDirectory->setText(task.workingDirectory);
    m_timeout->setValue(task.timeoutSeconds);
    m_retries->setValue(task.maxRetries);
    m_retryDelay->setValue(task.retryDelaySeconds);
    m_ignoreError->setChecked(task.ignoreError);
    m_loading = false;
    m_shown = this->task();
    validate();
}

Task TaskForm::task() const
{
    Task task = m_original;
    task.name = m_name->text().trimmed();
    task.kind = TaskKind(m_kind->currentData().toInt());
    task.arguments.clear();
    task.connectionName.clear();
    switch (task.kind) {
    case TaskKind::Program:
        task.command = m_program->text().trimmed();
        task.arguments = m_programArguments->arguments();
        break;
    case TaskKind::Shell:
        task.command = m_shell->toPlainText();
        break;
    case TaskKind::Sql:
        task.command = m_sql->toPlainText();
        task.arguments = m_sqlParameters->arguments();
        task.connectionName = m_connection->currentData().toString();
        break;
    case TaskKind::Builtin:
        task.command = enumName(currentBuiltin());
        task.arguments = QStringList{m_builtinArgument->argumentText()};
        // A COPY builtin's database: cleared with the rest, it would run on the store instead.
        if (BuiltinArguments::isCopy(currentBuiltin()))
            task.connectionName = m_builtinConnection->currentData().toString();
        break;
    case TaskKind::Http:
        task.command = m_http->url();
        task.arguments = QStringList{
            QString::fromUtf8(QJsonDocument(m_http->request()).toJson(QJsonDocument::Compact))};
        break;
    case TaskKind::Subchain:
        task.command = m_subchain->currentText().trimmed();
        break;
    }
    task.workingDirectory = m_workingDirectory->text().trimmed();
    task.timeoutSeconds = m_timeout->value();
    task.maxRetries = m_retries->value();
    task.retryDelaySeconds = m_retryDelay->value();
    task.ignoreError = m_ignoreError->isChecked();
    return task;
}

Builtin TaskForm::currentBuiltin() const
{
    return Builtin(m_builtin->currentData().toInt());
}

void TaskForm::validate()
{
    if (m_loading || m_original.id == 0)
        return;
    const Task edited = task();
    const Status valid = TaskValidator::validate(edited);
    showMessage(valid ? Error() : valid.error());
    // Apply only what differs and is valid; Revert whenever something differs. Compared with
    // the form as it first showed the task, not with the stored text: a builtin's or an HTTP
    // request's JSON comes back from its fields written another way ({"seconds": 2} as 2.0),
    // which is no edit.
    const bool differs = edited.name != m_shown.name || edited.kind != m_shown.kind
                         || edited.command != m_shown.command
                         || edited.arguments != m_shown.arguments
                         || edited.connectionName != m_shown.connectionName
                         || edited.workingDirectory != m_shown.workingDirectory
                         || edited.timeoutSeconds != m_shown.timeoutSeconds
                         || edited.maxRetries != m_shown.maxRetries
                         || edited.retryDelaySeconds != m_shown.retryDelaySeconds
                         || edited.ignoreError != m_shown.ignoreError;
    m_apply->setEnabled(valid && differs);
    m_revert->setEnabled(differs);
    m_unapplied->setVisible(differs);
    if (std::exchange(m_differs, differs) != differs)
        Q_EMIT unappliedChangesChanged(differs);
}

void TaskForm::showMessage(const Error &error)
{
    m_message = error.message;
    for (const FieldMessage &shown : std::as_const(m_messages)) {
        shown.label->hide();
        shown.field->setAccessibleDescription(QString());
    }
    m_problem->clear();
    if (error.message.isEmpty())
        return;
    const TaskKind kind = TaskKind(m_kind->currentData().toInt());
    const FieldMessage beside =
        m_messages.value(messageKey(error.field, kind), m_messages.value(error.field));
    QLabel *label = beside.label ? beside.label : m_problem;
    label->setText(error.message);
    label->show();
    // The field a message is about tells a screen reader, too.
    if (beside.field)
        beside.field->setAccessibleDescription(error.message);
}

void TaskForm::showProblem(const QString &message)
{
    showMessage(Error::invalid(message));
}

QString TaskForm::problem() const
{
    return m_message.isEmpty() ? m_problem->text() : m_message;
}

bool TaskForm::canApply() const
{
    return m_apply->isEnabled();
}

void TaskForm::apply()
{
    if (canApply())
        Q_EMIT applyRequested(task());
}

void TaskForm::focusFirstField()
{
    m_name->setFocus(Qt::OtherFocusReason);
    m_name->selectAll();
    // In view too: with the form scrolled down, a new task's name was typed out of sight
    // (focus given in code does not scroll as Tab does; issue 34).
    if (auto *scroll = findChild<QScrollArea *>(QStringLiteral("task.fields")))
        scroll->ensureWidgetVisible(m_name);
}

void TaskForm::revert()
{
    if (m_original.id != 0)
        showTask(m_original);
}

void TaskForm::keyPressEvent(QKeyEvent *event)
{
    // Line edits, spin boxes and closed combo boxes pass Enter on: it applies, as in a dialog.
    if ((event->key() == Qt::Key_Return || event->key() == Qt::Key_Enter) && canApply()) {
        apply();
        return;
    }
    if (event->key() == Qt::Key_Escape) {
        Q_EMIT canvasRequested(); // the edits stay, marked, until applied or reverted
        return;
    }
    QWidget::keyPressEvent(event);
}

} // namespace hg
