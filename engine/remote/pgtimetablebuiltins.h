#pragma once

#include "base/result.h"
#include "pgtimetabletypes.h"

#include <QCoreApplication>
#include <QJsonObject>

#include <functional>

namespace hg {

// pg_timetable's builtins as Hourglass's, both ways (PgTimetableConverter's tasks): NoOp,
// Sleep and Log as they are; SendMail as SendMail with its password kept apart (the keychain);
// Download as one Download task per URL; the four COPY builtins as Hourglass's, on the
// remote's own database (pg_timetable runs them on its configuration database). Shutdown,
// which ends the pg_timetable process, is refused with its reason.
class PgTimetableBuiltins final
{
    Q_DECLARE_TR_FUNCTIONS(hg::PgTimetableBuiltins)

public:
    struct Import
    {
        QString remoteName;
        // Keeps a SendMail password (the keychain, else a 0600 file) and returns its key.
        std::function<Result<QString>(const QString &password)> keepPassword;
        QStringList *notes = nullptr; // what the user should hear (a password moved…)
    };

    // The task objects (of a hourglass-export document) one pg_timetable builtin becomes, in
    // order; `object` holds the fields they all share (name, timeouts, ignoreError).
    static Result<QList<QJsonObject>> toHourglass(const PgtTask &task, const QString &label,
                                                  const QJsonObject &object, const Import &import);
    // A builtin task object as pg_timetable's: `out` gets its kind, command and parameter.
    static Status toPgTimetable(const QJsonObject &task, PgtTask &out, QStringList *notes);
};

} // namespace hg
