#include "dailybackups.h"

#include "store.h"
#include "storebackup.h"

#include <QDir>
#include <QFileInfo>
#include <QRegularExpression>

namespace hg {
namespace {

QString pattern(const QFileInfo &storeFile)
{
    return QRegularExpression::escape(storeFile.completeBaseName())
           + QStringLiteral("-daily-\\d{8}\\.db");
}

} // namespace

QString DailyBackups::pathFor(const StoreLocation &store, QDate day)
{
    const QFileInfo file(store.sqlitePath());
    return file.absoluteDir().filePath(
        QStringLiteral("%1-daily-%2.db")
            .arg(file.completeBaseName(), day.toString(QStringLiteral("yyyyMMdd"))));
}

QStringList DailyBackups::existing(const StoreLocation &store)
{
    const QFileInfo file(store.sqlitePath());
    const QRegularExpression name(QRegularExpression::anchoredPattern(pattern(file)));
    QStringList found;
    // The date in the name sorts them; newest first.
    const QStringList entries =
        file.absoluteDir().entryList(QDir::Files, QDir::Name | QDir::Reversed);
    for (const QString &entry : entries) {
        if (name.match(entry).hasMatch())
            found << file.absoluteDir().filePath(entry);
    }
    return found;
}

Result<QString> DailyBackups::takeIfDue(const Store &store, QDate today, int keep)
{
    if (keep <= 0 || store.backend() != StoreBackend::Sqlite)
        return QString();
    const QString path = pathFor(store.location(), today);
    if (QFileInfo::exists(path))
        return QString();
    const Result<StoreBackup::Written> written = StoreBackup::write(store, path);
    if (!written)
        return written.error();
    prune(store.location(), keep);
    return written->path;
}

QStringList DailyBackups::prune(const StoreLocation &store, int keep)
{
    QStringList removed;
    const QStringList all = existing(store);
    for (qsizetype i = qMax(1, keep); i < all.size(); ++i) {
        if (QFile::remove(all.at(i)))
            removed << all.at(i);
    }
    return removed;
}

} // namespace hg
