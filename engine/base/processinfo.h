#pragma once

#include <QString>

namespace hg::processinfo {

// The start time of a process in clock ticks since boot (/proc/PID/stat, field 22), or 0
// when it does not exist. With the pid it identifies a process across pid reuse.
qint64 startTicks(qint64 pid);
// A process's identity on this machine across pid reuse and reboots: "<boot id>/<start
// ticks>", empty when the process does not exist or is a zombie. Two calls agree exactly when they
// name the very same process.
QString identity(qint64 pid);
// Whether a process with this pid exists (zombies count as gone).
bool isAlive(qint64 pid);
// The command line of a process on this machine, its words joined by spaces and the program
// by its file name only ("hourglass --db x.db serve"); empty when it cannot be read.
QString commandLine(qint64 pid);
// Sends a signal to a whole process group; false when the group is gone.
bool signalGroup(qint64 processGroup, int signal);
// Kills the group of a crashed engine's task, if its leader is still the very process that was
// started (same start time), or is gone: Linux never hands out a pid while a group of that id
// lives, so a group without its leader is still the task's. A reused pid is left alone.
bool killGroupIfSameProcess(qint64 pid, qint64 expectedStartTicks);

} // namespace hg::processinfo
