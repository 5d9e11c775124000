#include "pgtimetableconverter.h"

#include "cron/cronexpression.h"
#include "domain/schedule.h"
#include "pgtimetablebuiltins.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>

#include <cmath>

namespace hg {
namespace {

QString taskLabel(const PgtTask &task, qsizetype index)
{
    return task.name.isEmpty() ? QStringLiteral("task-%1").arg(index + 1) : task.name;
}

// A parameter row as the arguments of one task: pg_timetable passes a JSON array to SQL
// ($1, $2, …) and PROGRAM (argv) tasks.
Result<QJsonArray> argumentsOf(const QString &parameter, const QString &label)
{
    const QJsonDocument document = QJsonDocument::fromJson(parameter.toUtf8());
    if (!document.isArray())
        return Error::invalid(PgTimetableConverter::tr("task %1: its parameter %2 is not a JSON "
                                                       "array")
                                  .arg(label, parameter));
    QJsonArray arguments;
    const QJsonArray values = document.array();
    for (const auto &value : values)
        arguments << (value.isString()
                          ? value.toString()
                          : QString::fromUtf8(
                                QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact))
                                .mid(1)
                                .chopped(1));
    return arguments;
}

} // namespace

Result<QJsonObject> PgTimetableConverter::toDocument(const PgtChain &chain, const QString &project,
                                                     const QString &remoteName,
                                                     const QString &timeZone,
                                                     const ImportOptions &options)
{
    const PgTimetableBuiltins::Import import{remoteName, options.keepPassword, options.notes};
    QString previousName;
    bool previousIgnoresErrors = false;
    QJsonArray tasks;
    QJsonArray dependencies;
    QSet<QString> names;
    // pg_timetable runs a task once per parameter row, in order, and stops at the first that
    // fails (a program too: ExecuteProgramCommand returns at the first non-zero exit): here, a
    // task per row, one after another.
    QList<PgtTask> expanded;
    for (qsizetype i = 0; i < chain.tasks.size(); ++i) {
        const PgtTask &task = chain.tasks.at(i);
        if (task.parameters.size() <= 1) {
            expanded << task;
            continue;
        }
        const QString label = taskLabel(task, i);
        for (qsizetype row = 0; row < task.parameters.size(); ++row) {
            PgtTask one = task;
            one.name = QStringLiteral("%1-%2").arg(label).arg(row + 1);
            one.parameters = QStringList{task.parameters.at(row)};
            expanded << one;
        }
        if (options.notes)
            *options.notes << tr("task %1: its %2 parameter rows run as tasks %1-1 to %1-%2, one "
                                 "after another")
                                  .arg(label)
                                  .arg(task.parameters.size());
    }
    for (qsizetype i = 0; i < expanded.size(); ++i) {
        const PgtTask &task = expanded.at(i);
        QString label = taskLabel(task, i);
        if (names.contains(label))
            label = QStringLiteral("%1-%2").arg(label).arg(i + 1);
        names.insert(label);
        if (!task.databaseConnection.isEmpty())
            return Error::invalid(tr("task %1: it runs on another database (database_connection); "
                                     "add that database as a connection first")
                                      .arg(label));
        QJsonObject object{
            {QStringLiteral("name"), label},
            {QStringLiteral("ignoreError"), task.ignoreError},
            {QStringLiteral("autonomous"), task.autonomous},
            {QStringLiteral("timeoutSeconds"), int(std::ceil(task.timeoutMs / 1000.0))}};
        QList<QJsonObject> made;
        if (task.kind == QLatin1String("BUILTIN")) {
            Result<QList<QJsonObject>> builtin =
                PgTimetableBuiltins::toHourglass(task, label, object, import);
            if (!builtin)
                return builtin.error();
            made = builtin.value();
        } else {
            QJsonArray arguments;
            if (!task.parameters.isEmpty()) {
                Result<QJsonArray> parsed = argumentsOf(task.parameters.constFirst(), label);
                if (!parsed)
                    return parsed.error();
                arguments = parsed.value();
            }
            const bool sql = task.kind == QLatin1String("SQL");
            object.insert(QStringLiteral("kind"),
                          sql ? QStringLiteral("sql") : QStringLiteral("program"));
            object.insert(QStringLiteral("command"), task.command);
            object.insert(QStringLiteral("arguments"), arguments);
            if (sql)
                object.insert(QStringLiteral("connection"), remoteName);
            made << object;
        }
        // One after another, as pg_timetable runs them (a Download of several URLs is several).
        for (const QJsonObject &one : std::as_const(made)) {
            const QString name = one.value(QStringLiteral("name")).toString();
            if (!previousName.isEmpty())
                dependencies << QJsonObject{
                    {QStringLiteral("task"), name},
                    {QStringLiteral("upstream"), previousName},
                    {QStringLiteral("when"), previousIgnoresErrors ? QStringLiteral("completion")
                                                                   : QStringLiteral("success")}};
            names.insert(name);
            tasks << one;
            previousName = name;
            previousIgnoresErrors = task.ignoreError;
        }
    }
    QJsonArray schedules;
    if (!chain.runAt.isEmpty()) {
        const ScheduleKind kind = inferScheduleKind(chain.runAt);
        schedules << QJsonObject{{QStringLiteral("kind"), enumName(kind)},
                                 {QStringLiteral("expression"), chain.runAt},
                                 {QStringLiteral("dialect"), QStringLiteral("pgtimetable")},
                                 {QStringLiteral("timeZone"), timeZone},
                                 {QStringLiteral("enabled"), true}};
    }
    const QJsonObject chainObject{
        {QStringLiteral("name"), chain.name},
        {QStringLiteral("description"),
         tr("Imported from pg_timetable (remote '%1', chain %2)").arg(remoteName).arg(chain.id)},
        {QStringLiteral("enabled"), chain.live},
        {QStringLiteral("maxInstances"), chain.maxInstances.value_or(0)},
        {QStringLiteral("timeoutSeconds"), int(std::ceil(chain.timeoutMs / 1000.0))},
        {QStringLiteral("selfDestruct"), chain.selfDestruct},
        {QStringLiteral("exclusive"), chain.exclusive},
        {QStringLiteral("client"), chain.clientName},
        {QStringLiteral("tasks"), tasks},
        {QStringLiteral("dependencies"), dependencies},
        {QStringLiteral("schedules"), schedules}};
    return QJsonObject{
        {QStringLiteral("format"), QStringLiteral("hourglass-export")},
        {QStringLiteral("version"), 1},
        {QStringLiteral("connections"), QJsonArray()},
        {QStringLiteral("projects"),
         QJsonArray{QJsonObject{{QStringLiteral("name"), project},
                                {QStringLiteral("chains"), QJsonArray{chainObject}}}}}};
}

