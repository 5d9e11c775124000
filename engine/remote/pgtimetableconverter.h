#pragma once

#include "base/result.h"
#include "pgtimetabletypes.h"

#include <QCoreApplication>
#include <QJsonObject>

#include <functional>

namespace hg {

// Between a pg_timetable chain and a local chain, through the project document that
// ProjectImporter reads and ProjectExporter writes. pg_timetable's chains are linear: each
// task after the previous one, on its success or, when the previous ignores errors, on its
// completion. What one side cannot express is refused, naming the task and the reason.
class PgTimetableConverter final
{
    Q_DECLARE_TR_FUNCTIONS(hg::PgTimetableConverter)

public:
    // A hourglass-export document with one project holding the chain. SQL tasks run on the
    // remote's own database (the connection profile `remoteName`); the schedule keeps
    // pg_timetable's dialect in the server's time zone.
    struct ImportOptions
    {
        // Keeps a SendMail password apart from the store and returns its key (ChannelSecrets).
        std::function<Result<QString>(const QString &password)> keepPassword;
        QStringList *notes = nullptr; // what the user should be told
    };
    static Result<QJsonObject> toDocument(const PgtChain &chain, const QString &project,
                                          const QString &remoteName, const QString &timeZone,
                                          const ImportOptions &options);
    static Result<QJsonObject> toDocument(const PgtChain &chain, const QString &project,
                                          const QString &remoteName, const QString &timeZone)
    {
        return toDocument(chain, project, remoteName, timeZone, ImportOptions());
    }
    // A chain object of a hourglass-export document as a new pg_timetable chain; `notes` get
    // what did not go (a SendMail password).
    static Result<PgtChain> fromChainObject(const QJsonObject &chain, QStringList *notes = nullptr);
};

} // namespace hg
