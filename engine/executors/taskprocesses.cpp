#include "taskprocesses.h"

#include "base/processinfo.h"

#include <QAtomicInteger>
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QList>

#include <cerrno>
#include <csignal>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace hg {
namespace {

QAtomicInteger<quint64> tokenCounter;

// The engine's own cgroup v2 folder, when the unified hierarchy is mounted; empty otherwise.
QString ownCgroupFolder()
{
    QString mountPoint;
    QFile mounts(QStringLiteral("/proc/self/mountinfo"));
    if (mounts.open(QIODevice::ReadOnly)) {
        for (const QByteArray &line : mounts.readAll().split('\n')) {
            const QList<QByteArray> fields = line.split(' ');
            const qsizetype dash = fields.indexOf("-");
            if (dash > 4 && dash + 1 < fields.size() && fields.at(dash + 1) == "cgroup2") {
                mountPoint = QString::fromUtf8(fields.at(4));
                break;
            }
        }
    }
    if (mountPoint.isEmpty())
        return {};
    QFile self(QStringLiteral("/proc/self/cgroup"));
    if (!self.open(QIODevice::ReadOnly))
        return {};
    for (const QByteArray &line : self.readAll().split('\n')) {
        if (line.startsWith("0::"))
            return QDir::cleanPath(mountPoint + QLatin1Char('/') + QString::fromUtf8(line.mid(3)));
    }
    return {};
}

void removeDeadEnginesCgroups(const QString &own);

// The engine's folder of task cgroups, removed (empty by then) when the engine exits, with
// those of engines killed before they could remove theirs.
struct CgroupParent
{
    QString own;
    QString folder;
    ~CgroupParent()
    {
        if (folder.isEmpty())
            return;
        ::rmdir(QFile::encodeName(folder).constData());
        removeDeadEnginesCgroups(own);
    }
};

// What an engine killed before it could clean up left: its folder of task cgroups, and in
// them any process of its tasks that outlived it (killed now), when that engine is gone.
void removeDeadEnginesCgroups(const QString &own)
{
    const QStringList folders =
        QDir(own).entryList({QStringLiteral("hourglass-tasks-*")}, QDir::Dirs);
    for (const QString &name : folders) {
        bool number = false;
        const qint64 pid = name.section(QLatin1Char('-'), 2).toLongLong(&number);
        if (!number || pid == QCoreApplication::applicationPid() || processinfo::isAlive(pid))
            continue;
        const QString folder = own + QLatin1Char('/') + name;
        for (const QString &task : QDir(folder).entryList({QStringLiteral("task-*")}, QDir::Dirs)) {
            const QString taskFolder = folder + QLatin1Char('/') + task;
            for (int attempt = 0; attempt < 50; ++attempt) {
                QFile procs(taskFolder + QStringLiteral("/cgroup.procs"));
                if (procs.open(QIODevice::ReadOnly)) {
                    for (const QByteArray &line : procs.readAll().split('\n')) {
                        if (const pid_t member = pid_t(line.trimmed().toLongLong()); member > 0)
                            ::kill(member, SIGKILL);
                    }
                }
                if (::rmdir(QFile::encodeName(taskFolder).constData()) == 0 || errno == ENOENT)
                    break;
                ::usleep(2000);
            }
        }
        ::rmdir(QFile::encodeName(folder).constData());
    }
}

// Made once per engine process: its own folder under the engine's cgroup holds the tasks'.
QString taskCgroupParent()
{
    static const CgroupParent parent{
        ownCgroupFolder(), [] {
            const QString own = ownCgroupFolder();
            if (own.isEmpty())
                return QString();
            removeDeadEnginesCgroups(own);
            const QString folder =
                own + QStringLiteral("/hourglass-tasks-%1").arg(QCoreApplication::applicationPid());
            if (::mkdir(QFile::encodeName(folder).constData(), 0755) != 0 && errno != EEXIST)
                return QString();
            return folder;
        }()};
    return parent.folder;
}

} // namespace

QString TaskProcesses::ownCgroup()
{
    return ownCgroupFolder();
}

