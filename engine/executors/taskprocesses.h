#pragma once

#include <QByteArray>
#include <QString>

#include <sys/types.h>

namespace hg {

// Everything a task started, found by something its processes cannot leave. A process group
// is not that: `setsid`, `setpgid` or a daemonising child leaves it, and outlived the task's
// timeout, stop and end. In force, the first that works here:
// - a cgroup v2 of the task's own, made under the engine's cgroup (where the engine may write
//   there: a delegated systemd user scope, or root); the child moves itself in between fork
//   and exec, and every descendant stays in it whatever it does;
// - else an environment token (HOURGLASS_TASK_TOKEN) that every descendant inherits: the
//   processes whose environment holds it are the task's (one that clears its environment
//   escapes this one; the README says so).
// Signals go to every process found, and the cgroup is removed once it is empty.
class TaskProcesses final
{
public:
    TaskProcesses();
    ~TaskProcesses();
    TaskProcesses(const TaskProcesses &) = delete;
    TaskProcesses &operator=(const TaskProcesses &) = delete;

    // For the environment of the task's first process.
    static QByteArray tokenName() { return QByteArrayLiteral("HOURGLASS_TASK_TOKEN"); }
    const QString &token() const { return m_token; }
    // Where the child writes "0" to move itself into the cgroup (empty: no cgroup). Kept as a
    // C string: the child may only make system calls between fork and exec.
    const char *cgroupProcsPath() const
    {
        return m_procsPath.isEmpty() ? nullptr : m_procsPath.constData();
    }
    bool usesCgroup() const { return !m_cgroup.isEmpty(); }
    // "cgroup /sys/fs/cgroup/…" or "environment token": which tracking is in force here.
    static QString mechanism();
    // Kills what is left in the task cgroups of engines of this host that died (SIGKILL, a
    // crash) and removes those cgroups. Done at an engine's start and exit, and when recovery
    // takes a dead engine's runs over: a task's child that left its process group is killed
    // then, not only once some engine next starts.
    static void reapDeadEngines();
    // This process's cgroup v2 folder (empty without the unified hierarchy).
    static QString ownCgroup();

    // Called once the first process runs: when it is in the cgroup, the cgroup alone is asked
    // from then on (no scan of /proc at every stop and end).
    void confirmMember(pid_t pid);
    // Sends `signal` to every process of the task; how many there were.
    int signalAll(int signal) const;

private:
    QList<pid_t> members() const;

    QString m_token;
    QString m_cgroup;        // the cgroup's folder, empty when none could be made
    QByteArray m_procsPath;  // m_cgroup + "/cgroup.procs", encoded for the child
    bool m_inCgroup = false; // the first process was seen in the cgroup
};

} // namespace hg
