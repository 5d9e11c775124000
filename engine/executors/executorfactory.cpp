#include "executorfactory.h"

#include "builtinexecutor.h"
#include "copydataexecutor.h"
#include "domain/builtinarguments.h"
#include "domain/jsonfieldreader.h"
#include "filecopyexecutor.h"
#include "httpexecutor.h"
#include "processexecutor.h"
#include "sendmailexecutor.h"
#include "sqlexecutor.h"
#include "store/connectionprofilerepository.h"
#include "store/store.h"
#include "subchainexecutor.h"

namespace hg {
namespace {

// A PROGRAM or SHELL task's process, or a COPY builtin's program (`program` given).
ProcessSpec processSpec(const ExecutorContext &context, const CopyDataArguments *program = nullptr)
{
    const Task &task = context.task;
    const EngineConfig &config = *context.config;
    ProcessSpec spec;
    if (program) {
        spec.program = program->program;
        spec.arguments = program->arguments;
    } else if (task.kind == TaskKind::Program) {
        spec.program = task.command;
        spec.arguments = task.arguments;
    } else {
        // Arguments become $1, $2 ... of the shell command.
        spec.program = QStringLiteral("/bin/sh");
        spec.arguments =
            QStringList{QStringLiteral("-c"), task.command, QStringLiteral("sh")} + task.arguments;
    }
    spec.workingDirectory = task.workingDirectory;
    spec.environment = config.baseEnvironment.isEmpty()
                           ? EngineConfig::safeEnvironment(QProcessEnvironment::systemEnvironment())
                           : config.baseEnvironment;
    spec.environment.insert(QStringLiteral("HOURGLASS_RUN_ID"), QString::number(context.run.id));
    spec.environment.insert(QStringLiteral("HOURGLASS_CHAIN"), context.chainName);
    spec.environment.insert(QStringLiteral("HOURGLASS_TASK"), task.name);
    spec.environment.insert(QStringLiteral("HOURGLASS_ATTEMPT"), QString::number(context.attempt));
    spec.environment.insert(QStringLiteral("HOURGLASS_SCHEDULED_FOR"),
                            context.run.scheduledFor.toUTC().toString(Qt::ISODate));
    // What started the run, also as variables: a file name from a drop folder substituted
    // into a shell task's text (${trigger.path}) is shell text, "$HOURGLASS_TRIGGER_PATH" is
    // a value. trigger.upstream_run -> HOURGLASS_TRIGGER_UPSTREAM_RUN.
    for (auto it = context.run.parameters.begin(); it != context.run.parameters.end(); ++it)
        if (it.key().startsWith(QLatin1String("trigger.")) && it.value().isString())
            spec.environment.insert(
                QStringLiteral("HOURGLASS_")
                    + it.key().toUpper().replace(QLatin1Char('.'), QLatin1Char('_')),
                it.value().toString());
    for (auto it = task.environment.begin(); it != task.environment.end(); ++it)
        spec.environment.insert(it.key(), it.value().toString());
    spec.timeoutMs = qint64(task.timeoutSeconds) * 1000;
    spec.graceMs = config.graceMs;
    spec.outputCapBytes = config.outputCapBytes;
    return spec;
}

std::unique_ptr<TaskExecutor> processExecutor(const ExecutorContext &context)
{
    return std::make_unique<ProcessExecutor>(processSpec(context));
}

// The database an SQL task or a COPY builtin runs on: its connection, or the store itself.
Result<SqlTarget> sqlTarget(const ExecutorContext &context)
{
    const Task &task = context.task;
    if (task.connectionName.isEmpty())
        return SqlTarget::forStore(context.store->location());
    const Result<ConnectionProfile> profile =
        ConnectionProfileRepository(*context.store).byName(task.connectionName);
    if (!profile)
        return profile.error();
    const QString password = context.config->secretLookup && !profile->keychainKey.isEmpty()
                                 ? context.config->secretLookup(profile->keychainKey)
                                 : QString();
    return SqlTarget::forProfile(profile.value(), password);
}

Result<std::unique_ptr<TaskExecutor>> builtinExecutor(const ExecutorContext &context)
{
    const Task &task = context.task;
    const qint64 timeoutMs = qint64(task.timeoutSeconds) * 1000;
    Result<BuiltinArguments> parsed =
        BuiltinArguments::parse(task.command, task.arguments.value(0));
    if (!parsed)
        return parsed.error();
    switch (parsed->builtin()) {
    case Builtin::HttpRequest:
        return std::unique_ptr<TaskExecutor>(
            std::make_unique<HttpExecutor>(parsed->as<HttpRequestSpec>(), timeoutMs));
    case Builtin::Download: {
        const DownloadArguments &download = parsed->as<DownloadArguments>();
        return std::unique_ptr<TaskExecutor>(std::make_unique<HttpExecutor>(
            download.request, timeoutMs,
            HttpExecutor::Download{download.destination, download.overwrite}));
    }
    case Builtin::CopyFile: {
        const CopyFileArguments &copy = parsed->as<CopyFileArguments>();
        return std::unique_ptr<TaskExecutor>(std::make_unique<FileCopyExecutor>(
            copy.source, copy.destination, copy.overwrite, timeoutMs));
    }
    case Builtin::SendMail:
        return std::unique_ptr<TaskExecutor>(std::make_unique<SendMailExecutor>(
            parsed->as<SendMailArguments>(), context.config->sendMail, timeoutMs));
    case Builtin::CopyFromFile:
    case Builtin::CopyToFile:
    case Builtin::CopyFromProgram:
    case Builtin::CopyToProgram: {
        const CopyDataArguments &copy = parsed->as<CopyDataArguments>();
        Result<SqlTarget> target = sqlTarget(context);
        if (!target)
            return target.error();
        std::optional<ProcessSpec> program;
        if (!copy.program.isEmpty())
            program = processSpec(context, &copy);
        return std::unique_ptr<TaskExecutor>(std::make_unique<CopyDataExecutor>(
            parsed->builtin(), copy, std::move(target.value()), std::move(program), timeoutMs));
    }
    case Builtin::NoOp:
    case Builtin::Sleep:
    case Builtin::Log:
    case Builtin::Notify:
        break;
    }
    return std::unique_ptr<TaskExecutor>(
        std::make_unique<BuiltinExecutor>(std::move(parsed.value()), timeoutMs));
}

Result<std::unique_ptr<TaskExecutor>> sqlExecutor(const ExecutorContext &context)
{
    const Task &task = context.task;
    Result<SqlTarget> target = sqlTarget(context);
    if (!target)
        return target.error();
    return std::unique_ptr<TaskExecutor>(
        std::make_unique<SqlExecutor>(std::move(target.value()), task.command, task.arguments,
                                      qint64(task.timeoutSeconds) * 1000));
}

Result<std::unique_ptr<TaskExecutor>> httpExecutor(const ExecutorContext &context)
{
    const Task &task = context.task;
    const std::optional<QJsonObject> request =
        JsonFieldReader::parseObject(task.arguments.value(0));
    if (!request)
        return Error::invalid(
            QStringLiteral("%1: the argument must be a JSON object").arg(task.name));
    Result<HttpRequestSpec> spec = HttpRequestSpec::fromJson(*request, task.name, task.command);
    if (!spec)
        return spec.error();
    return std::unique_ptr<TaskExecutor>(std::make_unique<HttpExecutor>(
        std::move(spec.value()), qint64(task.timeoutSeconds) * 1000));
}

} // namespace

Result<std::unique_ptr<TaskExecutor>> ExecutorFactory::create(const ExecutorContext &context)
{
    switch (context.task.kind) {
    case TaskKind::Program:
    case TaskKind::Shell:
        return processExecutor(context);
    case TaskKind::Builtin:
        return builtinExecutor(context);
    case TaskKind::Sql:
        return sqlExecutor(context);
    case TaskKind::Http:
        return httpExecutor(context);
    case TaskKind::Subchain:
        return std::unique_ptr<TaskExecutor>(
            std::make_unique<SubchainExecutor>(context.subchains, context.task.command, context.run,
                                               qint64(context.task.timeoutSeconds) * 1000));
    }
    return Error::invalid(QStringLiteral("unknown task kind"));
}

} // namespace hg
