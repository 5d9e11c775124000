#pragma once

#include "base/enumnames.h"
#include "enums.h"

#include <QCoreApplication>
#include <QList>
#include <QString>

namespace hg {

// What happened to a file, as a file trigger names it: it appeared (created), was written
// again (modified), went away (deleted) or was renamed into the watched place (moved).
enum class FileEvent { Created, Modified, Deleted, Moved };
HG_ENUM_NAMES(FileEvent, {FileEvent::Created, "created"}, {FileEvent::Modified, "modified"},
              {FileEvent::Deleted, "deleted"}, {FileEvent::Moved, "moved"})

// A file trigger's settings (chain_trigger.settings, JSON). A file counts once it is closed
// after writing or renamed into place and its size and modification time stayed the same for
// settleMs. batchMs above 0: one run for every file that settled within that window (the
// list in ${trigger.paths}); else one run per file. maxPerMinute (0: no limit) is the storm
// guard: beyond it arrivals are gathered into the next run, never dropped. pollMs above 0
// polls instead of inotify (which is chosen by itself where inotify cannot see: network and
// FUSE filesystems, the watch limit reached). misfire: what arrived while no engine watched.
struct FileTriggerSpec
{
    Q_DECLARE_TR_FUNCTIONS(hg::FileTriggerSpec)

public:
    static constexpr qint64 defaultSettleMs = 2000;
    static constexpr int defaultMaxPerMinute = 60;
    static constexpr qint64 autoPollMs = 5000; // polling chosen by itself

    QString glob;
    QList<FileEvent> events{FileEvent::Created, FileEvent::Moved};
    qint64 settleMs = defaultSettleMs;
    qint64 batchMs = 0;
    int maxPerMinute = defaultMaxPerMinute;
    qint64 pollMs = 0;
    MisfirePolicy misfire = MisfirePolicy::All;

    bool wants(FileEvent event) const { return events.contains(event); }
    // "" when it holds, else the problem, naming the setting as the CLI names it (--settle …).
    QString problem() const;
    QString toJson() const;
    // Settings a newer Hourglass wrote keep their defaults here.
    static FileTriggerSpec fromJson(const QString &json);
    bool operator==(const FileTriggerSpec &other) const = default;
};

} // namespace hg
