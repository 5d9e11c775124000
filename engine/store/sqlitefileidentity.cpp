#include "sqlitefileidentity.h"

#include <QFile>

#include <sys/stat.h>
#include <unistd.h>

namespace hg {

SqliteFileIdentity::Identity SqliteFileIdentity::of(const QString &path)
{
    struct stat info
    {
    };
    if (::stat(QFile::encodeName(path).constData(), &info) != 0)
        return {};
    return {quint64(info.st_dev), quint64(info.st_ino)};
}

void SqliteFileIdentity::recordDatabase()
{
    m_database = of(m_path);
}

QString SqliteFileIdentity::text() const
{
    return m_database.inode == 0
               ? QString()
               : QStringLiteral("%1:%2").arg(m_database.device).arg(m_database.inode);
}

void SqliteFileIdentity::recordJournal()
{
    m_wal = of(m_path + QLatin1String("-wal"));
    m_shm = of(m_path + QLatin1String("-shm"));
}

Status SqliteFileIdentity::inPlace() const
{
    if (m_database.inode == 0)
        return {};
    const Identity database = of(m_path);
    if (database.inode != m_database.inode || database.device != m_database.device)
        return Error::storage(tr("store %1 was removed or replaced since it was opened: "
                                 "nothing more is written to it (open it again to go on)")
                                  .arg(m_path));
    // While a connection is open SQLite keeps its log (truncated at most, never removed): one
    // gone means someone removed it, and what is written goes where no one will read it.
    if (m_wal.inode == 0)
        return {};
    const Identity wal = of(m_path + QLatin1String("-wal"));
    if (wal.inode != m_wal.inode || wal.device != m_wal.device)
        return Error::storage(tr("the write-ahead log %1-wal of the store was removed or "
                                 "replaced since it was opened: nothing more is written "
                                 "to it (open the store again to go on)")
                                  .arg(m_path));
    return {};
}

void SqliteFileIdentity::dropLeftovers() const
{
    const Identity database = of(m_path);
    if (m_database.inode == 0
        || (database.inode == m_database.inode && database.device == m_database.device))
        return; // in place: its own log, SQLite's to keep or remove
    for (const auto &[suffix, recorded] :
         {std::pair{QLatin1String("-wal"), m_wal}, std::pair{QLatin1String("-shm"), m_shm}}) {
        const Identity now = of(m_path + suffix);
        if (recorded.inode != 0 && now.inode == recorded.inode && now.device == recorded.device)
            ::unlink(QFile::encodeName(m_path + suffix).constData());
    }
}

} // namespace hg
