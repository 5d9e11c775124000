#include "connectionprofilerepository.h"

#include "domain/chainpath.h"
#include "domain/passwordsettings.h"
#include "store.h"
#include "storequery.h"

namespace hg {
namespace {

const QString selectProfile =
    QStringLiteral("SELECT id, name, kind, host, port, database, user_name, options, keychain_key, "
                   "database_kind FROM connection_profile ");

// A plain database is its own server; a remote scheduler's server is stored, and profiles
// made before migration 004 stored none: PostgreSQL, the only server they could name.
ConnectionKind databaseKindOf(ConnectionKind kind, std::optional<ConnectionKind> stored)
{
    if (kind == ConnectionKind::Sqlite || kind == ConnectionKind::PostgreSql
        || kind == ConnectionKind::MySql)
        return kind;
    return stored.value_or(ConnectionKind::PostgreSql);
}

ConnectionProfile readProfile(const StoreQuery &q)
{
    ConnectionProfile p;
    p.id = q.int64(0);
    p.name = q.text(1);
    p.kind = enumFromString<ConnectionKind>(q.text(2)).value_or(ConnectionKind::PostgreSql);
    p.host = q.text(3);
    p.port = q.integer(4);
    p.database = q.text(5);
    p.userName = q.text(6);
    p.options = q.text(7);
    p.keychainKey = q.text(8);
    p.databaseKind = databaseKindOf(p.kind, enumFromString<ConnectionKind>(q.text(9)));
    return p;
}

void bindEditable(StoreQuery &q, const ConnectionProfile &p)
{
    q.bind(p.name)
        .bind(enumName(p.kind))
        .bind(p.host)
        .bind(p.port)
        .bind(p.database)
        .bind(p.userName)
        .bind(p.options)
        .bind(p.keychainKey)
        .bind(enumName(databaseKindOf(p.kind, p.databaseKind)));
}

Status validateProfile(const ConnectionProfile &p)
{
    if (Status name = validateName(QStringLiteral("connection"), p.name); !name)
        return name;
    // A password among the driver options would sit in the store in plain text, show in
    // listings and exports, and be echoed by the MySQL driver's errors.
    // Anywhere in them: libpq reads "application_name=x password=y" as two settings.
    if (const QString key = passwordsettings::named(p.options); !key.isEmpty())
        return Error::invalidField(
            QStringLiteral("options"), 0,
            QCoreApplication::translate(
                "hg::ConnectionProfileRepository",
                "--options: '%1' carries a password, which would be kept in the store in "
                "plain text; leave it out and keep the password in the OS keychain "
                "(--keychain-key, or remote add ... --password-stdin)")
                .arg(key));
    if (p.port < 0 || p.port > 65535)
        return Error::invalid(QCoreApplication::translate("hg::ConnectionProfileRepository",
                                                          "port %1 is out of range 0-65535")
                                  .arg(p.port));
    return {};
}

} // namespace

Result<ConnectionProfile> ConnectionProfileRepository::add(const ConnectionProfile &profile)
{
    if (Status valid = validateProfile(profile); !valid)
        return valid.error();
    StoreQuery q(m_store, QStringLiteral("INSERT INTO connection_profile (name, kind, host, port, "
                                         "database, user_name, options, keychain_key, "
                                         "database_kind) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
                                         "RETURNING id"));
    bindEditable(q, profile);
    if (Status s = q.execSingle(tr("add connection '%1'").arg(profile.name), {}); !s) {
        if (s.error().kind == ErrorKind::AlreadyExists)
            return Error::exists(tr("connection '%1' already exists").arg(profile.name));
        return s.error();
    }
    ConnectionProfile stored = profile;
    stored.id = q.int64(0);
    return stored;
}

Status ConnectionProfileRepository::update(const ConnectionProfile &profile)
{
    if (Status valid = validateProfile(profile); !valid)
        return valid;
    StoreQuery q(m_store, QStringLiteral("UPDATE connection_profile SET name = ?, kind = ?, "
                                         "host = ?, port = ?, database = ?, user_name = ?, "
                                         "options = ?, keychain_key = ?, database_kind = ? "
                                         "WHERE id = ?"));
    bindEditable(q, profile);
    q.bind(profile.id);
    if (Status s = q.exec(tr("update connection '%1'").arg(profile.name)); !s) {
        if (s.error().kind == ErrorKind::AlreadyExists)
            return Error::exists(tr("connection '%1' already exists").arg(profile.name));
        return s;
    }
    if (q.rowsAffected() == 0)
        return Error::notFound(tr("unknown connection id %1").arg(profile.id));
    return {};
}

Result<ConnectionProfile> ConnectionProfileRepository::fetchOne(const QString &where,
                                                                const QVariant &key,
                                                                const QString &notFound) const
{
    StoreQuery q(m_store, selectProfile + where);
    q.bind(key);
    if (Status s = q.execSingle(tr("read connection"), notFound); !s)
        return s.error();
    return readProfile(q);
}

Result<ConnectionProfile> ConnectionProfileRepository::byName(const QString &name) const
{
    return fetchOne(QStringLiteral("WHERE name = ?"), name,
                    tr("unknown connection '%1'").arg(name));
}

Result<ConnectionProfile> ConnectionProfileRepository::byId(qint64 id) const
{
    return fetchOne(QStringLiteral("WHERE id = ?"), id, tr("unknown connection id %1").arg(id));
}

Result<QList<ConnectionProfile>> ConnectionProfileRepository::list() const
{
    StoreQuery q(m_store, selectProfile + QStringLiteral("ORDER BY name"));
    if (Status s = q.exec(tr("list connections")); !s)
        return s.error();
    QList<ConnectionProfile> profiles;
    while (q.next())
        profiles << readProfile(q);
    return profiles;
}

Status ConnectionProfileRepository::remove(const QString &name)
{
    StoreQuery q(m_store, QStringLiteral("DELETE FROM connection_profile WHERE name = ?"));
    q.bind(name);
    if (Status s = q.exec(tr("remove connection '%1'").arg(name)); !s) {
        if (s.error().kind == ErrorKind::Invalid)
            return Error::invalid(tr("connection '%1' is still used by a task").arg(name));
        return s;
    }
    if (q.rowsAffected() == 0)
        return Error::notFound(tr("unknown connection '%1'").arg(name));
    return {};
}

} // namespace hg
