#pragma once

#include "importeddefinitions.h"

#include <QCoreApplication>
#include <QSet>

namespace hg {

class SystemdUnitFile;
class ChainNamer;

// A systemd .timer and the .service it starts, as one chain: OnCalendar= (each a cron
// schedule in the seconds dialect, its zone kept), OnBootSec=/OnStartupSec= (a start-up
// schedule), OnUnitActiveSec= (every N), OnUnitInactiveSec= (N after the previous run ends),
// Persistent= (misfire "once", else "skip"); ExecStartPre=, ExecStart= and ExecStartPost=
// lines become program tasks, each after the one before, with the service's working
// directory and Environment=. A .path unit in place of the timer gives file triggers
// (SystemdPathUnit). Every key with no counterpart is reported, with its line.
class SystemdTimerImporter final
{
    Q_DECLARE_TR_FUNCTIONS(hg::SystemdTimerImporter)

public:
    struct Options
    {
        QString project = QStringLiteral("systemd");
        QSet<QString> takenChainNames;
        QString currentUser;
        QString homeDirectory;
        QString engineName; // set: a .path unit's chain is watched by this engine
    };

    // The service a timer starts: Unit= in [Timer], else the timer's own name.
    static QString servicePathFor(const QByteArray &timer, const QString &timerPath);
    // A systemd time span ("5min", "1h 30min", "90") in seconds; -1 when it is none.
    static qint64 spanSeconds(const QString &span);

    // SERVICE is empty (and SERVICEPATH names what was looked for) when it cannot be read.
    ImportedDefinitions convert(const QByteArray &timer, const QString &timerPath,
                                const QByteArray &service, const QString &servicePath,
                                const Options &options);

private:
    QJsonArray schedules(const SystemdUnitFile &timer, const QString &timerPath,
                         ImportReport &report);
    QJsonArray tasks(const SystemdUnitFile &service, const QString &servicePath,
                     const Options &options, QJsonObject &chain, ImportReport &report);
};

} // namespace hg
