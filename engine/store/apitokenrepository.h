#pragma once

#include "base/result.h"
#include "domain/apitoken.h"

#include <QCoreApplication>
#include <QList>

#include <optional>

namespace hg {

class Store;

// The local API's tokens. make() creates the token text (160 random bits from the system's
// source, "hg_" and hex) and keeps only its SHA-256 and prefix; check() finds a token's row
// from its text in constant time over the hash.
class ApiTokenRepository final
{
    Q_DECLARE_TR_FUNCTIONS(hg::ApiTokenRepository)

public:
    explicit ApiTokenRepository(Store &store)
        : m_store(store)
    {}

    struct Made
    {
        ApiToken token;
        QString text; // shown once, never stored
    };
    Result<Made> make(const QString &name, ApiRole role, const QDateTime &expiresAt);
    Result<QList<ApiToken>> list() const;
    Status remove(const QString &name);
    // The token's row when `text` is a token that exists and has not expired; NotFound
    // otherwise (the same answer for every way it can be wrong).
    Result<ApiToken> check(const QString &text, const QDateTime &now) const;
    // Last use is written at most once a minute per token: a busy scraper is not a write
    // per request.
    Status touch(const ApiToken &token, const QDateTime &now);
    // The token is still there and has not expired (a long stream asks now and then).
    Result<bool> stillValid(qint64 id, const QDateTime &now) const;

    static QString hashOf(const QString &text);
    static QString prefixOf(const QString &text);

private:
    Store &m_store;
};

} // namespace hg
