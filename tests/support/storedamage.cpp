#include "storedamage.h"

#include <QCryptographicHash>
#include <QFile>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>
#include <QStringList>

namespace hg::test {

QString damageTablePage(const QString &path, const QString &table)
{
    const QString name = QStringLiteral("hourglass-test-damage");
    qint64 pageSize = 0;
    qint64 rootPage = 0;
    QString error;
    {
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
        db.setDatabaseName(path);
        if (!db.open()) {
            error = db.lastError().text();
        } else {
            QSqlQuery q(db);
            // Its first column is 1 when another connection kept a frame in the log.
            if (!q.exec(QStringLiteral("PRAGMA wal_checkpoint(TRUNCATE)")) || !q.next()
                || q.value(0).toInt() != 0)
                error = QStringLiteral("cannot checkpoint %1: %2")
                            .arg(path, q.lastError().isValid() ? q.lastError().text()
                                                               : QStringLiteral("busy"));
            q.exec(QStringLiteral("PRAGMA page_size"));
            pageSize = q.next() ? q.value(0).toLongLong() : 0;
            q.prepare(QStringLiteral("SELECT rootpage FROM sqlite_master WHERE name = ?"));
            q.addBindValue(table);
            q.exec();
            rootPage = q.next() ? q.value(0).toLongLong() : 0;
        }
        db.close();
    }
    QSqlDatabase::removeDatabase(name);
    if (!error.isEmpty())
        return error;
    if (pageSize <= 0 || rootPage <= 1)
        return QStringLiteral("no page of table %1 in %2").arg(table, path);
    QFile file(path);
    if (!file.open(QIODevice::ReadWrite))
        return file.errorString();
    // Past the page header (8 bytes for a leaf, 12 for an interior page): the cell pointers
    // and whatever follows them become garbage.
    if (!file.seek((rootPage - 1) * pageSize + 12) || file.write(QByteArray(64, '\xA5')) != 64)
        return file.errorString();
    return {};
}

QByteArray storeFilesHash(const QString &path)
{
    QCryptographicHash hash(QCryptographicHash::Sha256);
    for (const QString &file : QStringList{path, path + QStringLiteral("-wal")}) {
        QFile in(file);
        if (in.open(QIODevice::ReadOnly))
            hash.addData(in.readAll());
    }
    return hash.result();
}

} // namespace hg::test
