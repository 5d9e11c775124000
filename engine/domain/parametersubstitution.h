#pragma once

#include "domain/chain.h"
#include "domain/run.h"
#include "domain/task.h"

#include <QHash>
#include <QJsonValue>
#include <QString>

namespace hg {

// ${name} placeholders in what a task runs, replaced by the run's parameters: the chain's
// parameters, the run's own (--param K=V) over them, and the built-ins run.id,
// run.scheduled_for (ISO 8601, UTC) and chain.name over both.
//
// One pass over the text: a substituted value is never looked at again, so a value that
// itself contains ${…} arrives as written (and a parameter cannot expand into itself).
// An unknown name, or text that is not a placeholder (${}, ${a-b}, an unclosed ${a), stays
// as written, so a shell's own ${HOME} reaches the shell. There is no escape syntax: `$${a}`
// and `\${a}` are a literal `$` or `\` followed by the value of a, as they always were (an
// escape would change what existing commands mean).
class ParameterSubstitution final
{
public:
    ParameterSubstitution() = default;
    explicit ParameterSubstitution(QHash<QString, QString> values)
        : m_values(std::move(values))
    {}

    static ParameterSubstitution forRun(const Run &run, const Chain &chain);
    // A parameter's JSON value as the text that replaces its placeholder.
    static QString valueText(const QJsonValue &value);

    const QHash<QString, QString> &values() const { return m_values; }

    QString apply(const QString &text) const;
    // Inside the strings of a JSON value (nested objects and arrays too; keys stay as they
    // are), so a value with a quote or a backslash cannot break the JSON around it.
    QJsonValue applyJson(const QJsonValue &value) const;
    // The task as it runs: its command (never an SQL task's text: values reach SQL only as
    // bound parameters), its arguments (a BUILTIN's or HTTP task's JSON object argument
    // through applyJson(), anything else as text) and its environment values.
    Task applyTo(Task task) const;

private:
    QHash<QString, QString> m_values;
};

} // namespace hg
