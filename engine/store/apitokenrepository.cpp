#include "apitokenrepository.h"

#include "store.h"
#include "storequery.h"

#include <QCryptographicHash>
#include <QRandomGenerator>

namespace hg {
namespace {

const QString selectToken = QStringLiteral(
    "SELECT id, name, role, prefix, hash, created_at, expires_at, last_used_at FROM api_token ");

// "hg_" and 8 hex digits: enough to tell tokens apart in a list, too few to guess the rest.
constexpr qsizetype prefixLength = 11;

ApiToken readToken(const StoreQuery &q)
{
    ApiToken t;
    t.id = q.int64(0);
    t.name = q.text(1);
    t.role = enumFromString<ApiRole>(q.text(2)).value_or(ApiRole::Read);
    t.prefix = q.text(3);
    t.hash = q.text(4);
    t.createdAt = q.time(5);
    t.expiresAt = q.time(6);
    t.lastUsedAt = q.time(7);
    return t;
}

// Compares every byte whatever differs first: how long a refusal takes tells nothing.
bool sameHash(const QString &a, const QString &b)
{
    if (a.size() != b.size())
        return false;
    ushort difference = 0;
    for (qsizetype i = 0; i < a.size(); ++i)
        difference |= a.at(i).unicode() ^ b.at(i).unicode();
    return difference == 0;
}

} // namespace

QString ApiTokenRepository::hashOf(const QString &text)
{
    return QString::fromLatin1(
        QCryptographicHash::hash(text.toUtf8(), QCryptographicHash::Sha256).toHex());
}

QString ApiTokenRepository::prefixOf(const QString &text)
{
    return text.left(prefixLength);
}

Result<ApiTokenRepository::Made> ApiTokenRepository::make(const QString &name, ApiRole role,
                                                          const QDateTime &expiresAt)
{
    if (name.trimmed().isEmpty() || name.size() > 100)
        return Error::invalidField(QStringLiteral("name"), 0,
                                   tr("a token's name is 1 to 100 characters"));
    if (name != name.trimmed() || name.contains(QLatin1Char('/')))
        return Error::invalidField(QStringLiteral("name"), 0,
                                   tr("a token's name has no slash and no space at either end"));
    for (const QChar c : name)
        if (c.category() == QChar::Other_Control || c.category() == QChar::Other_Format)
            return Error::invalidField(QStringLiteral("name"), 0,
                                       tr("a token's name holds no control characters"));
    quint32 words[5];
    QRandomGenerator::system()->fillRange(words);
    const QByteArray random(reinterpret_cast<const char *>(words), sizeof words);
    Made made;
    made.text = QStringLiteral("hg_") + QString::fromLatin1(random.toHex());
    made.token.name = name;
    made.token.role = role;
    made.token.prefix = prefixOf(made.text);
    made.token.hash = hashOf(made.text);
    made.token.createdAt = QDateTime::currentDateTimeUtc();
    made.token.expiresAt = expiresAt;
    StoreQuery q(m_store, QStringLiteral("INSERT INTO api_token (name, role, prefix, hash, "
                                         "created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?) "
                                         "RETURNING id"));
    q.bind(name)
        .bind(enumName(role))
        .bind(made.token.prefix)
        .bind(made.token.hash)
        .bind(StoreQuery::fromTime(made.token.createdAt))
        .bind(StoreQuery::fromTime(expiresAt));
    if (Status s = q.execSingle(tr("add a token"), {}); !s) {
        if (s.error().kind == ErrorKind::AlreadyExists)
            return Error::exists(
                tr("a token named '%1' exists (`hourglass token list`)").arg(name));
        return s.error();
    }
    made.token.id = q.int64(0);
    return made;
}

Result<QList<ApiToken>> ApiTokenRepository::list() const
{
    StoreQuery q(m_store, selectToken + QStringLiteral("ORDER BY name"));
    if (Status s = q.exec(tr("list the tokens")); !s)
        return s.error();
    QList<ApiToken> tokens;
    while (q.next())
        tokens << readToken(q);
    return tokens;
}

Status ApiTokenRepository::remove(const QString &name)
{
    StoreQuery q(m_store, QStringLiteral("DELETE FROM api_token WHERE name = ?"));
    q.bind(name);
    if (Status s = q.exec(tr("remove a token")); !s)
        return s;
    if (q.rowsAffected() == 0)
        return Error::notFound(
            tr("no token named '%1' (`hourglass token list` shows them)").arg(name));
    return {};
}

Result<ApiToken> ApiTokenRepository::check(const QString &text, const QDateTime &now) const
{
    const Error refused = Error::notFound(tr("no such token"));
    if (!text.startsWith(QLatin1String("hg_")) || text.size() != prefixLength + 32)
        return refused;
    StoreQuery q(m_store, selectToken + QStringLiteral("WHERE prefix = ?"));
    q.bind(prefixOf(text));
    if (Status s = q.exec(tr("check a token")); !s)
        return s.error();
    if (!q.next())
        return refused;
    ApiToken token = readToken(q);
    if (!sameHash(token.hash, hashOf(text)))
        return refused;
    if (token.expiresAt.isValid() && token.expiresAt <= now)
        return refused;
    return token;
}

Result<bool> ApiTokenRepository::stillValid(qint64 id, const QDateTime &now) const
{
    StoreQuery q(m_store, QStringLiteral("SELECT expires_at FROM api_token WHERE id = ?"));
    q.bind(id);
    if (Status s = q.exec(tr("check a token")); !s)
        return s.error();
    if (!q.next())
        return false;
    return q.value(0).isNull() || q.int64(0) > now.toMSecsSinceEpoch();
}

Status ApiTokenRepository::touch(const ApiToken &token, const QDateTime &now)
{
    if (token.lastUsedAt.isValid() && token.lastUsedAt.msecsTo(now) < 60000)
        return {};
    StoreQuery q(m_store, QStringLiteral("UPDATE api_token SET last_used_at = ? WHERE id = ?"));
    q.bind(StoreQuery::fromTime(now)).bind(token.id);
    return q.exec(tr("note a token's use"));
}

} // namespace hg
