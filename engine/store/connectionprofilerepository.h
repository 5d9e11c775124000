#pragma once

#include "base/result.h"
#include "domain/connectionprofile.h"

#include <QCoreApplication>
#include <QList>

namespace hg {

class Store;

class ConnectionProfileRepository final
{
    Q_DECLARE_TR_FUNCTIONS(hg::ConnectionProfileRepository)

public:
    explicit ConnectionProfileRepository(Store &store)
        : m_store(store)
    {}

    Result<ConnectionProfile> add(const ConnectionProfile &profile);
    Status update(const ConnectionProfile &profile);
    Result<ConnectionProfile> byName(const QString &name) const;
    Result<ConnectionProfile> byId(qint64 id) const;
    Result<QList<ConnectionProfile>> list() const;
    // Refused while a task still uses the profile.
    Status remove(const QString &name);

private:
    Result<ConnectionProfile> fetchOne(const QString &where, const QVariant &key,
                                       const QString &notFound) const;

    Store &m_store;
};

} // namespace hg
