#include "systemdpathunit.h"

#include "domain/filetriggerspec.h"
#include "systemdtimerimporter.h"
#include "systemdunitfile.h"

#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>

namespace hg {
namespace {

// systemd's own defaults (systemd.path(5)): 200 activations in 2 s.
constexpr qint64 defaultLimitIntervalSec = 2;
constexpr qint64 defaultLimitBurst = 200;

} // namespace

QJsonArray SystemdPathUnit::triggers(const SystemdUnitFile &unit, const QString &unitPath,
                                     ImportReport &report)
{
    QList<FileTriggerSpec> specs;
    qint64 intervalSec = defaultLimitIntervalSec;
    qint64 burst = defaultLimitBurst;
    for (const SystemdUnitFile::Entry &entry : unit.entries()) {
        const QString at = entry.where(unitPath);
        if (entry.section == QLatin1String("Unit") || entry.section == QLatin1String("Install"))
            continue; // the description is the chain's; [Install] only enables the unit
        if (entry.section != QLatin1String("Path")) {
            report.leftOut(at, entry.text(),
                           tr("section [%1] has no counterpart").arg(entry.section));
            continue;
        }
        const QString &key = entry.key;
        const QString value = entry.value.trimmed();
        const bool folder = value.endsWith(QLatin1Char('/')) || QFileInfo(value).isDir();
        const QString folderGlob =
            (value.endsWith(QLatin1Char('/')) ? value.chopped(1) : value) + QStringLiteral("/*");
        FileTriggerSpec spec;
        spec.settleMs = 0;
        spec.misfire = MisfirePolicy::Once; // systemd starts the service if the path is there
        if (key == QLatin1String("PathExists") || key == QLatin1String("PathExistsGlob")) {
            spec.glob = value;
            spec.events = {FileEvent::Created, FileEvent::Moved};
        } else if (key == QLatin1String("DirectoryNotEmpty")) {
            spec.glob = folderGlob;
            spec.events = {FileEvent::Created, FileEvent::Moved};
        } else if (key == QLatin1String("PathChanged") || key == QLatin1String("PathModified")) {
            spec.glob = folder ? folderGlob : value;
            spec.events = {FileEvent::Created, FileEvent::Modified, FileEvent::Deleted,
                           FileEvent::Moved};
            if (key == QLatin1String("PathModified"))
                report.note(at, entry.text(),
                            tr("systemd starts on every write; Hourglass once the writer "
                               "closed the file"));
        } else if (key == QLatin1String("TriggerLimitIntervalSec")) {
            intervalSec = SystemdTimerImporter::spanSeconds(value);
            if (intervalSec <= 0)
                report.leftOut(at, entry.text(), tr("'%1' is not a time span").arg(value));
            continue;
        } else if (key == QLatin1String("TriggerLimitBurst")) {
            bool ok = false;
            burst = value.toLongLong(&ok);
            if (!ok || burst <= 0)
                report.leftOut(at, entry.text(), tr("'%1' is not a number of starts").arg(value));
            continue;
        } else if (key == QLatin1String("Unit")) {
            continue; // the service read
        } else if (key == QLatin1String("MakeDirectory") || key == QLatin1String("DirectoryMode")) {
            report.leftOut(at, entry.text(),
                           tr("Hourglass does not make the watched folder; it watches it once "
                              "it is there"));
            continue;
        } else {
            report.leftOut(at, entry.text(), tr("%1= has no counterpart").arg(key));
            continue;
        }
        if (const QString problem = spec.problem(); !problem.isEmpty()) {
            report.leftOut(at, entry.text(), problem);
            continue;
        }
        if (folder && key != QLatin1String("DirectoryNotEmpty"))
            report.note(at, entry.text(), tr("a folder: watched as its files, %1").arg(spec.glob));
        specs << spec;
    }
    // The storm guard is per minute: systemd's burst over its interval, as a rate.
    const int perMinute =
        intervalSec > 0 && burst > 0
            ? int(std::clamp<qint64>(burst * 60 / std::max<qint64>(intervalSec, 1), 1, 6000))
            : FileTriggerSpec::defaultMaxPerMinute;
    QJsonArray triggers;
    for (FileTriggerSpec &spec : specs) {
        spec.maxPerMinute = perMinute;
        triggers << QJsonObject{
            {QStringLiteral("file"), QJsonDocument::fromJson(spec.toJson().toUtf8()).object()}};
    }
    if (triggers.isEmpty())
        report.leftOut(QFileInfo(unitPath).fileName(), {},
                       tr("no path could be imported: the chain runs only when started"));
    return triggers;
}

} // namespace hg
