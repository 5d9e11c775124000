#include "foreignimport.h"

#include "crontabimporter.h"
#include "store/chainrepository.h"
#include "store/notifychannelrepository.h"
#include "store/projectimporter.h"
#include "store/projectrepository.h"
#include "store/store.h"
#include "systemdtimerimporter.h"
#include "windowstaskimporter.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QSysInfo>

#include <pwd.h>
#include <unistd.h>

namespace hg {
namespace {

QString currentUser()
{
    // Asked from one thread, once per import.
    const passwd *entry = ::getpwuid(::getuid()); // NOLINT(concurrency-mt-unsafe)
    return entry ? QString::fromLocal8Bit(entry->pw_name) : QString::number(::getuid());
}

// Files and the desktop are this machine's: on a shared store a chain with file or desktop
// triggers names the engine here (HOURGLASS_ENGINE_NAME, else the host name, as the engine
// takes it). Empty on SQLite, where the one engine watches every trigger.
QString sharedEngineName(const Store &store)
{
    if (store.backend() != StoreBackend::PostgreSql)
        return {};
    const QString name = qEnvironmentVariable("HOURGLASS_ENGINE_NAME");
    return name.isEmpty() ? QSysInfo::machineHostName() : name;
}

} // namespace

Result<QSet<QString>> ForeignImport::takenChainNames(Store &store, const QString &project)
{
    const Result<Project> stored = ProjectRepository(store).byName(project);
    if (!stored)
        return stored.error().kind == ErrorKind::NotFound ? Result<QSet<QString>>(QSet<QString>())
                                                          : Result<QSet<QString>>(stored.error());
    const Result<QList<Chain>> chains = ChainRepository(store).list(stored->id);
    if (!chains)
        return chains.error();
    QSet<QString> names;
    for (const Chain &chain : chains.value())
        names.insert(chain.name);
    return names;
}

std::optional<ForeignImport::Kind> ForeignImport::kindNamed(const QString &name)
{
    for (const Kind kind : {Kind::Crontab, Kind::WindowsTask, Kind::Systemd}) {
        if (nameOf(kind) == name)
            return kind;
    }
    return std::nullopt;
}

QString ForeignImport::nameOf(Kind kind)
{
    switch (kind) {
    case Kind::Crontab:
        return QStringLiteral("crontab");
    case Kind::WindowsTask:
        return QStringLiteral("windows-task");
    case Kind::Systemd:
        return QStringLiteral("systemd");
    }
    return {};
}

QStringList ForeignImport::names()
{
    return {nameOf(Kind::Crontab), nameOf(Kind::WindowsTask), nameOf(Kind::Systemd)};
}

void ForeignImport::noteWaitingMailRoutes(Store &store, ImportedDefinitions &imported)
{
    bool toDefault = false;
    for (const QJsonValue chain : std::as_const(imported.chains))
        for (const QJsonValue route : chain[QLatin1String("notifications")].toArray())
            toDefault = toDefault || !route.toObject().contains(QLatin1String("channel"));
    if (!toDefault)
        return;
    if (const Result<QList<NotifyChannel>> channels = NotifyChannelRepository(store).list())
        for (const NotifyChannel &channel : channels.value())
            if (channel.isDefault && channel.kind == ChannelKind::Email)
                return;
    imported.report.note(QStringLiteral("MAILTO"), QString(),
                         tr("there is no default e-mail channel yet: the mail routes wait for "
                            "one. Add it with `hourglass channel add NAME --kind email --url "
                            "smtp://HOST --from ADDR --to ADDR --default`"));
}

Result<ImportedDefinitions> ForeignImport::convert(Store &store, const Request &request)
{
    const Result<QSet<QString>> taken = takenChainNames(store, request.project);
    if (!taken)
        return taken.error();
    const bool fromStdin = request.path == QLatin1String("-");
    switch (request.kind) {
    case Kind::Crontab: {
        CrontabImporter::Options options;
        options.project = request.project;
        options.userColumn = request.userColumn || CrontabImporter::hasUserColumn(request.path);
        options.currentUser = currentUser();
        options.homeDirectory = QDir::homePath();
        options.takenChainNames = taken.value();
        ImportedDefinitions imported = CrontabImporter().convert(
            request.bytes, fromStdin ? QStringLiteral("crontab") : request.path, options);
        noteWaitingMailRoutes(store, imported);
        return imported;
    }
    case Kind::WindowsTask: {
        WindowsTaskImporter::Options options;
        options.project = request.project;
        options.engineName = sharedEngineName(store);
        options.takenChainNames = taken.value();
        ImportedDefinitions imported = WindowsTaskImporter().convert(
            request.bytes, fromStdin ? QStringLiteral("task.xml") : request.path, options);
        noteWaitingMailRoutes(store, imported);
        return imported;
    }
    case Kind::Systemd: {
        if (fromStdin)
            return Error::invalid(tr("a systemd timer is read from its file, with the service "
                                     "beside it, not from standard input"));
        SystemdTimerImporter::Options options;
        options.project = request.project;
        options.engineName = sharedEngineName(store);
        options.currentUser = currentUser();
        options.homeDirectory = QDir::homePath();
        options.takenChainNames = taken.value();
        // A .service given alone is the service, not a timer whose lines all have no place.
        if (request.path.endsWith(QLatin1String(".service")))
            return SystemdTimerImporter().convert({}, request.path, request.bytes, request.path,
                                                  options);
        const QString servicePath =
            SystemdTimerImporter::servicePathFor(request.bytes, request.path);
        QFile service(servicePath);
        const QByteArray serviceText =
            service.open(QIODevice::ReadOnly) ? service.readAll() : QByteArray();
        return SystemdTimerImporter().convert(request.bytes, request.path, serviceText, servicePath,
                                              options);
    }
    }
    return Error::invalid(tr("unknown kind of file"));
}

Status ForeignImport::write(Store &store, const ImportedDefinitions &imported, bool checkOnly)
{
    if (imported.chains.isEmpty())
        return {};
    const QByteArray document = QJsonDocument(imported.document()).toJson();
    ProjectImporter importer(store);
    const Result<ProjectImporter::Summary> written =
        checkOnly ? importer.checkDocument(document) : importer.importDocument(document);
    if (!written)
        return written.error();
    return {};
}

} // namespace hg
