#pragma once

#include "base/result.h"

#include <QJsonObject>
#include <QStringList>

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

    // From a damaged store (opened read-only), what can still be read: a chain or project
    // that cannot be read is left out and named in `unreadable` ("ops/nightly: why")
    // instead of failing the whole export. Off by default: a sound store exports whole or
    // not at all.
    void salvageInto(QStringList *unreadable) { m_unreadable = unreadable; }
    // A copy within this store (the window's undo, `chain show`): SendMail tasks keep their
    // password's key. Off by default: a document for elsewhere leaves it behind.
    void keepPasswordKeys(bool keep) { m_keepPasswordKeys = keep; }

    // The first chain of the document's first project (exportProject with a chain: the one).
    static QJsonObject firstChain(const QJsonObject &document);

    Result<QJsonObject> exportAll();
    Result<QJsonObject> exportProject(const QString &project,
                                      const std::optional<QString> &chain = std::nullopt);

private:
    // The global notification routes go only with the whole store (exportAll).
    Result<QJsonObject> exportProjects(const QStringList &projects,
                                       const std::optional<QString> &chain, bool withGlobalRoutes);

    // False when the error must end the export; true when it was noted and is skipped.
    bool skip(const QString &what, const Error &error);

    Store &m_store;
    QStringList *m_unreadable = nullptr;
    bool m_keepPasswordKeys = false;
};

} // namespace hg
