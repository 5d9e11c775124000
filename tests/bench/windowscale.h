#pragma once

#include <QList>
#include <QString>

namespace hg {
class MainWindow;
class Store;
} // namespace hg

namespace hg::bench {

// The window at the scale of a shared store (issue 39): each view opened in turn while a
// StallProbe watches the GUI thread. Used by bench_windowscale (figures beside their targets)
// and tst_windowscale (the short form: a ceiling only a real regression reaches).
struct ViewFigure
{
    QString view;
    qint64 firstPaintMs = 0;            // asked for, then painted (a placeholder counts)
    qint64 filledMs = 0;                // until its data is shown
    qint64 longestStallMs = 0;          // the GUI thread's longest time away from its events
    qint64 longestBusyMs = 0;           // of it, the longest its own work took (CPU time, not load)
    qint64 longestStallRunDelayMs = -1; // of the longest stall, the wait for a core (load)
    // Statements sent on the window's own connection (the GUI thread waits for each: across a
    // network, a round trip each).
    QStringList windowStatements;
};

// `chains` chains of one hourly task each (at minute i % 60), and `runsPerChain` finished runs
// each (one in ten failed), written straight into the store.
void fillStore(Store &store, int chains, qint64 runsPerChain);

// Chain editor (the first chain selected), Runs, Runs scrolled down ten pages, Upcoming,
// Overview, the tree scrolled to its end and a chain near it opened, the schedule dialog, and
// the tree read again after a chain was added elsewhere: each measured on its own.
QList<ViewFigure> openEachView(MainWindow &window);
// File → Import of a crontab of `lines` lines, from choosing the file to the chains written
// (a project "imported" of its own).
ViewFigure importCrontab(MainWindow &window, int lines);
// A pg_timetable remote of `chains` chains, the store's only connection: its check lists every
// chain in the tree, then the last one's page is opened.
QList<ViewFigure> openRemoteChains(MainWindow &window, int chains);

// Live updates: `perSecond` chains that fire every second (a builtin NoOp task each) added to
// the store, its engine started in the window's process, the window showing every chain's
// runs for `seconds` while the probe watches the GUI thread.
struct LiveFigure
{
    qint64 runsEnded = 0;      // runs of those chains that ended while watched
    double seconds = 0;        // watched for
    qint64 longestStallMs = 0; // as in ViewFigure
    qint64 longestBusyMs = 0;
    qint64 longestStallRunDelayMs = -1;
    bool showsTheNewest = false; // Runs then listed the newest run of the watch at its top
};
// `runnerPath`: the live chains run by an engine of their own on this location (PostgreSQL
// without the window's added latency, as a server beside its database), not the window's.
LiveFigure liveUpdates(Store &store, const QString &storePath, int perSecond, int seconds,
                       const QString &runnerPath = {});

} // namespace hg::bench
