#pragma once

#include <QObject>
#include <QTest>

// A test class whose functions do not all apply to every store backend names the others in
// its declaration, instead of skipping them at run time (a skip reads "Passed" in CTest):
//   Q_CLASSINFO("sqliteOnly", "damagedStore_opensReadOnly, secondEngine_isRefused")
//   Q_CLASSINFO("postgresqlOnly", "claimQueued_twoSessionsAtOnce")
// and ends with HG_BACKEND_TEST_MAIN(Class) (QApplication: include it) or
// HG_BACKEND_TEST_GUILESS_MAIN(Class).
// Run with no arguments (as CTest does), it runs only the functions that apply to
// HOURGLASS_TEST_BACKEND and says which others it left out; arguments are passed through.
namespace hg::test {

int execForBackend(QObject *testObject, int argc, char **argv);

} // namespace hg::test

// One main for both: the application class is the only difference.
#define HG_BACKEND_TEST_MAIN_WITH(Application, TestObject)                                         \
    int main(int argc, char **argv)                                                                \
    {                                                                                              \
        Application app(argc, argv);                                                               \
        app.setAttribute(Qt::AA_Use96Dpi, true);                                                   \
        TestObject tc;                                                                             \
        QTEST_SET_MAIN_SOURCE_PATH                                                                 \
        return hg::test::execForBackend(&tc, argc, argv);                                          \
    }
#define HG_BACKEND_TEST_MAIN(TestObject) HG_BACKEND_TEST_MAIN_WITH(QApplication, TestObject)
#define HG_BACKEND_TEST_GUILESS_MAIN(TestObject)                                                   \
    HG_BACKEND_TEST_MAIN_WITH(QCoreApplication, TestObject)
