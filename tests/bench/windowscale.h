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
    qint64 firstPaintMs = 0;   // asked for, then painted (a placeholder counts)
    qint64 filledMs = 0;       // until its data is shown
    qint64 longestStallMs = 0; // the GUI thread's longest time away from its events
    qint64 longestBusyMs = 0;  // of it, the longest its own work took (CPU time, not load)
};

// `chains` chains of one hourly task each (at minute i % 60), and `runsPerChain` finished runs
// each (one in ten failed), written straight into the store.
void fillStore(Store &store, int chains, qint64 runsPerChain);

// Chain editor (the first chain selected), Runs, Upcoming, Overview, then the tree scrolled
// to its end and a chain near it opened: each measured on its own.
QList<ViewFigure> openEachView(MainWindow &window);

} // namespace hg::bench
