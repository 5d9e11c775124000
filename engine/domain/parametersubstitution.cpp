#include "parametersubstitution.h"

#include "builtinarguments.h"
#include "domain/jsonfieldreader.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

namespace hg {

ParameterSubstitution ParameterSubstitution::forRun(const Run &run, const Chain &chain)
{
    QHash<QString, QString> values;
    for (auto it = chain.parameters.begin(); it != chain.parameters.end(); ++it)
        values.insert(it.key(), valueText(it.value()));
    for (auto it = run.parameters.begin(); it != run.parameters.end(); ++it)
        values.insert(it.key(), valueText(it.value()));
    values.insert(QStringLiteral("run.id"), QString::number(run.id));
    values.insert(QStringLiteral("run.scheduled_for"),
                  run.scheduledFor.toUTC().toString(Qt::ISODate));
    values.insert(QStringLiteral("chain.name"), chain.name);
    return ParameterSubstitution(std::move(values));
}

QString ParameterSubstitution::valueText(const QJsonValue &value)
{
    // An object or an array used to become an empty string (QVariant has no text for a map
    // or a list); its compact JSON is what anyone writing one would expect to see.
    if (value.isObject())
        return QString::fromUtf8(QJsonDocument(value.toObject()).toJson(QJsonDocument::Compact));
    if (value.isArray())
        return QString::fromUtf8(QJsonDocument(value.toArray()).toJson(QJsonDocument::Compact));
    return value.toVariant().toString(); // strings as they are, 3 not 3.0, null as ""
}

QString ParameterSubstitution::apply(const QString &text) const
{
    static const QRegularExpression placeholder(QStringLiteral("\\$\\{([A-Za-z0-9_.]+)\\}"));
    QString result;
    qsizetype last = 0;
    auto it = placeholder.globalMatch(text);
    while (it.hasNext()) {
        const QRegularExpressionMatch match = it.next();
        result += text.mid(last, match.capturedStart() - last);
        const auto value = m_values.constFind(match.captured(1));
        result += value != m_values.constEnd() ? value.value() : match.captured();
        last = match.capturedEnd();
    }
    return result + text.mid(last);
}

QJsonValue ParameterSubstitution::applyJson(const QJsonValue &value) const
{
    if (value.isString())
        return apply(value.toString());
    if (value.isArray()) {
        QJsonArray array;
        for (const QJsonValue item : value.toArray())
            array.append(applyJson(item));
        return array;
    }
    if (value.isObject()) {
        QJsonObject object = value.toObject();
        for (auto it = object.begin(); it != object.end(); ++it)
            it.value() = applyJson(it.value());
        return object;
    }
    return value;
}

Task ParameterSubstitution::applyTo(Task task) const
{
    const bool jsonArgument = task.kind == TaskKind::Builtin || task.kind == TaskKind::Http;
    if (task.kind != TaskKind::Sql)
        task.command = apply(task.command);
    // A COPY builtin's statement is SQL: never substituted, as an SQL task's is not (a
    // parameter "; DROP TABLE t" would have run as SQL, helper-7).
    const bool copy = task.kind == TaskKind::Builtin && BuiltinArguments::isCopy(task.command);
    for (QString &argument : task.arguments) {
        const std::optional<QJsonObject> json =
            jsonArgument ? JsonFieldReader::parseObject(argument) : std::nullopt;
        if (!json) {
            argument = apply(argument);
            continue;
        }
        QJsonObject substituted = applyJson(*json).toObject();
        if (copy && json->contains(QLatin1String("sql")))
            substituted.insert(QLatin1String("sql"), json->value(QLatin1String("sql")));
        argument = QString::fromUtf8(QJsonDocument(substituted).toJson(QJsonDocument::Compact));
    }
    for (auto it = task.environment.begin(); it != task.environment.end(); ++it)
        it.value() = apply(it.value().toString());
    return task;
}

} // namespace hg
