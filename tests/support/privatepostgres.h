#pragma once

#include <QString>
#include <QTemporaryDir>
#include <QUrl>

namespace hg::test {

// A PostgreSQL 15 of the test's own, in a temporary directory on a free loopback port, for
// tests that restart or stop the server (the one scripts/test starts is shared by every
// test running at the same time). As root the server runs as the postgres user, as
// PostgreSQL demands. Skipped (or failed in CI) where PostgreSQL is not installed.
class PrivatePostgres final
{
public:
    PrivatePostgres();
    ~PrivatePostgres();
    Q_DISABLE_COPY_MOVE(PrivatePostgres)

    // initdb and start; the error says why not (empty: running).
    QString start();
    // "immediate": as a crash does, the server drops every connection at once.
    bool restartImmediately();
    bool stop();
    bool startAgain(); // after stop(), on the same port and data
    QUrl url() const;
    static bool isInstalled();

private:
    bool pgCtl(const QStringList &arguments, QString *output = nullptr) const;
    QStringList serverOptions() const;

    QTemporaryDir m_dir;
    int m_port = 0;
    bool m_running = false;
};

} // namespace hg::test
