#include "outputfile.h"

#include <QFile>
#include <QFileInfo>
#include <QSaveFile>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace hg {
namespace {

enum class TargetKind { Missing, Regular, Folder, Writable, Other };

// Writable: what a shell redirection writes in place (a character device such as /dev/null or
// a terminal, a FIFO, and anything reached through /dev or /proc, /dev/stdout among them).
TargetKind kindOf(const QString &path, QString *what)
{
    struct stat info = {};
    if (::stat(QFile::encodeName(path).constData(), &info) != 0)
        return TargetKind::Missing; // a dangling link too: QSaveFile writes its target
    const QString absolute = QFileInfo(path).absoluteFilePath();
    const bool systemPath =
        absolute.startsWith(QLatin1String("/dev/")) || absolute.startsWith(QLatin1String("/proc/"));
    if (S_ISDIR(info.st_mode)) {
        *what = QStringLiteral("a folder");
        return TargetKind::Folder;
    }
    if (S_ISCHR(info.st_mode)) {
        *what = QStringLiteral("a device");
        return TargetKind::Writable;
    }
    if (S_ISFIFO(info.st_mode)) {
        *what = QStringLiteral("a FIFO (named pipe)");
        return TargetKind::Writable;
    }
    if (S_ISREG(info.st_mode)) {
        *what = QStringLiteral("a file under %1").arg(absolute.section(QLatin1Char('/'), 0, 1));
        return systemPath ? TargetKind::Writable : TargetKind::Regular;
    }
    *what = S_ISBLK(info.st_mode)    ? QStringLiteral("a block device")
            : S_ISSOCK(info.st_mode) ? QStringLiteral("a socket")
                                     : QStringLiteral("not a regular file");
    return TargetKind::Other;
}

} // namespace

OutputFile::OutputFile(QString path, Special special)
    : m_path(std::move(path))
    , m_special(special)
{}

OutputFile::~OutputFile()
{
    cancel();
}

Status OutputFile::open()
{
    if (m_path.isEmpty())
        return Error::invalid(QStringLiteral("no file named to write to"));
    QString what;
    const TargetKind kind = kindOf(m_path, &what);
    if (kind == TargetKind::Folder || kind == TargetKind::Other
        || (kind == TargetKind::Writable && m_special == Special::Refuse))
        return Error::invalid(
            QStringLiteral("%1 is %2, not a regular file: not written").arg(m_path, what));
    if (kind == TargetKind::Writable) {
        // O_APPEND, never O_TRUNC: a terminal or FIFO has no length to cut, and a regular
        // file reached through /dev/stdout is the shell's redirection (`>>` must not lose it).
        const int fd = ::open(QFile::encodeName(m_path).constData(),
                              O_WRONLY | O_APPEND | O_NOCTTY | O_CLOEXEC);
        if (fd < 0)
            return Error::runtime(QStringLiteral("cannot write %1: %2")
                                      .arg(m_path, QString::fromLocal8Bit(std::strerror(errno))));
        m_direct = std::make_unique<QFile>();
        if (!m_direct->open(fd, QIODevice::WriteOnly | QIODevice::Unbuffered,
                            QFileDevice::AutoCloseHandle)) {
            ::close(fd);
            const QString why = m_direct->errorString();
            m_direct.reset();
            return Error::runtime(QStringLiteral("cannot write %1: %2").arg(m_path, why));
        }
        return {};
    }
    // Through a symbolic link to its file: a rename over the link would replace the link.
    m_save = std::make_unique<QSaveFile>(renameTarget(m_path));
    if (!m_save->open(QIODevice::WriteOnly)) {
        const QString why = m_save->errorString();
        m_save.reset();
        return Error::runtime(QStringLiteral("cannot write %1: %2").arg(m_path, why));
    }
    return {};
}

bool OutputFile::write(const QByteArray &bytes)
{
    QIODevice *device = m_direct ? static_cast<QIODevice *>(m_direct.get()) : m_save.get();
    return device && device->write(bytes) == bytes.size();
}

Status OutputFile::commit()
{
    if (m_direct) {
        const bool flushed = m_direct->flush();
        const QString why = m_direct->errorString();
        m_direct.reset();
        if (!flushed)
            return Error::runtime(QStringLiteral("cannot write %1: %2").arg(m_path, why));
        return {};
    }
    if (!m_save)
        return Error::runtime(QStringLiteral("cannot write %1: not open").arg(m_path));
    const bool committed = m_save->commit();
    const QString why = m_save->errorString();
    m_save.reset();
    if (!committed)
        return Error::runtime(QStringLiteral("cannot write %1: %2").arg(m_path, why));
    return {};
}

void OutputFile::cancel()
{
    if (m_save)
        m_save->cancelWriting();
    m_save.reset();
    m_direct.reset();
}

QString OutputFile::errorString() const
{
    if (m_direct)
        return m_direct->errorString();
    return m_save ? m_save->errorString() : QString();
}

QString OutputFile::renameTarget(const QString &path)
{
    const QFileInfo info(path);
    if (!info.isSymLink())
        return path;
    const QString canonical = info.canonicalFilePath();
    return canonical.isEmpty() ? info.symLinkTarget() : canonical;
}

Status OutputFile::checkRenameTarget(const QString &path)
{
    QString what;
    const TargetKind kind = kindOf(path, &what);
    if (kind == TargetKind::Missing || kind == TargetKind::Regular)
        return {};
    return Error::invalid(
        QStringLiteral("%1 is %2, not a regular file: not replaced").arg(path, what));
}

} // namespace hg
