#pragma once

#include "base/result.h"

#include <QCoreApplication>
#include <QStringList>

class QSqlDatabase;

namespace hg {

// SQLite's own check of a database file: what an overwritten or torn page, a truncated copy
// or a file that is no database at all looks like to it.
class IntegrityCheck final
{
    Q_DECLARE_TR_FUNCTIONS(hg::IntegrityCheck)

public:
    // Quick (PRAGMA quick_check) reads every page once: each b-tree's structure, the freelist,
    // record formats, NOT NULL. Full (integrity_check) also matches every index against its
    // table, which costs three to four times as much (see Store::open for the figures).
    enum class Depth { Quick, Full };

    // What SQLite finds wrong (at most the first 20) -- a file too broken to check is one
    // problem --, empty when the file is sound. An error when the check could not run for
    // another reason (the file is locked, the disk fails to read): that says nothing about
    // damage.
    static Result<QStringList> problems(const QSqlDatabase &db, Depth depth);
    // Whether an SQLite error code (QSqlError::nativeErrorCode) means a damaged file.
    static bool meansDamage(const QString &nativeErrorCode);
    // The first problem and how many there are, for a one-line message.
    static QString summary(const QStringList &problems);

    static constexpr int reportLimit = 20;
};

} // namespace hg
