#pragma once

#include "base/result.h"

#include <QJsonObject>

#include <optional>

namespace hg {

class Store;

// Writes projects (all, one, or one chain of one) as a versioned JSON document. The document
// holds names, never ids, so it imports into any store, and the same store exports the same
// bytes every time.
class ProjectExporter final
{
public:
    static constexpr int formatVersion = 1;
    static QString formatName() { return QStringLiteral("hourglass-export"); }

    explicit ProjectExporter(Store &store)
        : m_store(store)
    {}

    Result<QJsonObject> exportAll();
    Result<QJsonObject> exportProject(const QString &project,
                                      const std::optional<QString> &chain = std::nullopt);

private:
    Result<QJsonObject> exportProjects(const QStringList &projects,
                                       const std::optional<QString> &chain);

    Store &m_store;
};

} // namespace hg
