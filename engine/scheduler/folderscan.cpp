#include "folderscan.h"

#include <QFile>

#include <cerrno>
#include <climits>
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace hg {
namespace {

constexpr int deepestScan = 64;

qint64 mtimeMsOf(const struct stat &st)
{
    return qint64(st.st_mtim.tv_sec) * 1000 + st.st_mtim.tv_nsec / 1000000;
}

FileTriggerRepository::Version versionOf(const QString &path, const struct stat &st)
{
    return {path, qint64(st.st_ino), qint64(st.st_size), mtimeMsOf(st)};
}

// The engine's own standard output and error, as files (a serve's log): a link to one (the
// hostile `ln -s /dev/stdout in/x`) must not count, or each run's output starts the next.
struct OwnOutput
{
    dev_t dev[2] = {};
    ino_t ino[2] = {};
    int count = 0;
};
thread_local OwnOutput ownOutput;

void readOwnOutput()
{
    ownOutput = {};
    for (const int fd : {STDOUT_FILENO, STDERR_FILENO}) {
        struct stat st
        {
        };
        if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
            ownOutput.dev[ownOutput.count] = st.st_dev;
            ownOutput.ino[ownOutput.count] = st.st_ino;
            ++ownOutput.count;
        }
    }
}

// A file that may start a run: a regular file (or a link to one), not the engine's output.
bool countable(const struct stat &st)
{
    if (!S_ISREG(st.st_mode))
        return false;
    for (int i = 0; i < ownOutput.count; ++i)
        if (st.st_dev == ownOutput.dev[i] && st.st_ino == ownOutput.ino[i])
            return false;
    return true;
}

// Whether Qt's string of a name gives the same bytes back (it cannot for one that is not
// UTF-8): if not, the file cannot be opened under that string.
bool roundTrips(const char *name, const QString &decoded)
{
    return QFile::encodeName(decoded) == QByteArray(name);
}

void noteUndecodable(const char *name, FolderScan::Found &found)
{
    ++found.undecodable;
    if (found.undecodableExamples.size() < 3)
        found.undecodableExamples << FolderScan::shownBytes(QByteArray(name));
}

void noteTooLong(const QString &path, FolderScan::Found &found)
{
    if (found.tooLong++ == 0)
        found.tooLongExample = path.left(80) + QStringLiteral("…");
}

void scanFolder(const GlobPattern &glob, const QString &folder, const QString &relative, int depth,
                FolderScan::Found &found)
{
    if (QFile::encodeName(folder).size() >= PATH_MAX) {
        noteTooLong(folder, found);
        return;
    }
    // Links are not followed into folders, but the root is the folder the user named, also
    // when it is a link (`/srv/in` → `releases/41/in`): read through it, as inotify watches it.
    const int fd =
        ::open(QFile::encodeName(folder).constData(),
               O_RDONLY | O_DIRECTORY | O_CLOEXEC | (folder == glob.root() ? 0 : O_NOFOLLOW));
    if (fd < 0)
        return;
    DIR *dir = fdopendir(fd);
    if (!dir) {
        ::close(fd);
        return;
    }
    found.folders << folder;
    // Files straight in the root: matched on readdir's bytes, a string made for a match only.
    const bool flat = !glob.spansFolders() && relative.isEmpty();
    while (const struct dirent *entry = readdir(dir)) {
        if (flat) {
            struct stat st
            {
            };
            if (entry->d_type == DT_DIR || !glob.matchesNameInRoot(entry->d_name))
                continue; // "." and "..": a leading dot never matches
            const QString decoded = QFile::decodeName(entry->d_name);
            if (!roundTrips(entry->d_name, decoded)) {
                noteUndecodable(entry->d_name, found);
                continue;
            }
            const QString path = FolderScan::join(folder, decoded);
            if (fstatat(fd, entry->d_name, &st, 0) == 0 && countable(st)) {
                if (QFile::encodeName(path).size() >= PATH_MAX)
                    noteTooLong(path, found);
                else
                    found.files << versionOf(path, st);
            }
            continue;
        }
        const QString name = QFile::decodeName(entry->d_name);
        if (name == QLatin1String(".") || name == QLatin1String(".."))
            continue;
        const QString path = FolderScan::join(folder, name);
        const QString below = relative.isEmpty() ? name : relative + QLatin1Char('/') + name;
        struct stat st
        {
        };
        if (entry->d_type == DT_DIR
            || (entry->d_type == DT_UNKNOWN
                && fstatat(fd, entry->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0
                && S_ISDIR(st.st_mode))) {
            if (depth < deepestScan && glob.mayContain(below))
                scanFolder(glob, path, below, depth + 1, found);
            continue;
        }
        if (!glob.matches(below))
            continue;
        if (!roundTrips(entry->d_name, name)) {
            noteUndecodable(entry->d_name, found);
            continue;
        }
        // Followed: a link to a file counts as the file; to a folder it is nothing here.
        if (fstatat(fd, entry->d_name, &st, 0) == 0 && countable(st)) {
            if (QFile::encodeName(path).size() >= PATH_MAX)
                noteTooLong(path, found);
            else
                found.files << versionOf(path, st);
        }
    }
    closedir(dir);
}

} // namespace

FolderScan::Found FolderScan::scan(const GlobPattern &glob, const QString &below)
{
    Found found;
    readOwnOutput();
    struct stat st
    {
    };
    const QByteArray root = QFile::encodeName(glob.root());
    if (::stat(root.constData(), &st) != 0) {
        found.root = errno == EACCES ? RootState::Denied : RootState::Missing;
        return found;
    }
    if (!S_ISDIR(st.st_mode)) {
        found.root = RootState::Missing;
        return found;
    }
    if (::access(root.constData(), R_OK | X_OK) != 0) {
        found.root = RootState::Denied;
        return found;
    }
    const QString start = below.isEmpty() ? glob.root() : join(glob.root(), below);
    scanFolder(glob, start, below, int(below.count(QLatin1Char('/'))), found);
    return found;
}

QString FolderScan::shownBytes(const QByteArray &name)
{
    QString shown;
    const QString decoded = QString::fromUtf8(name);
    if (decoded.toUtf8() == name)
        return decoded;
    for (const char byte : name) {
        const auto value = static_cast<unsigned char>(byte);
        if (value >= 0x20 && value < 0x7f)
            shown += QLatin1Char(byte);
        else
            shown += QStringLiteral("\\x%1").arg(value, 2, 16, QLatin1Char('0'));
    }
    return shown;
}

QString FolderScan::join(const QString &folder, const QString &name)
{
    if (folder.endsWith(QLatin1Char('/')))
        return folder + name;
    return folder + QLatin1Char('/') + name;
}

std::optional<FileTriggerRepository::Version> FolderScan::stat(const QString &path)
{
    struct stat st
    {
    };
    readOwnOutput();
    if (::stat(QFile::encodeName(path).constData(), &st) != 0 || !countable(st))
        return std::nullopt;
    return versionOf(path, st);
}

} // namespace hg
