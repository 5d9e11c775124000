#pragma once

#include "domain/task.h"

#include <QStringList>

namespace hg {

class Store;

// The SendMail passwords kept in the keychain for builtin tasks (ChannelSecrets::keepPassword,
// by `task add --password-stdin` and the pg_timetable import): forgotten with the last task
// that names them, so removing a task from the command line takes its password with it.
// (The window's removals can be undone, so they leave the password where it is.)
class SendMailPasswords final
{
public:
    // The keys the SendMail tasks among `tasks` name.
    static QStringList keysOf(const QList<Task> &tasks);
    // Forgets each key no task of the store names any more (read after the removal); what
    // could not be forgotten, said as "KEY: why".
    static QStringList forgetUnused(Store &store, const QStringList &keys);
};

} // namespace hg
