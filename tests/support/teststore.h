#pragma once

#include "store/store.h"

#include <QTemporaryDir>

#include <memory>

namespace hg::test {

// A fresh, empty store for one test on the backend HOURGLASS_TEST_BACKEND names (sqlite by
// default): a file in a temporary directory, or a new database on the test PostgreSQL that is
// dropped again afterwards.
class TestStore final
{
public:
    TestStore();
    ~TestStore();
    Q_DISABLE_COPY_MOVE(TestStore)

    static StoreBackend backend();
    // False (with the reason in error()) when the backend's server is not available.
    bool create();
    QString error() const { return m_error; }

    Store &store() { return *m_store; }
    const StoreLocation &location() const { return m_location; }
    // Another connection to the same store, as a second thread or engine would have.
    std::unique_ptr<Store> openAnother(const QString &purpose) const;
    // Closes this test's connection (the database stays) so it can be reopened.
    void close() { m_store.reset(); }

private:
    QTemporaryDir m_directory;
    StoreLocation m_location;
    std::unique_ptr<Store> m_store;
    QString m_postgresDatabase;
    QString m_error;
};

} // namespace hg::test

// Creates `name` for this test function or skips/fails as HG_REQUIRE_SERVER does.
#define HG_TEST_STORE(name)                                                                        \
    hg::test::TestStore name;                                                                      \
    if (!name.create()) {                                                                          \
        if (hg::test::TestStore::backend() == hg::StoreBackend::PostgreSql                         \
            && !hg::test::requireServers() && hg::test::postgresUrl().isEmpty())                   \
            QSKIP(qPrintable(name.error()));                                                       \
        QFAIL(qPrintable(name.error()));                                                           \
    }
