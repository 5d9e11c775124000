#pragma once

class QThreadPool;

namespace hg {

// The threads for work that waits on something outside the process (a database, a remote
// server, a disk): a pool of its own, never QThreadPool::globalInstance(). Qt 6.4's raster
// painter splits its fills over the global pool and waits for them on the GUI thread, so a
// remote read queued there froze the window's painting for as long as the read waited
// (bench_windowscale: 550 ms opening a pg_timetable chain 20 ms away). And the global pool has
// as many threads as cores: on two cores a third SQL task waited unseen for one of the first
// two to end, and a stop's cancel waited behind them all.
//
// Threads are made when work comes and end after 30 s idle; the pool is deleted (waiting for
// its work) as the QCoreApplication is.
QThreadPool *waitingWorkPool();

// The threads the window reads remote scheduler databases on (pg_timetable, pgAgent,
// DolphinScheduler): at most four. Each keeps a connection of its own to the remote
// (RemoteConnectionCache); unbounded, a remote that was slow to answer got a new thread and a
// new connection per click until the server refused every client, its own workers too
// (helper-2: 100 of 100 connections, after 60 selections on a locked pg_timetable).
QThreadPool *remoteReadPool();

} // namespace hg
