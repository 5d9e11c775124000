#pragma once

#include "base/error.h"
#include "domain/builtinarguments.h"
#include "domain/task.h"

#include <QHash>
#include <QWidget>

#include <functional>

class QCheckBox;
class QComboBox;
class QKeyEvent;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;
class QScrollBar;
class QStackedWidget;

namespace hg {

class ArgumentListEditor;
class BuiltinArgumentForm;
class HttpRequestForm;

// The fields of one task, a page per kind (argv list for a program, script for a shell, SQL
// with its connection and parameters, a builtin's argument form, an HTTP request, a
// subchain's path). Every change is checked at once with the same validation the command
// line uses, and the message shows beside the field it is about. The fields scroll; the
// "unapplied changes" mark, Revert and Apply stay in view below them. Enter (Ctrl+Enter in a
// script) applies.
class TaskForm final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TaskForm)

public:
    explicit TaskForm(QWidget *parent = nullptr);

    // The choices of the connection and subchain pickers. The chain paths are read only when
    // the subchain field first takes focus: with 10,000 chains, reading and listing them all
    // at every chain opened stalled the window.
    void setChoices(const QStringList &connectionNames, std::function<QStringList()> chainPaths);
    void showTask(const Task &task);
    void clear();
    Task task() const;
    qint64 taskId() const { return m_original.id; }
    QString originalName() const { return m_original.name; }
    // A problem the store reported (a duplicate name, say), shown like a validation message.
    void showProblem(const QString &message);
    QString problem() const;
    // The form differs from the task it shows: the user has edits not yet applied.
    bool hasUnappliedChanges() const { return m_differs; }
    // The edits are valid and could be applied as they are.
    bool canApply() const;
    // Asks for the edit when it can be applied (as the Apply button does).
    void apply();
    // Shows the task as stored again, dropping the edits.
    void revert();
    // Keyboard focus to the name field (Enter on a canvas task).
    void focusFirstField();

Q_SIGNALS:
    void applyRequested(const hg::Task &task);
    void unappliedChangesChanged(bool unapplied);
    void canvasRequested(); // Esc: the user goes back to the canvas

protected:
    void keyPressEvent(QKeyEvent *event) override;
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void fillSubchainChoices();
    QWidget *buildCommonFields();
    QWidget *withMessage(QWidget *field, const QString &fieldName, TaskKind kind);
    QWidget *withMessage(QWidget *field, const QString &fieldName);
    void validate();
    void showMessage(const Error &error);
    Builtin currentBuiltin() const;

    Task m_original;
    Task m_shown; // the task as the form first rendered it: what "unapplied" is measured from
    bool m_loading = false;
    QLineEdit *m_name;
    QComboBox *m_kind;
    QStackedWidget *m_pages;
    QScrollBar *m_scroll = nullptr; // the fields' scroll bar: a wheel over an unfocused field
    QLineEdit *m_program;
    ArgumentListEditor *m_programArguments;
    QPlainTextEdit *m_shell;
    QComboBox *m_connection;
    QPlainTextEdit *m_sql;
    ArgumentListEditor *m_sqlParameters;
    QComboBox *m_builtin;
    BuiltinArgumentForm *m_builtinArgument;
    QComboBox *m_builtinConnection;
    HttpRequestForm *m_http;
    QComboBox *m_subchain;
    std::function<QStringList()> m_chainPaths; // until the subchain field first takes focus
    QLineEdit *m_workingDirectory;
    QSpinBox *m_timeout;
    QSpinBox *m_retries;
    QSpinBox *m_retryDelay;
    QCheckBox *m_ignoreError;
    QLabel *m_problem;
    QLabel *m_unapplied;
    QPushButton *m_apply;
    QPushButton *m_revert;
    // The message label under each field, by validator field name and, where a field name
    // means a different widget per kind (the command), by kind too (messageKey).
    struct FieldMessage
    {
        QWidget *field = nullptr;
        QLabel *label = nullptr;
    };
    static QString messageKey(const QString &fieldName, TaskKind kind);
    QHash<QString, FieldMessage> m_messages;
    QString m_message; // what is shown, wherever it is shown
    bool m_differs = false;
};

} // namespace hg
