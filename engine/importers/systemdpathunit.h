#pragma once

#include "importreport.h"

#include <QCoreApplication>
#include <QJsonArray>

namespace hg {

class SystemdUnitFile;

// A systemd .path unit's [Path] section as file triggers, in the export document's shape
// (ChainTriggerExchange): PathExists= and PathExistsGlob= (the file appears), PathChanged=
// (closed after writing, moved, deleted), PathModified= (the same; Hourglass waits until the
// writer closes it), DirectoryNotEmpty= (a file appears in the folder), and
// TriggerLimitIntervalSec=/TriggerLimitBurst= as the storm guard. A path ending in "/" or
// naming a folder here is watched as the folder's files. systemd starts at once; the settle
// time is 0 (a file counts when its writer closed it).
class SystemdPathUnit final
{
    Q_DECLARE_TR_FUNCTIONS(hg::SystemdPathUnit)

public:
    static QJsonArray triggers(const SystemdUnitFile &unit, const QString &unitPath,
                               ImportReport &report);
};

} // namespace hg
