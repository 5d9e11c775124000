#pragma once

#include <QString>

namespace hg {

// SQLite's answers that mean "not written now, maybe later": the disk is full, an I/O error,
// the file is busy past the timeout or locked, the file or its directory is read-only, memory
// ran out. A store write that fails so is held and tried again, never dropped; damage
// (IntegrityCheck::meansDamage) is another matter.
class SqliteWriteFailure final
{
public:
    SqliteWriteFailure() = delete;

    // nativeErrorCode as Qt's SQLite driver reports it: the result code, maybe extended.
    static bool isTransient(const QString &nativeErrorCode);
};

} // namespace hg
