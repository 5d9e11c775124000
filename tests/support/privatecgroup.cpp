#include "privatecgroup.h"

#include "executors/taskprocesses.h"

#include <QDir>
#include <QFile>
#include <QProcess>

#include <fcntl.h>
#include <unistd.h>

namespace hg::test {

PrivateCgroup::PrivateCgroup(const QString &name)
{
    if (!TaskProcesses::mechanism().startsWith(QLatin1String("cgroup")))
        return;
    const QString folder =
        TaskProcesses::ownCgroup() + QStringLiteral("/%1-%2").arg(name).arg(::getpid());
    if (!QDir().mkpath(folder))
        return;
    m_folder = folder;
    m_procs = QFile::encodeName(folder + QStringLiteral("/cgroup.procs"));
}

PrivateCgroup::~PrivateCgroup()
{
    if (m_folder.isEmpty())
        return;
    // cgroups go by rmdir, innermost first, once their processes are gone.
    const QDir group(m_folder);
    for (const QString &engine : group.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        const QDir folder(m_folder + QLatin1Char('/') + engine);
        for (const QString &task : folder.entryList(QDir::Dirs | QDir::NoDotAndDotDot))
            folder.rmdir(task);
        group.rmdir(engine);
    }
    QDir().rmdir(m_folder);
}

void PrivateCgroup::enter(QProcess &process) const
{
    if (m_procs.isEmpty())
        return;
    const QByteArray procs = m_procs;
    process.setChildProcessModifier([procs] { // system calls only: vfork semantics
        const int fd = ::open(procs.constData(), O_WRONLY | O_CLOEXEC);
        if (fd >= 0) {
            (void)!::write(fd, "0", 1);
            ::close(fd);
        }
    });
}

} // namespace hg::test
