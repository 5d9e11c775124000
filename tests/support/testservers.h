#pragma once

#include <QString>
#include <QUrl>

namespace hg::test {

// The servers scripts/test starts and announces through the environment:
//   HOURGLASS_TEST_PG_URL     postgresql://postgres@127.0.0.1:PORT/postgres
//   HOURGLASS_TEST_MYSQL_URL  mysql://root@127.0.0.1:PORT/
// Empty when not set. In CI a missing server is a failure, elsewhere a skip.
QUrl postgresUrl();
QUrl mysqlUrl();
bool requireServers(); // true when a missing server must fail the test
QString missingServerMessage(const QString &variable);

} // namespace hg::test

// Skips the current test for want of a part of the machine (a tool, a package, root, a
// kernel feature) -- or, in CI, fails it naming what is missing: a skip there would hide it.
#define HG_REQUIRE_PART(present, missing)                                                          \
    do {                                                                                           \
        if (!(present)) {                                                                          \
            if (hg::test::requireServers())                                                        \
                QFAIL(qPrintable(QStringLiteral("%1 (HOURGLASS_TEST_REQUIRE_SERVERS=1: a missing " \
                                                "part fails the test)")                            \
                                     .arg(QStringLiteral(missing))));                              \
            QSKIP(missing);                                                                        \
        }                                                                                          \
    } while (false)

// Skips (or, in CI, fails) the current test when the server URL is not configured.
#define HG_REQUIRE_SERVER(url, variable)                                                           \
    do {                                                                                           \
        if ((url).isEmpty()) {                                                                     \
            if (hg::test::requireServers())                                                        \
                QFAIL(qPrintable(hg::test::missingServerMessage(QStringLiteral(variable))));       \
            QSKIP(qPrintable(hg::test::missingServerMessage(QStringLiteral(variable))));           \
        }                                                                                          \
    } while (false)
