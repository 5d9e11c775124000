#pragma once

#include <QList>
#include <QProcess>
#include <QStringList>
#include <QTemporaryDir>

namespace hg::test {

// The real binary run as a user would, on a SQLite store in a temporary folder of its own,
// with XDG folders there too, so nothing outside it is read or written.
class CliSandbox final
{
public:
    struct Output
    {
        int exitCode = -1; // -1: crashed; -2: did not end in time (said in err)
        QString out;
        QString err;
    };

    explicit CliSandbox(QString binary);

    bool isValid() const { return m_dir.isValid(); }
    QString path() const { return m_dir.path(); }
    QString filePath(const QString &name) const { return m_dir.filePath(name); }
    QString db() const { return m_db; }
    void setDb(const QString &db) { m_db = db; }
    QProcessEnvironment environment() const;
    void start(QProcess &process, const QStringList &arguments) const;
    Output run(const QStringList &arguments, int timeoutMs = 60000) const;
    // Empty when every command exited 0; else the first that did not, with what it said.
    QString define(const QList<QStringList> &commands) const;
    // The stored state of run `runId` as `runs --json` lists it; empty when not listed.
    QString runState(const QString &runId) const;

private:
    QString m_binary;
    QTemporaryDir m_dir;
    QString m_db;
};

} // namespace hg::test
