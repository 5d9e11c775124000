#include "processinfo.h"

#include <QByteArray>
#include <QFile>
#include <QList>

#include <csignal>

namespace hg::processinfo {

qint64 startTicks(qint64 pid)
{
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (pid <= 0 || !stat.open(QIODevice::ReadOnly))
        return 0;
    const QByteArray line = stat.readAll();
    // The command name (field 2) may contain spaces and parentheses: fields count from the
    // last ')'. starttime is field 22, the 20th after the name.
    const qsizetype close = line.lastIndexOf(')');
    if (close < 0)
        return 0;
    const QList<QByteArray> fields = line.mid(close + 2).split(' ');
    return fields.size() > 19 ? fields.at(19).toLongLong() : 0;
}

QString identity(qint64 pid)
{
    // A zombie is gone: killed, not yet reaped by a parent that may never reap it (helper-10
    // found a SIGKILLed serve under such a parent counted as serving for good).
    const qint64 ticks = isAlive(pid) ? startTicks(pid) : 0;
    if (ticks <= 0)
        return {};
    // Start ticks count from boot: after a reboot a service may well start at the same tick
    // with the same pid, so the boot is part of the identity.
    static const QByteArray bootId = [] {
        QFile file(QStringLiteral("/proc/sys/kernel/random/boot_id"));
        return file.open(QIODevice::ReadOnly) ? file.readAll().trimmed() : QByteArray();
    }();
    return QString::fromLatin1(bootId) + QLatin1Char('/') + QString::number(ticks);
}

bool isAlive(qint64 pid)
{
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (pid <= 0 || !stat.open(QIODevice::ReadOnly))
        return false;
    const QByteArray line = stat.readAll();
    const qsizetype close = line.lastIndexOf(')');
    return close >= 0 && line.size() > close + 2 && line.at(close + 2) != 'Z';
}

QString commandLine(qint64 pid)
{
    QFile file(QStringLiteral("/proc/%1/cmdline").arg(pid));
    if (pid <= 0 || !file.open(QIODevice::ReadOnly))
        return {};
    QList<QByteArray> words = file.readAll().split('\0');
    while (!words.isEmpty() && words.constLast().isEmpty())
        words.removeLast();
    if (words.isEmpty())
        return {};
    words.first() = words.constFirst().mid(words.constFirst().lastIndexOf('/') + 1);
    return QString::fromLocal8Bit(words.join(' '));
}

bool signalGroup(qint64 processGroup, int signal)
{
    if (processGroup <= 1)
        return false;
    return ::kill(-pid_t(processGroup), signal) == 0;
}

bool killGroupIfSameProcess(qint64 pid, qint64 expectedStartTicks)
{
    if (pid <= 1 || expectedStartTicks <= 0)
        return false;
    const qint64 ticks = startTicks(pid);
    if (ticks != 0 && ticks != expectedStartTicks)
        return false;
    return signalGroup(pid, SIGKILL);
}

} // namespace hg::processinfo
