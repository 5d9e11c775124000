#pragma once

#include "domain/builtinarguments.h"
#include "domain/task.h"

#include <QWidget>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;
class QStackedWidget;

namespace hg {

class ArgumentListEditor;
class BuiltinArgumentForm;
class HttpRequestForm;

// The fields of one task, a page per kind (argv list for a program, script for a shell, SQL
// with its connection and parameters, a builtin's argument form, an HTTP request, a
// subchain's path). Every change is checked at once with the same validation the command
// line uses, and the message shows under the form; Apply asks for the edit.
class TaskForm final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TaskForm)

public:
    explicit TaskForm(QWidget *parent = nullptr);

    // The choices of the connection and subchain pickers.
    void setChoices(const QStringList &connectionNames, const QStringList &chainPaths);
    void showTask(const Task &task);
    void clear();
    Task task() const;
    qint64 taskId() const { return m_original.id; }
    // A problem the store reported (a duplicate name, say), shown like a validation message.
    void showProblem(const QString &message);
    QString problem() const;

Q_SIGNALS:
    void applyRequested(const hg::Task &task);

private:
    QWidget *buildCommonFields();
    void validate();
    Builtin currentBuiltin() const;

    Task m_original;
    bool m_loading = false;
    QLineEdit *m_name;
    QComboBox *m_kind;
    QStackedWidget *m_pages;
    QLineEdit *m_program;
    ArgumentListEditor *m_programArguments;
    QPlainTextEdit *m_shell;
    QComboBox *m_connection;
    QPlainTextEdit *m_sql;
    ArgumentListEditor *m_sqlParameters;
    QComboBox *m_builtin;
    BuiltinArgumentForm *m_builtinArgument;
    HttpRequestForm *m_http;
    QComboBox *m_subchain;
    QLineEdit *m_workingDirectory;
    QSpinBox *m_timeout;
    QSpinBox *m_retries;
    QSpinBox *m_retryDelay;
    QCheckBox *m_ignoreError;
    QLabel *m_problem;
    QPushButton *m_apply;
    QPushButton *m_revert;
};

} // namespace hg
