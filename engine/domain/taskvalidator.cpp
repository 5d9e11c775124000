#include "taskvalidator.h"

#include "builtinarguments.h"
#include "chainpath.h"
#include "httprequestspec.h"
#include "jsonfieldreader.h"

#include <QRegularExpression>

#include <cmath>

namespace hg {
namespace {

// The message stays the command line's; the field tells a form where to show it.
Error inField(const QString &field, const QString &message)
{
    return Error::invalidField(field, 0, message);
}

Status validateKind(const Task &task)
{
    switch (task.kind) {
    case TaskKind::Builtin:
        if (const Result<BuiltinArguments> arguments =
                BuiltinArguments::parse(task.command, task.arguments.value(0));
            !arguments)
            return inField(TaskValidator::argumentsField,
                           QCoreApplication::translate("hg::TaskValidator", "task '%1': %2")
                               .arg(task.name, arguments.error().message));
        if (task.arguments.size() > 1)
            return inField(TaskValidator::argumentsField,
                           QCoreApplication::translate(
                               "hg::TaskValidator", "task '%1': a builtin takes one JSON argument")
                               .arg(task.name));
        break;
    case TaskKind::Http: {
        const std::optional<QJsonObject> request =
            JsonFieldReader::parseObject(task.arguments.value(0));
        if (!request || task.arguments.size() > 1)
            return inField(
                TaskValidator::argumentsField,
                QCoreApplication::translate(
                    "hg::TaskValidator", "task '%1': an http task takes one JSON argument with %2")
                    .arg(task.name, HttpRequestSpec::fieldNames().join(QLatin1String(", "))));
        if (const Result<HttpRequestSpec> spec =
                HttpRequestSpec::fromJson(*request, task.name, task.command);
            !spec)
            //: %1 is the task's name followed by the problem: "backup: 'x' is not a URL"
            return inField(TaskValidator::argumentsField,
                           QCoreApplication::translate("hg::TaskValidator", "task %1")
                               .arg(spec.error().message));
        break;
    }
    case TaskKind::Subchain:
        if (Result<ChainPath> path = ChainPath::parse(task.command); !path)
            return inField(
                TaskValidator::commandField,
                QCoreApplication::translate("hg::TaskValidator", "task '%1': subchain %2")
                    .arg(task.name, path.error().message));
        break;
    case TaskKind::Program:
    case TaskKind::Shell:
    case TaskKind::Sql:
        break;
    }
    return {};
}

} // namespace

Status TaskValidator::validate(const Task &task)
{
    if (Status name = validateName(QStringLiteral("task"), task.name); !name)
        return inField(nameField, name.error().message);
    const QString kind = enumName(task.kind);
    if (task.command.trimmed().isEmpty())
        return inField(commandField,
                       tr("task '%1': a %2 task needs a command").arg(task.name, kind));
    if (Status valid = validateKind(task); !valid)
        return valid;
    if (!task.connectionName.isEmpty() && task.kind != TaskKind::Sql
        && !(task.kind == TaskKind::Builtin && BuiltinArguments::isCopy(task.command)))
        return inField(
            connectionField,
            tr("task '%1': only sql tasks and the COPY builtins take a connection").arg(task.name));
    for (auto it = task.environment.begin(); it != task.environment.end(); ++it) {
        if (it.key().isEmpty() || it.key().contains(QLatin1Char('=')))
            return inField(environmentField,
                           tr("task '%1': bad environment name '%2'").arg(task.name, it.key()));
    }
    // Relative to what? The engine's own folder differs between the desktop, serve and a
    // service: a task would run somewhere else each time. (A Windows path from an imported
    // task is kept as imported; on Linux it fails when it starts, naming the folder.)
    static const QRegularExpression windowsAbsolute(QStringLiteral(R"(^([A-Za-z]:[\\/]|\\\\))"));
    if (!task.workingDirectory.isEmpty() && !task.workingDirectory.startsWith(QLatin1Char('/'))
        && !windowsAbsolute.match(task.workingDirectory).hasMatch())
        return inField(workingDirectoryField,
                       tr("task '%1': working folder '%2' is relative; give an absolute path")
                           .arg(task.name, task.workingDirectory));
    if (task.timeoutSeconds < 0 || task.maxRetries < 0 || task.retryDelaySeconds < 0)
        return inField(
            limitsField,
            tr("task '%1': timeout, retries and retry delay must not be negative").arg(task.name));
    // Delays grow as backoff^attempt: beyond 100 a third retry is already years away.
    if (!std::isfinite(task.retryBackoff) || task.retryBackoff < 1.0
        || task.retryBackoff > maximumRetryBackoff)
        return inField(limitsField, tr("task '%1': retry backoff must be between 1 and %2")
                                        .arg(task.name)
                                        .arg(maximumRetryBackoff));
    return {};
}

} // namespace hg
