#include "sqlitewritefailure.h"

namespace hg {

bool SqliteWriteFailure::isTransient(const QString &nativeErrorCode)
{
    bool ok = false;
    // The low byte is the primary code whatever the extended one says.
    switch (nativeErrorCode.toInt(&ok) & 0xff) {
    case 5:  // SQLITE_BUSY
    case 6:  // SQLITE_LOCKED
    case 7:  // SQLITE_NOMEM
    case 8:  // SQLITE_READONLY
    case 10: // SQLITE_IOERR
    case 13: // SQLITE_FULL
    case 14: // SQLITE_CANTOPEN (the journal cannot be made)
        return ok;
    default:
        return false;
    }
}

} // namespace hg
