#pragma once

#include <QString>
#include <QStringList>

namespace hg {

// What the last check of a connection found, as the project tree shows it: the state as an
// icon, the detail as its tooltip, and a pg_timetable remote's chains (a DolphinScheduler
// remote's workflows, PROJECT/WORKFLOW; a pgAgent remote's jobs) as its children.
struct ConnectionCheck
{
    enum class State { Checking, Connected, ReadOnly, Failed };

    State state = State::Checking;
    QString detail; // the remote's summary, its read-only warning, or the exact error
    QStringList chains;
};

} // namespace hg
