#include "storepermissions.h"

#include <QFile>
#include <QFileInfo>

#include <cerrno>
#include <cstring>
#include <sys/stat.h>
#include <unistd.h>

namespace hg {
namespace {

constexpr mode_t writableByOthers = S_IWGRP | S_IWOTH;

QString octal(mode_t mode)
{
    return QStringLiteral("%1").arg(mode & 07777, 4, 8, QLatin1Char('0'));
}

// One path: missing is fine (created owner-only later); ours and lax is tightened. Judged
// through symbolic links (a link's own mode is always 0777), and only a folder or a regular
// file: a device named as the store (/dev/null, by root) was made owner-only for the whole
// machine (helper-11); opening it as a store refuses it, saying why.
Status secureOne(const QString &path, bool folder)
{
    struct stat info = {};
    if (::stat(QFile::encodeName(path).constData(), &info) != 0)
        return {}; // missing, or a loop of links: opening it says so
    if (folder ? !S_ISDIR(info.st_mode) : !S_ISREG(info.st_mode))
        return {};
    const uid_t me = ::geteuid();
    const bool sticky = folder && (info.st_mode & S_ISVTX) && info.st_uid == 0;
    if (!(info.st_mode & writableByOthers) || sticky)
        return info.st_uid == me || info.st_uid == 0 || folder
                   ? Status()
                   : Error::invalid(
                       StorePermissions::tr("%1 belongs to another user (uid %2): a store must be "
                                            "its user's own")
                           .arg(path)
                           .arg(info.st_uid));
    if (info.st_uid != me)
        return Error::invalid(
            StorePermissions::tr("%1 can be written by other users (mode %2, owner uid %3): "
                                 "anyone could plant tasks that run as you; use a store in a "
                                 "folder of your own")
                .arg(path, octal(info.st_mode))
                .arg(info.st_uid));
    const mode_t tightened = info.st_mode & S_IRWXU; // as a new store is made: owner only
    if (::chmod(QFile::encodeName(path).constData(), tightened) != 0)
        return Error::invalid(
            StorePermissions::tr("%1 can be written by other users (mode %2) "
                                 "and cannot be changed: %3")
                .arg(path, octal(info.st_mode), QString::fromLocal8Bit(std::strerror(errno))));
    qWarning("hourglass: %s could be written by other users (mode %s); changed to %s",
             qUtf8Printable(path), qUtf8Printable(octal(info.st_mode)),
             qUtf8Printable(octal(tightened)));
    return {};
}

} // namespace

Status StorePermissions::secure(const QString &storePath)
{
    if (Status folder = secureOne(QFileInfo(storePath).absolutePath(), true); !folder)
        return folder;
    for (const char *suffix : {"", "-wal", "-shm", "-journal"}) {
        if (Status file = secureOne(storePath + QLatin1String(suffix), false); !file)
            return file;
    }
    return {};
}

} // namespace hg
