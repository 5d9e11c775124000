#pragma once

#include "base/canceltoken.h"
#include "builtinarguments.h"

#include <QProcessEnvironment>
#include <QString>
#include <QTimeZone>

#include <atomic>
#include <functional>

namespace hg {

// Everything the engine needs to know, built once by app/ (the engine never reads QSettings).
struct EngineConfig
{
    QString storeLocation;   // as for --db; empty: HOURGLASS_DB or the default file
    QString name;            // engine name: client_name of chains, session name
    int slotCount = 4;       // tasks running at once, across all runs
    int maxActiveRuns = 256; // runs admitted at once; the rest wait in the queue
    QTimeZone defaultZone = QTimeZone::systemTimeZone();
    int graceMs = 5000; // TERM -> KILL
    qint64 outputCapBytes = qint64(10) * 1024 * 1024;
    int lateToleranceMs = 60000; // a fire later than this counts as missed (misfire policy)
    int commandPollMs = 250;     // how often the command table is read
    int heartbeatMs = 5000;
    // While the store refuses writes: tried again after this long, doubling up to the maximum
    // (a test that injects thousands of faults shortens both).
    int storeRetryMs = 500;
    int storeRetryMaxMs = 10000;
    int leaseMs = 30000;
    // Shared PostgreSQL store: a task that waited this long for one of this engine's slots is
    // offered to the other engines (the first with a free slot runs it).
    int offerAfterMs = 1000;
    bool runSchedules = true; // false: only what is asked for (hourglass run --wait)
    // The engine of one `run --wait`: it runs what it is handed (admitRun) and takes no
    // command about another run (it would start that run, then cancel it on leaving).
    bool onlyHandedRuns = false;
    bool schedulesPaused = false; // start paused (the GUI's "pause all schedules")
    // Shared PostgreSQL store: tell runChanged also for runs other engines changed (a window
    // shows them; `serve` prints only its own).
    bool tellRunsElsewhere = false;
    // This process checked the SQLite file already (the desktop, before its window): the
    // engine's connection skips quick_check, which reads the whole file again.
    bool storeChecked = false;
    // The variables a task may see from the engine's own environment; nothing else leaks in.
    QProcessEnvironment baseEnvironment;
    // The password of a connection profile from its keychain key (the app wires the OS
    // keychain in). Unset or empty: the client library's own sources (~/.pgpass …).
    std::function<QString(const QString &keychainKey)> secretLookup;
    // Sends a SendMail builtin's message, blocking (a pool thread calls it): the app wires in
    // the notifications' SMTP (libcurl) and secrets (SendMailTask). Unset: SendMail fails,
    // saying so.
    std::function<SendMailResult(const SendMailArguments &mail, qint64 timeoutMs,
                                 CancelToken *cancel)>
        sendMail;
    // Whether the computer has a network now, for chains that need one (Chain::needsNetwork).
    // Unset: NetworkPresence::online() (tests put their own answer here).
    std::function<bool()> online;

    static QProcessEnvironment safeEnvironment(const QProcessEnvironment &from);
};

} // namespace hg
