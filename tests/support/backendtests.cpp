#include "backendtests.h"

#include "teststore.h"

#include <QByteArrayList>
#include <QMetaClassInfo>
#include <QMetaMethod>
#include <QSet>
#include <QTest>

#include <cstdio>

namespace hg::test {
namespace {

QSet<QByteArray> namedIn(const QMetaObject *meta, const char *key)
{
    QSet<QByteArray> names;
    const int index = meta->indexOfClassInfo(key);
    if (index < 0)
        return names;
    for (const QByteArray &name : QByteArray(meta->classInfo(index).value()).split(',')) {
        if (!name.trimmed().isEmpty())
            names.insert(name.trimmed());
    }
    return names;
}

bool isTestFunction(const QMetaMethod &method)
{
    static const QSet<QByteArray> fixtures = {"initTestCase", "cleanupTestCase", "init", "cleanup"};
    const QByteArray name = method.name();
    return method.methodType() == QMetaMethod::Slot && method.access() == QMetaMethod::Private
           && method.parameterCount() == 0 && !fixtures.contains(name) && !name.endsWith("_data");
}

} // namespace

int execForBackend(QObject *testObject, int argc, char **argv)
{
    if (argc > 1) // a developer's choice of functions or options: theirs
        return QTest::qExec(testObject, argc, argv);
    const QMetaObject *meta = testObject->metaObject();
    const QSet<QByteArray> sqliteOnly = namedIn(meta, "sqliteOnly");
    const QSet<QByteArray> postgresqlOnly = namedIn(meta, "postgresqlOnly");
    const QSet<QByteArray> notHere =
        TestStore::backend() == StoreBackend::Sqlite ? postgresqlOnly : sqliteOnly;
    QByteArrayList arguments{argv[0]};
    QSet<QByteArray> declared;
    QByteArrayList leftOut;
    for (int i = meta->methodOffset(); i < meta->methodCount(); ++i) {
        const QMetaMethod method = meta->method(i);
        if (!isTestFunction(method))
            continue;
        declared.insert(method.name());
        if (notHere.contains(method.name()))
            leftOut << method.name();
        else
            arguments << method.name();
    }
    // A misspelt name would quietly run a function where it cannot pass, or leave one out.
    for (const QByteArray &name : (sqliteOnly + postgresqlOnly)) {
        if (!declared.contains(name)) {
            std::fprintf(stderr, "%s: Q_CLASSINFO names %s, which is no test function of it\n",
                         meta->className(), name.constData());
            return 1;
        }
    }
    if (arguments.size() == 1) {
        std::fprintf(stderr,
                     "%s: no function applies to this backend: register it for the "
                     "other one only\n",
                     meta->className());
        return 1;
    }
    if (!leftOut.isEmpty())
        std::printf("%s: not for this backend (registered for the other): %s\n", meta->className(),
                    leftOut.join(", ").constData());
    std::vector<char *> pointers;
    for (QByteArray &argument : arguments)
        pointers.push_back(argument.data());
    return QTest::qExec(testObject, int(pointers.size()), pointers.data());
}

} // namespace hg::test
