#include "outputfile.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>
#include <QTemporaryFile>

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
    if (::stat(QFile::encodeName(path).constData(), &info) != 0) {
        if (errno == ELOOP) { // written through, it became a regular file (helper-10)
            *what = QStringLiteral("a loop of symbolic links");
            return TargetKind::Other;
        }
        return TargetKind::Missing; // a dangling link too: QSaveFile writes its target
    }
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

// Gives the file written beside the target the target's owner and group (QSaveFile keeps its
// mode): written by root, a user's file became root's. False when they cannot be kept.
bool keepsOwner(int fd, const struct stat &target)
{
    struct stat written = {};
    if (::fstat(fd, &written) != 0)
        return false;
    if ((written.st_uid != target.st_uid || written.st_gid != target.st_gid)
        && ::fchown(fd, target.st_uid, target.st_gid) != 0)
        return false;
    // After the owner (a chown clears set-user-ID): QSaveFile keeps only the rwx bits, and a
    // setuid, setgid or sticky bit, or a mode of 000, was lost (helper-10).
    return (written.st_mode & 07777) == (target.st_mode & 07777)
           || ::fchmod(fd, target.st_mode & 07777) == 0;
}

bool writeAll(int fd, const char *data, qint64 size)
{
    while (size > 0) {
        const ssize_t written = ::write(fd, data, size_t(size));
        if (written < 0 && errno == EINTR)
            continue;
        if (written <= 0)
            return false;
        data += written;
        size -= written;
    }
    return true;
}

QString lastError()
{
    return QString::fromLocal8Bit(std::strerror(errno));
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
    const QByteArray target = QFile::encodeName(renameTarget(m_path));
    struct stat existing = {};
    const bool exists = kind == TargetKind::Regular && ::stat(target.constData(), &existing) == 0;
    if (exists && existing.st_nlink > 1)
        return openStaged(); // a rename would leave its other links with the old contents
    m_save = std::make_unique<QSaveFile>(QFile::decodeName(target));
    if (!m_save->open(QIODevice::WriteOnly)) {
        const QString why = m_save->errorString();
        m_save.reset();
        if (exists)
            return openStaged(); // a folder we may not write in, a file we may
        return Error::runtime(QStringLiteral("cannot write %1: %2").arg(m_path, why));
    }
    if (exists && !keepsOwner(m_save->handle(), existing)) {
        m_save->cancelWriting();
        m_save.reset();
        return openStaged();
    }
    return {};
}

Status OutputFile::openStaged()
{
    m_staged = std::make_unique<QTemporaryFile>(
        QDir::temp().filePath(QStringLiteral("hourglass-XXXXXX.staged"))); // mode 0600
    if (!m_staged->open()) {
        const QString why = m_staged->errorString();
        m_staged.reset();
        return Error::runtime(
            QStringLiteral("cannot write %1: no room for its new contents in %2: %3")
                .arg(m_path, QDir::tempPath(), why));
    }
    // Named now, not at the end: Linux opens it unnamed (O_TMPFILE), and a writer killed
    // while it writes the file in place took the new contents with it.
    (void)m_staged->fileName();
    return {};
}

Status OutputFile::commitStaged()
{
    const std::unique_ptr<QTemporaryFile> staged = std::move(m_staged);
    if (!staged->flush() || !staged->seek(0))
        return Error::runtime(
            QStringLiteral("cannot write %1: %2").arg(m_path, staged->errorString()));
    // O_NONBLOCK: should a FIFO have taken the file's place since open(), this must not wait
    // for a reader; anything but a regular file is left alone.
    const int fd =
        ::open(QFile::encodeName(m_path).constData(), O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0)
        return Error::runtime(QStringLiteral("cannot write %1: %2").arg(m_path, lastError()));
    struct stat info = {};
    if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
        ::close(fd);
        return Error::runtime(
            QStringLiteral("cannot write %1: it is no longer a regular file").arg(m_path));
    }
    // Room first: on a full disk the file was cut to its first block, its old contents lost
    // (helper-11). Blocks past its end are taken now (the length kept); a filesystem that
    // cannot say is written as before.
    const qint64 size = staged->size();
    if (size > 0 && ::fallocate(fd, FALLOC_FL_KEEP_SIZE, 0, size) != 0 && errno == ENOSPC) {
        ::close(fd);
        return Error::runtime(QStringLiteral("cannot write %1: %2; it was left as it was")
                                  .arg(m_path, QString::fromLocal8Bit(std::strerror(ENOSPC))));
    }
    // Over the old contents from the start, then cut to the new length: nothing is freed
    // before the new contents are in place.
    bool written = true;
    QByteArray chunk;
    while (written && !staged->atEnd()) {
        chunk = staged->read(qint64(1) << 20);
        written = !chunk.isEmpty() && writeAll(fd, chunk.constData(), chunk.size());
    }
    written = written && ::ftruncate(fd, size) == 0 && ::fsync(fd) == 0;
    const QString why = lastError();
    ::close(fd);
    if (written)
        return {};
    // Cut short (a full disk): nothing is lost, the whole new contents stay where they were
    // staged.
    staged->setAutoRemove(false);
    return Error::runtime(QStringLiteral("cannot write %1: %2; it may be incomplete now, and "
                                         "its whole new contents are in %3")
                              .arg(m_path, why, staged->fileName()));
}

bool OutputFile::write(const QByteArray &bytes)
{
    QIODevice *device = m_direct ? static_cast<QIODevice *>(m_direct.get())
                        : m_save ? static_cast<QIODevice *>(m_save.get())
                                 : m_staged.get();
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
    if (m_staged)
        return commitStaged();
    if (!m_save)
        return Error::runtime(QStringLiteral("cannot write %1: not open").arg(m_path));
    // Flushed first: QSaveFile::commit() (Qt 6.4) does not look at the flush it does itself,
    // and a small file buffered whole on a full disk was committed empty.
    const bool committed = m_save->flush() && m_save->commit();
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
    m_staged.reset();
}

QString OutputFile::errorString() const
{
    if (m_direct)
        return m_direct->errorString();
    if (m_staged)
        return m_staged->errorString();
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
