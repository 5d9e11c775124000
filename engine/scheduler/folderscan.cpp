#include "folderscan.h"

#include <QFile>

#include <cerrno>
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

void scanFolder(const GlobPattern &glob, const QString &folder, const QString &relative, int depth,
                FolderScan::Found &found)
{
    const int fd = ::open(QFile::encodeName(folder).constData(),
                          O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
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
            if (fstatat(fd, entry->d_name, &st, 0) == 0 && S_ISREG(st.st_mode))
                found.files << versionOf(FolderScan::join(folder, QFile::decodeName(entry->d_name)),
                                         st);
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
        // Followed: a link to a file counts as the file; to a folder it is nothing here.
        if (fstatat(fd, entry->d_name, &st, 0) == 0 && S_ISREG(st.st_mode))
            found.files << versionOf(path, st);
    }
    closedir(dir);
}

} // namespace

FolderScan::Found FolderScan::scan(const GlobPattern &glob, const QString &below)
{
    Found found;
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
    if (::stat(QFile::encodeName(path).constData(), &st) != 0 || !S_ISREG(st.st_mode))
        return std::nullopt;
    return versionOf(path, st);
}

} // namespace hg
