#pragma once

#include "base/enumnames.h"

#include <QDateTime>
#include <QString>

namespace hg {

// What a token of the local API may do. Each role includes the ones before it, except
// Metrics, which reads /metrics only (for a Prometheus that should see nothing else).
enum class ApiRole { Metrics, Read, Operate, Admin };
HG_ENUM_NAMES(ApiRole, {ApiRole::Metrics, "metrics"}, {ApiRole::Read, "read"},
              {ApiRole::Operate, "operate"}, {ApiRole::Admin, "admin"})

// A token's row: its hash and prefix, never the token (shown once, when it is made).
struct ApiToken
{
    qint64 id = 0;
    QString name;
    ApiRole role = ApiRole::Read;
    QString prefix; // the token's first characters, to name it ("hg_3fa9c2d1")
    QString hash;   // SHA-256 of the whole token, hex
    QDateTime createdAt;
    QDateTime expiresAt; // invalid: never
    QDateTime lastUsedAt;

    // Whether this role may do what `needed` allows.
    static bool allows(ApiRole held, ApiRole needed)
    {
        if (held == ApiRole::Metrics || needed == ApiRole::Metrics)
            return held == needed || held != ApiRole::Metrics;
        return int(held) >= int(needed);
    }
};

} // namespace hg
