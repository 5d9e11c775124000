#include "integritycheck.h"

#include <QFile>
#include <QFileInfo>
#include <QSqlDatabase>
#include <QSqlError>
#include <QSqlQuery>

#include <sys/statvfs.h>

namespace hg {

namespace {

QString textOf(const QSqlError &error)
{
    return (error.databaseText().isEmpty() ? error.driverText() : error.databaseText())
        .simplified();
}

// SQLite says "disk I/O error" when it cannot even make its shared-memory file beside the
// store: on a full disk every command failed with that alone (helper-10).
QString whyNotChecked(const QSqlDatabase &db, const QSqlError &error)
{
    QString why = textOf(error);
    struct statvfs disk = {};
    const QByteArray folder = QFile::encodeName(QFileInfo(db.databaseName()).absolutePath());
    if (::statvfs(folder.constData(), &disk) == 0 && disk.f_bavail == 0)
        why += QStringLiteral(" (the disk holding it is full)");
    return why;
}

} // namespace

bool IntegrityCheck::meansDamage(const QString &nativeErrorCode)
{
    // SQLITE_CORRUPT and SQLITE_NOTADB, with any extended code (the low byte is the primary).
    bool ok = false;
    const int code = nativeErrorCode.toInt(&ok) & 0xff;
    return ok && (code == 11 || code == 26);
}

Result<QStringList> IntegrityCheck::problems(const QSqlDatabase &db, Depth depth)
{
    QSqlQuery query(db);
    query.setForwardOnly(true);
    const QString pragma = depth == Depth::Quick ? QStringLiteral("PRAGMA quick_check(%1)")
                                                 : QStringLiteral("PRAGMA integrity_check(%1)");
    if (!query.exec(pragma.arg(reportLimit))) {
        const QSqlError error = query.lastError();
        if (meansDamage(error.nativeErrorCode()))
            return QStringList{textOf(error)};
        return Error::storage(
            tr("cannot check %1: %2").arg(db.databaseName(), whyNotChecked(db, error)));
    }
    QStringList found;
    while (query.next()) {
        // A row may hold several lines, headed by "*** in database main ***".
        const QStringList lines = query.value(0).toString().split(QLatin1Char('\n'));
        for (const QString &raw : lines) {
            const QString line = raw.simplified();
            if (!line.isEmpty() && line != QLatin1String("ok")
                && !line.startsWith(QLatin1String("***")) && found.size() < reportLimit)
                found << line;
        }
    }
    if (query.lastError().isValid()) // a page so broken that the report itself stopped
        found << textOf(query.lastError());
    return found;
}

QString IntegrityCheck::summary(const QStringList &problems)
{
    if (problems.isEmpty())
        return {};
    if (problems.size() == 1)
        return problems.constFirst();
    if (problems.size() >= reportLimit)
        return tr("%1 (and more: at least %2 problems)")
            .arg(problems.constFirst())
            .arg(problems.size());
    return tr("%1 (%2 problems in all)").arg(problems.constFirst()).arg(problems.size());
}

} // namespace hg
