#include "passwordfile.h"

#include <QDir>
#include <QFile>
#include <QSaveFile>

namespace hg {
namespace {

QString home(const QString &homeDir)
{
    return homeDir.isEmpty() ? QDir::homePath() : homeDir;
}

bool isMysql(const ConnectionProfile &profile)
{
    return profile.server() == ConnectionKind::MySql;
}

// libpq's .pgpass escapes ':' and '\' with a backslash.
QString pgpassField(const QString &value)
{
    QString escaped = value;
    escaped.replace(QLatin1Char('\\'), QLatin1String("\\\\"));
    escaped.replace(QLatin1Char(':'), QLatin1String("\\:"));
    return escaped;
}

QString pgpassKey(const ConnectionProfile &profile)
{
    return QStringList{
               pgpassField(profile.host), QString::number(profile.effectivePort()),
               pgpassField(profile.database.isEmpty() ? profile.userName : profile.database),
               pgpassField(profile.userName)}
               .join(QLatin1Char(':'))
           + QLatin1Char(':');
}

QString mysqlGroup(const ConnectionProfile &profile)
{
    return QStringLiteral("[hourglass-%1]").arg(profile.name);
}

// Option files quote values that hold spaces, '#' or quotes.
QString mysqlValue(const QString &value)
{
    QString escaped = value;
    escaped.replace(QLatin1Char('\\'), QLatin1String("\\\\"));
    escaped.replace(QLatin1Char('"'), QLatin1String("\\\""));
    return QLatin1Char('"') + escaped + QLatin1Char('"');
}

QStringList readLines(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly | QIODevice::Text))
        return {};
    QStringList lines = QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'));
    if (!lines.isEmpty() && lines.last().isEmpty())
        lines.removeLast();
    return lines;
}

Status writeLines(const QString &path, const QStringList &lines)
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Text))
        return Error::runtime(
            PasswordFile::tr("cannot write %1: %2").arg(path, file.errorString()));
    file.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    file.write((lines.join(QLatin1Char('\n')) + QLatin1Char('\n')).toUtf8());
    if (!file.flush() || !file.commit()) // commit() alone misses a full disk (Qt 6.4)
        return Error::runtime(
            PasswordFile::tr("cannot write %1: %2").arg(path, file.errorString()));
    return {};
}

// Drops the profile's group: its header and every line up to the next group.
QStringList withoutGroup(const QStringList &lines, const QString &group)
{
    QStringList kept;
    bool inside = false;
    for (const QString &line : lines) {
        const QString trimmed = line.trimmed();
        if (trimmed.startsWith(QLatin1Char('[')))
            inside = trimmed == group;
        if (!inside)
            kept << line;
    }
    return kept;
}

QStringList withoutPgpassLine(const QStringList &lines, const QString &key)
{
    QStringList kept;
    for (const QString &line : lines)
        if (!line.startsWith(key))
            kept << line;
    return kept;
}

} // namespace

QString PasswordFile::pathFor(const ConnectionProfile &profile, const QString &homeDir)
{
    if (isMysql(profile))
        return QDir(home(homeDir)).filePath(QStringLiteral(".my.cnf"));
    const QByteArray passfile = qgetenv("PGPASSFILE");
    if (!passfile.isEmpty() && homeDir.isEmpty())
        return QString::fromLocal8Bit(passfile);
    return QDir(home(homeDir)).filePath(QStringLiteral(".pgpass"));
}

Status PasswordFile::write(const ConnectionProfile &profile, const QString &password,
                           const QString &homeDir)
{
    if (password.contains(QLatin1Char('\n')))
        return Error::invalid(tr("a password cannot hold a line break"));
    const QString path = pathFor(profile, homeDir);
    QStringList lines = readLines(path);
    if (isMysql(profile)) {
        const QString group = mysqlGroup(profile);
        lines = withoutGroup(lines, group);
        lines << group;
        if (!profile.userName.isEmpty())
            lines << QStringLiteral("user=%1").arg(mysqlValue(profile.userName));
        lines << QStringLiteral("password=%1").arg(mysqlValue(password));
    } else {
        const QString key = pgpassKey(profile);
        lines = withoutPgpassLine(lines, key);
        lines << key + pgpassField(password);
    }
    return writeLines(path, lines);
}

Status PasswordFile::remove(const ConnectionProfile &profile, const QString &homeDir)
{
    const QString path = pathFor(profile, homeDir);
    if (!QFile::exists(path))
        return {};
    const QStringList lines = readLines(path);
    const QStringList kept = isMysql(profile) ? withoutGroup(lines, mysqlGroup(profile))
                                              : withoutPgpassLine(lines, pgpassKey(profile));
    return kept.size() == lines.size() ? Status() : writeLines(path, kept);
}

bool PasswordFile::holds(const ConnectionProfile &profile, const QString &homeDir)
{
    const QStringList lines = readLines(pathFor(profile, homeDir));
    if (isMysql(profile))
        return withoutGroup(lines, mysqlGroup(profile)).size() != lines.size();
    return withoutPgpassLine(lines, pgpassKey(profile)).size() != lines.size();
}

} // namespace hg
