#pragma once

#include "domain/connectionprofile.h"
#include "remote/dolphinschedulerschema.h"
#include "remote/remotedatabase.h"

#include <QObject>
#include <QSqlDatabase>

#include <memory>

// What the DolphinScheduler console's tests have in common (tst_dolphinschedulercatalog:
// reading; tst_dolphinschedulercontrol: writing as its API server does): a fresh database on
// the real MariaDB or PostgreSQL of scripts/test, loaded with DolphinScheduler's own schema of
// a release (tests/support/dolphinscheduler), and the catalog's connection to it.
class DolphinSchedulerTest : public QObject
{
    Q_OBJECT

protected:
    // The data columns server and release, for every release on both servers.
    static void layouts();
    // A fresh database on the server, loaded with the release's DDL; the catalog's connection.
    void makeDatabase(const QString &server, const QString &release, bool load = true);
    void exec(const QString &sql);
    void insertWorkflow(const hg::DolphinSchedulerSchema &schema);
    void dropDatabase(); // from each test class's cleanup()

    QString m_server;
    QString m_database;
    QSqlDatabase m_admin; // the server, to create and drop the database
    QSqlDatabase m_db;    // the test's own connection to it
    hg::ConnectionProfile m_profile;
    QString m_password;
    std::unique_ptr<hg::RemoteDatabase> m_remote;
    int m_serial = 0;
};