Result<PgtChain> PgTimetableConverter::fromChainObject(const QJsonObject &object,
                                                       QStringList *notes)
{
    PgtChain chain;
    chain.name = object.value(QStringLiteral("name")).toString();
    chain.live = object.value(QStringLiteral("enabled")).toBool(true);
    if (const int maxInstances = object.value(QStringLiteral("maxInstances")).toInt();
        maxInstances > 0)
        chain.maxInstances = maxInstances;
    chain.timeoutMs = object.value(QStringLiteral("timeoutSeconds")).toInt() * 1000;
    chain.selfDestruct = object.value(QStringLiteral("selfDestruct")).toBool();
    chain.exclusive = object.value(QStringLiteral("exclusive")).toBool();
    chain.clientName = object.value(QStringLiteral("client")).toString();

    const QJsonArray schedules = object.value(QStringLiteral("schedules")).toArray();
    if (schedules.size() > 1)
        return Error::invalid(tr("chain %1 has %2 schedules; a pg_timetable chain has one")
                                  .arg(chain.name)
                                  .arg(schedules.size()));
    if (!schedules.isEmpty()) {
        const QString expression =
            schedules.at(0).toObject().value(QStringLiteral("expression")).toString();
        const Result<CronExpression> parsed =
            CronExpression::parse(expression, CronDialect::PgTimetable);
        if (!parsed)
            return Error::invalid(tr("chain %1: its schedule '%2' is not a pg_timetable "
                                     "schedule: %3")
                                      .arg(chain.name, expression, parsed.error().message));
        chain.runAt = expression;
    }

    // Linear only: one first task, then each task the only successor of the one before.
    const QJsonArray tasks = object.value(QStringLiteral("tasks")).toArray();
    const QJsonArray dependencies = object.value(QStringLiteral("dependencies")).toArray();
    QHash<QString, QString> upstreamOf;
    QHash<QString, QString> downstreamOf;
    for (const auto &value : dependencies) {
        const QJsonObject dependency = value.toObject();
        const QString task = dependency.value(QStringLiteral("task")).toString();
        const QString upstream = dependency.value(QStringLiteral("upstream")).toString();
        if (upstreamOf.contains(task))
            return Error::invalid(tr("task %1 waits for two tasks (%2 and %3): pg_timetable "
                                     "chains are linear")
                                      .arg(task, upstreamOf.value(task), upstream));
        if (downstreamOf.contains(upstream))
            return Error::invalid(tr("task %1 starts two branches (%2 and %3) in parallel: "
                                     "pg_timetable chains are linear")
                                      .arg(upstream, downstreamOf.value(upstream), task));
        upstreamOf.insert(task, upstream);
        downstreamOf.insert(upstream, task);
    }
    QHash<QString, QJsonObject> byName;
    QString first;
    for (const auto &value : tasks) {
        const QJsonObject task = value.toObject();
        const QString name = task.value(QStringLiteral("name")).toString();
        byName.insert(name, task);
        if (!upstreamOf.contains(name)) {
            if (!first.isEmpty())
                return Error::invalid(tr("tasks %1 and %2 both start the chain, in parallel: "
                                         "pg_timetable chains are linear")
                                          .arg(first, name));
            first = name;
        }
    }
    double order = 10;
    for (QString name = first; !name.isEmpty(); name = downstreamOf.value(name), order += 10) {
        const QJsonObject task = byName.value(name);
        const QString kind = task.value(QStringLiteral("kind")).toString();
        PgtTask out;
        out.order = order;
        out.name = name;
        out.ignoreError = task.value(QStringLiteral("ignoreError")).toBool();
        out.autonomous = task.value(QStringLiteral("autonomous")).toBool();
        out.timeoutMs = task.value(QStringLiteral("timeoutSeconds")).toInt() * 1000;
        if (task.value(QStringLiteral("maxRetries")).toInt() > 0)
            return Error::invalid(tr("task %1 retries on failure: pg_timetable has no per-task "
                                     "retries")
                                      .arg(name));
        if (!task.value(QStringLiteral("environment")).toObject().isEmpty()
            || !task.value(QStringLiteral("workingDirectory")).toString().isEmpty())
            return Error::invalid(tr("task %1 sets its environment or working directory: "
                                     "pg_timetable cannot")
                                      .arg(name));
        const QJsonArray arguments = task.value(QStringLiteral("arguments")).toArray();
        const QString argumentsJson =
            QString::fromUtf8(QJsonDocument(arguments).toJson(QJsonDocument::Compact));
        const QString command = task.value(QStringLiteral("command")).toString();
        if (kind == QLatin1String("sql")) {
            out.kind = QStringLiteral("SQL");
            out.command = command;
            if (!arguments.isEmpty())
                out.parameters << argumentsJson;
        } else if (kind == QLatin1String("program")) {
            out.kind = QStringLiteral("PROGRAM");
            out.command = command;
            if (!arguments.isEmpty())
                out.parameters << argumentsJson;
        } else if (kind == QLatin1String("shell")) {
            out.kind = QStringLiteral("PROGRAM");
            out.command = QStringLiteral("sh");
            out.parameters << QString::fromUtf8(
                QJsonDocument(QJsonArray{QStringLiteral("-c"), command})
                    .toJson(QJsonDocument::Compact));
        } else if (kind == QLatin1String("builtin")) {
            if (Status s = PgTimetableBuiltins::toPgTimetable(task, out, notes); !s)
                return s.error();
        } else {
            return Error::invalid(tr("task %1 is a %2 task: pg_timetable runs SQL, programs and "
                                     "its builtins")
                                      .arg(name, kind));
        }
        chain.tasks << out;
    }
    if (chain.tasks.size() != tasks.size())
        return Error::invalid(tr("chain %1: its tasks form a cycle").arg(chain.name));
    return chain;
}

} // namespace hg
