#include "sendmailpasswords.h"

#include "channelsecrets.h"
#include "domain/builtinarguments.h"
#include "store/taskrepository.h"

#include <QJsonDocument>
#include <QJsonObject>

namespace hg {

QStringList SendMailPasswords::keysOf(const QList<Task> &tasks)
{
    QStringList keys;
    for (const Task &task : tasks) {
        if (task.kind != TaskKind::Builtin || task.command != enumName(Builtin::SendMail)
            || task.arguments.isEmpty())
            continue;
        const QString key = QJsonDocument::fromJson(task.arguments.constFirst().toUtf8())
                                .object()
                                .value(QLatin1String("passwordKey"))
                                .toString();
        // Only a SendMail's own kind of key: never a channel's, whatever the task says.
        if (key.startsWith(QLatin1String("hourglass-sendmail:")) && !keys.contains(key))
            keys << key;
    }
    return keys;
}

QStringList SendMailPasswords::forgetUnused(Store &store, const QStringList &keys)
{
    QStringList problems;
    const ChannelSecrets secrets;
    for (const QString &key : keys) {
        const Result<bool> named = TaskRepository(store).anyArgumentsHold(key);
        if (!named) {
            problems << key + QLatin1String(": ") + named.error().message;
            continue;
        }
        if (named.value())
            continue; // another task (a pg_timetable chain's next row) still sends with it
        if (const Status forgotten = secrets.forget(key); !forgotten)
            problems << key + QLatin1String(": ") + forgotten.error().message;
    }
    return problems;
}

} // namespace hg