void TaskProcesses::reapDeadEngines()
{
    if (taskCgroupParent().isEmpty())
        return; // no cgroups here: nothing of a dead engine to find this way
    removeDeadEnginesCgroups(ownCgroupFolder());
}

TaskProcesses::TaskProcesses()
    : m_token(QStringLiteral("%1-%2").arg(::getpid()).arg(++tokenCounter))
{
    const QString parent = taskCgroupParent();
    if (parent.isEmpty())
        return;
    const QString folder = parent + QStringLiteral("/task-") + m_token;
    if (::mkdir(QFile::encodeName(folder).constData(), 0755) != 0)
        return;
    // Only if a process may really be moved in: try with nothing (writing "" fails with
    // EINVAL where permitted, EACCES/EPERM where not).
    const QByteArray procs = QFile::encodeName(folder + QStringLiteral("/cgroup.procs"));
    if (::access(procs.constData(), W_OK) != 0) {
        ::rmdir(QFile::encodeName(folder).constData());
        return;
    }
    m_cgroup = folder;
    m_procsPath = procs;
}

TaskProcesses::~TaskProcesses()
{
    if (m_cgroup.isEmpty())
        return;
    // Removable once empty; whatever is left is killed first, so nothing outlives the task.
    for (int attempt = 0; attempt < 50; ++attempt) {
        if (::rmdir(QFile::encodeName(m_cgroup).constData()) == 0 || errno == ENOENT)
            return;
        signalAll(SIGKILL);
        ::usleep(2000);
    }
}

QString TaskProcesses::mechanism()
{
    const QString parent = taskCgroupParent();
    return parent.isEmpty()
               ? QStringLiteral("environment token (%1)").arg(QString::fromLatin1(tokenName()))
               : QStringLiteral("cgroup %1").arg(parent);
}

QList<pid_t> TaskProcesses::members() const
{
    QList<pid_t> pids;
    if (!m_cgroup.isEmpty()) {
        QFile procs(m_cgroup + QStringLiteral("/cgroup.procs"));
        if (procs.open(QIODevice::ReadOnly)) {
            for (const QByteArray &line : procs.readAll().split('\n')) {
                if (const pid_t pid = pid_t(line.trimmed().toLongLong()); pid > 0)
                    pids << pid;
            }
        }
    }
    if (m_inCgroup)
        return pids;
    // Else by the token: should the child not have moved itself into the cgroup (a
    // permission the folder's mode did not tell), its processes are still found.
    const QByteArray wanted = tokenName() + '=' + m_token.toLatin1();
    const QStringList entries = QDir(QStringLiteral("/proc")).entryList(QDir::Dirs);
    for (const QString &entry : entries) {
        bool number = false;
        const pid_t pid = pid_t(entry.toLongLong(&number));
        if (!number || pid == ::getpid())
            continue;
        QFile environ(QStringLiteral("/proc/%1/environ").arg(pid));
        if (!environ.open(QIODevice::ReadOnly))
            continue; // gone, or another user's
        const QList<QByteArray> variables = environ.readAll().split('\0');
        if (variables.contains(wanted) && !pids.contains(pid))
            pids << pid;
    }
    return pids;
}

void TaskProcesses::confirmMember(pid_t pid)
{
    if (m_cgroup.isEmpty())
        return;
    QFile cgroup(QStringLiteral("/proc/%1/cgroup").arg(pid));
    if (!cgroup.open(QIODevice::ReadOnly))
        return;
    const QString task = m_cgroup.section(QLatin1Char('/'), -2); // hourglass-tasks-N/task-…
    for (const QByteArray &line : cgroup.readAll().split('\n')) {
        if (line.startsWith("0::") && QString::fromUtf8(line.mid(3)).endsWith(task))
            m_inCgroup = true;
    }
}

int TaskProcesses::signalAll(int signal) const
{
    const QList<pid_t> pids = members();
    for (const pid_t pid : pids)
        ::kill(pid, signal);
    return int(pids.size());
}

} // namespace hg
