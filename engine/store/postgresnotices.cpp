#include "postgresnotices.h"

#include <QByteArray>
#include <QSqlDatabase>
#include <QSqlDriver>
#include <QStringList>
#include <QtGlobal>
#include <QVariant>

#include <libpq-fe.h>

namespace hg::postgresnotices {
namespace {

void processNotice(void * /*unused*/, const char *message)
{
    const QByteArray text = QByteArray(message).trimmed();
    // The server going away: Store says so once, as "the store cannot be used".
    if (text.contains("terminating connection due to"))
        return;
    qWarning("PostgreSQL: %s", text.constData());
}

void appendNotice(void *lines, const char *message)
{
    static_cast<QStringList *>(lines)->append(QString::fromUtf8(message).trimmed());
}

PGconn *connectionOf(const QSqlDatabase &db)
{
    const QVariant handle = db.driver()->handle();
    // Qt's driver names it after libpq's struct (PGconn is a typedef of pg_conn).
    if (qstrcmp(handle.typeName(), "pg_conn*") != 0 && qstrcmp(handle.typeName(), "PGconn*") != 0)
        return nullptr;
    return *static_cast<PGconn *const *>(handle.constData());
}

} // namespace

void routeThroughQt(const QSqlDatabase &db)
{
    if (PGconn *connection = connectionOf(db))
        PQsetNoticeProcessor(connection, processNotice, nullptr);
}

void appendTo(const QSqlDatabase &db, QStringList *lines)
{
    if (PGconn *connection = connectionOf(db))
        PQsetNoticeProcessor(connection, appendNotice, lines);
}

} // namespace hg::postgresnotices
