#pragma once

#include "base/result.h"
#include "domain/project.h"

#include <QCoreApplication>
#include <QList>

namespace hg {

class Store;

class ProjectRepository final
{
    Q_DECLARE_TR_FUNCTIONS(hg::ProjectRepository)

public:
    explicit ProjectRepository(Store &store)
        : m_store(store)
    {}

    Result<Project> add(const QString &name, const QString &description = {});
    Result<Project> byName(const QString &name) const;
    Result<Project> byId(qint64 id) const;
    Result<QList<Project>> list() const;
    Status rename(qint64 id, const QString &newName);
    // A project that still holds chains is kept unless force is set.
    Status remove(const QString &name, bool force);
    Result<int> chainCount(qint64 projectId) const;

private:
    Result<Project> fetchOne(const QString &where, const QVariant &key,
                             const QString &notFound) const;

    Store &m_store;
};

} // namespace hg
