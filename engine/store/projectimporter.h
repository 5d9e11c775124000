#pragma once

#include "base/result.h"
#include "chaintriggerexchange.h"

#include <QByteArray>
#include <QCoreApplication>
#include <QJsonObject>

namespace hg {

class Store;
class JsonFieldReader;

// Reads a document written by ProjectExporter, all or nothing: one transaction, rolled back
// at the first problem, so a bad file changes nothing. Projects and connection profiles that
// already exist are reused; a chain that already exists is an error.
class ProjectImporter final
{
    Q_DECLARE_TR_FUNCTIONS(hg::ProjectImporter)

public:
    struct Summary
    {
        int projects = 0;
        int chains = 0;
        int tasks = 0;
        int schedules = 0;
        QStringList notes; // what the user should hear (a channel without its secrets)
    };

    explicit ProjectImporter(Store &store)
        : m_store(store)
    {}

    Result<Summary> importDocument(const QByteArray &json);
    // Documents made here (the window's undo, a pg_timetable import that just kept the
    // password): SendMail tasks keep the password key they name. Off by default: a key from
    // a document may be another store's, which would forget it while this one sends with it.
    void takePasswordKeys(bool take) { m_takePasswordKeys = take; }
    // As importDocument(), then every write is rolled back: it finds any problem a real import
    // would (a chain that exists, a bad schedule) and changes nothing.
    Result<Summary> checkDocument(const QByteArray &json);

private:
    Result<Summary> read(const QByteArray &json, bool keep);
    Status importDocumentObject(const QJsonObject &document, Summary &summary);
    Status importConnections(JsonFieldReader &document);
    Status importCalendars(JsonFieldReader &document);
    Status importChannels(JsonFieldReader &document, Summary &summary);
    Status importChain(qint64 projectId, const QString &projectName, const QJsonObject &chain,
                       const QString &path, Summary &summary);
    // A chain's notification routes; a route that names no channel goes to the default one.
    // The field's "notifications": a chain's routes (chainId), a project's (projectId), or
    // the global ones (both 0).
    Status importNotifications(qint64 projectId, qint64 chainId, JsonFieldReader &field);

    Store &m_store;
    QString m_problem;
    bool m_takePasswordKeys = false;
    QList<ChainTriggerExchange::Pending> m_triggers; // read once every chain is in
};

} // namespace hg
