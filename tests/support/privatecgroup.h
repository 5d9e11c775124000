#pragma once

#include <QByteArray>
#include <QString>

class QProcess;

namespace hg::test {

// A cgroup of a test's own under the engine's cgroup, for engines a test kills on purpose.
// Every engine of this host sweeps the task cgroups of dead engines beside its own (at start,
// at a takeover, at exit); engines of other tests running at the same time would kill a
// killed engine's orphans before the test could see who does. Engines started in here are
// swept only by each other. Removed (with the task cgroups left in it) when destroyed.
class PrivateCgroup
{
public:
    explicit PrivateCgroup(const QString &name);
    ~PrivateCgroup();
    PrivateCgroup(const PrivateCgroup &) = delete;
    PrivateCgroup &operator=(const PrivateCgroup &) = delete;

    // False where no writable cgroup v2 is (no task cgroups there either).
    bool isValid() const { return !m_folder.isEmpty(); }
    QString folder() const { return m_folder; }
    // The process moves itself in between fork and exec.
    void enter(QProcess &process) const;

private:
    QString m_folder;
    QByteArray m_procs;
};

} // namespace hg::test
