#include "teststore.h"

#include "testservers.h"

#include <QAtomicInteger>
#include <QCoreApplication>
#include <QRandomGenerator>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>

namespace hg::test {
namespace {

QAtomicInteger<int> counter;

// Runs one statement on the server's maintenance database through its own connection.
QString adminExec(const QUrl &server, const QString &sql)
{
    const QString name = QStringLiteral("hourglass-test-admin-%1").arg(++counter);
    QString error;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QPSQL"), name);
        db.setHostName(server.host());
        db.setPort(server.port(5432));
        db.setUserName(server.userName());
        db.setPassword(server.password());
        db.setDatabaseName(server.path().mid(1));
        if (!db.open()) {
            error = db.lastError().text();
        } else {
            QSqlQuery query(db);
            if (!query.exec(sql))
                error = query.lastError().text();
        }
        db.close();
    }
    QSqlDatabase::removeDatabase(name);
    return error;
}

} // namespace

TestStore::TestStore() = default;

TestStore::~TestStore()
{
    m_store.reset();
    if (!m_postgresDatabase.isEmpty())
        adminExec(
            postgresUrl(),
            QStringLiteral("DROP DATABASE IF EXISTS %1 WITH (FORCE)").arg(m_postgresDatabase));
}

StoreBackend TestStore::backend()
{
    return qEnvironmentVariable("HOURGLASS_TEST_BACKEND") == QLatin1String("postgresql")
               ? StoreBackend::PostgreSql
               : StoreBackend::Sqlite;
}

bool TestStore::create()
{
    QString text;
    if (backend() == StoreBackend::Sqlite) {
        if (!m_directory.isValid()) {
            m_error = QStringLiteral("cannot create a temporary directory");
            return false;
        }
        text = m_directory.filePath(QStringLiteral("hourglass.db"));
    } else {
        const QUrl server = postgresUrl();
        if (server.isEmpty()) {
            m_error = missingServerMessage(QStringLiteral("HOURGLASS_TEST_PG_URL"));
            return false;
        }
        m_postgresDatabase = QStringLiteral("hgtest_%1_%2_%3")
                                 .arg(QCoreApplication::applicationPid())
                                 .arg(++counter)
                                 .arg(QRandomGenerator::global()->bounded(1000000));
        if (const QString failed =
                adminExec(server, QStringLiteral("CREATE DATABASE %1").arg(m_postgresDatabase));
            !failed.isEmpty()) {
            m_error = QStringLiteral("cannot create test database: %1").arg(failed);
            m_postgresDatabase.clear();
            return false;
        }
        QUrl url = server;
        url.setPath(QLatin1Char('/') + m_postgresDatabase);
        text = url.toString();
    }
    const Result<StoreLocation> location = StoreLocation::parse(text);
    if (!location) {
        m_error = location.error().message;
        return false;
    }
    m_location = location.value();
    Result<std::unique_ptr<Store>> opened = Store::open(m_location, QStringLiteral("test"));
    if (!opened) {
        m_error = opened.error().message;
        return false;
    }
    m_store = std::move(opened.value());
    return true;
}

std::unique_ptr<Store> TestStore::openAnother(const QString &purpose) const
{
    Result<std::unique_ptr<Store>> opened = Store::open(m_location, purpose);
    return opened ? std::move(opened.value()) : nullptr;
}

} // namespace hg::test
