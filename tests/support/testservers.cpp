#include "testservers.h"

namespace hg::test {

QUrl postgresUrl()
{
    return QUrl(qEnvironmentVariable("HOURGLASS_TEST_PG_URL"));
}

QUrl mysqlUrl()
{
    return QUrl(qEnvironmentVariable("HOURGLASS_TEST_MYSQL_URL"));
}

bool requireServers()
{
    return !qEnvironmentVariable("CI").isEmpty()
           || !qEnvironmentVariable("HOURGLASS_TEST_REQUIRE_SERVERS").isEmpty();
}

QString missingServerMessage(const QString &variable)
{
    return QStringLiteral("%1 is not set: run the tests through scripts/test, which starts the "
                          "servers")
        .arg(variable);
}

} // namespace hg::test
