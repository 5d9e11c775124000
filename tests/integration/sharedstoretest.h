#pragma once

#include "domain/run.h"
#include "privatepostgres.h"
#include "store/store.h"

#include <QObject>
#include <QProcess>
#include <QTemporaryDir>

#include <memory>
#include <vector>

// What the tests of a shared PostgreSQL store have in common (tst_sharedstore: runs across
// engines; tst_sharedtasks: tasks across engines): a PostgreSQL of the test's own, which the
// tests restart and stop, a project in it, `hourglass serve` processes on it, and a ledger
// file that tasks append to, proving what ran and how often.
class SharedStoreTest : public QObject
{
    Q_OBJECT

protected:
    void setUp();    // from each test class's init()
    void tearDown(); // from its cleanup(): engines killed, the server stopped

    // cgroupProcs: a cgroup.procs file the engine moves itself into before it runs.
    std::unique_ptr<QProcess> serve(const QString &name, double leaseSeconds = 30, int slots = 0,
                                    const QByteArray &cgroupProcs = {});
    qint64 chainWithTask(const QString &name, const QString &command, int maxRetries = 0,
                         int maxInstances = 0, bool exclusive = false);
    // A chain of tasks side by side (no edges), named t1, t2, … after their commands.
    qint64 chainWithTasks(const QString &name, const QStringList &commands, int maxRetries = 0);
    hg::Run startRun(qint64 chainId);
    QStringList ledger() const;
    QString path(const QString &name) const { return m_dir.filePath(name); }
    QList<hg::Run> runs() const;
    bool allTerminal() const;
    static void stopEngine(QProcess &engine);

    std::unique_ptr<hg::test::PrivatePostgres> m_server;
    std::unique_ptr<hg::Store> m_store;
    QTemporaryDir m_dir;
    qint64 m_projectId = 0;
    std::vector<std::unique_ptr<QProcess>> m_engines;
};
