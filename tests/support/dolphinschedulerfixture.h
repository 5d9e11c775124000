#pragma once

#include "base/result.h"

#include <QSqlDatabase>
#include <QString>

namespace hg {
class DolphinSchedulerSchema;
}

namespace hg::test {

// DolphinScheduler's own schema (tests/support/dolphinscheduler/RELEASE/SERVER.sql: releases
// "3.2" and "3.3", servers "mysql" and "postgresql") and rows as its API server and master
// write them, for the console's tests.
class DolphinSchedulerFixture final
{
public:
    static Status loadSchema(QSqlDatabase &db, const QString &release, const QString &server);
    // Project "etl" with workflow "nightly" (code 200, version 2, online: extract -> check, a
    // CONDITIONS task whose success branch is load -> load, with a stale version-1 relation
    // the DAG must not show; task "load" at version 2
    // of the task log; a Quartz schedule "0 30 2 * * ? *" in Europe/Berlin, online) and
    // "adhoc" (code 201, offline, no schedule).
    static Status insertWorkflows(QSqlDatabase &db, const DolphinSchedulerSchema &schema);
    // Three instances of "nightly": 11 success, 12 failure (extract and check succeeded, load
    // failed after three retries), 13 running; hosts master-1 and master-2.
    static Status insertInstances(QSqlDatabase &db, const DolphinSchedulerSchema &schema);
};

} // namespace hg::test
