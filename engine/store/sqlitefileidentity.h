#pragma once

#include "base/result.h"

#include <QCoreApplication>
#include <QString>

namespace hg {

// What a SQLite store's files were when a connection opened them: the database, and in WAL
// mode its write-ahead log and shared-memory index. A file deleted or replaced under an open
// connection is written on unseen (into the unlinked file) until the process ends; and
// SQLite, seeing its database moved, neither checkpoints nor removes its log on close, so
// whatever file is next put at the path takes that log's pages as its own (helper-11: a
// store moved over another got the other's runs). inPlace() notices; dropLeftovers() ends it.
class SqliteFileIdentity final
{
    Q_DECLARE_TR_FUNCTIONS(hg::SqliteFileIdentity)

public:
    SqliteFileIdentity() = default;
    explicit SqliteFileIdentity(QString path)
        : m_path(std::move(path))
    {}

    void recordDatabase(); // after the connection opened the file
    void recordJournal();  // after WAL mode is on: the -wal and -shm files
    bool isRecorded() const { return m_database.inode != 0; }
    // "device:inode" of the database as opened; empty when not recorded.
    QString text() const;
    // The path still names the files opened, the log included; else why not, naming them.
    Status inPlace() const;
    // After the connection closed, its database no longer in place: removes the -wal and
    // -shm left at the path when they are the very ones it used (never another store's).
    void dropLeftovers() const;

private:
    struct Identity
    {
        quint64 device = 0;
        quint64 inode = 0; // 0: not recorded (or not there)
    };
    static Identity of(const QString &path);

    QString m_path;
    Identity m_database;
    Identity m_wal;
    Identity m_shm;
};

} // namespace hg
