#pragma once

#include "base/result.h"
#include "importeddefinitions.h"

#include <QCoreApplication>
#include <QStringList>

#include <optional>

namespace hg {

class Store;

// One import of a foreign scheduler's file, the same for the command line and the desktop's
// File → Import…: the converter for its kind (with the names the project already has, the
// user and home of this account, a systemd timer's service read from beside it), then the
// chains written, or only checked, in one transaction.
class ForeignImport final
{
    Q_DECLARE_TR_FUNCTIONS(hg::ForeignImport)

public:
    enum class Kind { Crontab, WindowsTask, Systemd };

    struct Request
    {
        Kind kind = Kind::Crontab;
        QByteArray bytes;
        QString path; // "-" for standard input
        QString project;
        bool userColumn = false; // a crontab with a user on each line, wherever it lies
    };

    static std::optional<Kind> kindNamed(const QString &name);
    static QString nameOf(Kind kind); // as --from takes it
    static QStringList names();

    // The chain names PROJECT has already, so imported ones never collide.
    static Result<QSet<QString>> takenChainNames(Store &store, const QString &project);
    static Result<ImportedDefinitions> convert(Store &store, const Request &request);
    // Writes the chains in one transaction; CHECKONLY rolls it back, having found whatever a
    // real import would (a chain that appeared since the conversion, a bad schedule).
    static Status write(Store &store, const ImportedDefinitions &imported, bool checkOnly);

private:
    // Routes to the default e-mail channel (crontab MAILTO) wait while there is none: the
    // report says so, and how to add one.
    static void noteWaitingMailRoutes(Store &store, ImportedDefinitions &imported);
};

} // namespace hg
