#pragma once

#include "domain/enginesession.h"
#include "domain/run.h"
#include "privatecgroup.h"
#include "privatepostgres.h"
#include "store/store.h"

#include <QHash>
#include <QObject>
#include <QProcess>
#include <QSet>
#include <QTemporaryDir>

#include <memory>
#include <optional>
#include <vector>

// What the tests of a shared PostgreSQL store have in common (tst_sharedstore: runs across
// engines; tst_sharedtasks: tasks across engines): a PostgreSQL of the test's own, which the
// tests restart and stop, a project in it, `hourglass serve` processes on it, and a ledger
// file that tasks append to, proving what ran and how often. A test waits on what it expects
// (a session in the store, a line an engine printed, a task at a gate), never on a sleep.
class SharedStoreTest : public QObject
{
    Q_OBJECT

protected:
    void setUp();    // from each test class's init()
    void tearDown(); // from its cleanup(): engines killed, the server stopped

    // cgroup: one the engine moves itself into before it runs. What it prints on stderr goes
    // to the test's stderr and is kept (said()).
    std::unique_ptr<QProcess> serve(const QString &name, double leaseSeconds = 30, int slots = 0,
                                    const hg::test::PrivateCgroup *cgroup = nullptr);
    qint64 chainWithTask(const QString &name, const QString &command, int maxRetries = 0,
                         int maxInstances = 0, bool exclusive = false);
    // A chain of tasks side by side (no edges), named t1, t2, … after their commands.
    qint64 chainWithTasks(const QString &name, const QStringList &commands, int maxRetries = 0);
    hg::Run startRun(qint64 chainId);
    QStringList ledger() const { return linesOf(QStringLiteral("ledger")); }
    QStringList linesOf(const QString &file) const;
    QString path(const QString &name) const { return m_dir.filePath(name); }
    QList<hg::Run> runs() const;
    bool allTerminal() const;
    QSet<QString> runOwners() const; // the engines that claimed runs
    static void stopEngine(QProcess &engine);
    // The live session of the engine of that name (none: not registered, or its lease ran out).
    std::optional<hg::EngineSession> liveSession(const QString &name) const;
    // True once every engine named has registered and holds a live lease.
    bool serving(const QStringList &names) const;
    // A shell loop that waits until the test opens the gate (creates its file): a task waits
    // there where the test needs an order to be certain rather than likely.
    QString gate(const QString &name) const;
    void openGate(const QString &name) const;
    // What an engine started by serve() has printed on stderr so far.
    QByteArray said(const QProcess &engine) const { return m_said.value(&engine); }

    std::unique_ptr<hg::test::PrivatePostgres> m_server;
    std::unique_ptr<hg::Store> m_store;
    QTemporaryDir m_dir;
    qint64 m_projectId = 0;
    std::vector<std::unique_ptr<QProcess>> m_engines;
    QHash<const QProcess *, QByteArray> m_said;
};
