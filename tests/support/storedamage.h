#pragma once

#include <QString>

namespace hg::test {

// Damages a SQLite store file for real, as a failing disk or a half-copied file would: the
// write-ahead log is checkpointed into the file first, then bytes of the b-tree page at the
// root of `table` are overwritten in place. Every connection to the file must be closed
// (their page caches would hide the damage). Returns an empty string, or what went wrong.
QString damageTablePage(const QString &path, const QString &table);

// The SHA-256 of a file and, when there is one, of its write-ahead log: equal before and
// after means nothing was written.
QByteArray storeFilesHash(const QString &path);

} // namespace hg::test
