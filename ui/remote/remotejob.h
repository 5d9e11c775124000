#pragma once

#include "base/result.h"
#include "base/waitingworkpool.h"
#include "domain/connectionprofile.h"
#include "remote/connectionsecrets.h"
#include "remote/dolphinschedulercatalog.h"
#include "remote/pgagentcatalog.h"
#include "remote/pgtimetablecatalog.h"
#include "remote/remoteconnectioncache.h"
#include "remote/remotedatabase.h"

#include <QFuture>
#include <QFutureWatcher>
#include <QtConcurrent>

#include <functional>
#include <memory>

namespace hg {

// Remote I/O never runs on the GUI thread: each job runs in a pool thread on that thread's
// own connection (a Qt Sql connection belongs to the thread that opened it), kept open there
// for the next job (RemoteConnectionCache); a remote that is down costs the connect timeout in
// that thread, never a frozen window. The result is shared because Result<T> has no default value
// for QFuture to hold.
template<typename T>
using RemoteAnswer = std::shared_ptr<Result<T>>;

// The work gets the remote's database and its catalog (PgTimetableCatalog,
// DolphinSchedulerCatalog, PgAgentCatalog), opened in that thread on a connection of its own;
// acts that write beside the catalog (DolphinSchedulerLauncher) need the database too.
// `wanted`, when given, is asked in the pool thread before anything is read: a job whose
// page moved on meanwhile (the user went down the tree while the remote was slow) costs no
// connection and no read.
template<typename Catalog, typename T>
QFuture<RemoteAnswer<T>>
onRemoteDatabase(const ConnectionProfile &profile,
                 std::function<Result<T>(RemoteDatabase &, const Catalog &)> work,
                 std::function<bool()> wanted = {})
{
    return QtConcurrent::run(remoteReadPool(), [profile, work, wanted]() -> RemoteAnswer<T> {
        if (wanted && !wanted())
            return std::make_shared<Result<T>>(
                Error::runtime(QStringLiteral("superseded: the page moved on")));
        const Result<QString> password = ConnectionSecrets().lookup(profile);
        if (!password)
            return std::make_shared<Result<T>>(password.error());
        const Result<RemoteDatabase *> remote =
            RemoteConnectionCache::acquire(profile, password.value());
        if (!remote)
            return std::make_shared<Result<T>>(remote.error());
        const Result<Catalog> catalog = Catalog::open(*remote.value());
        if (!catalog)
            return std::make_shared<Result<T>>(catalog.error());
        return std::make_shared<Result<T>>(work(*remote.value(), catalog.value()));
    });
}

template<typename Catalog, typename T>
QFuture<RemoteAnswer<T>> onRemote(const ConnectionProfile &profile,
                                  std::function<Result<T>(const Catalog &)> work,
                                  std::function<bool()> wanted = {})
{
    return onRemoteDatabase<Catalog, T>(
        profile, [work](RemoteDatabase &, const Catalog &catalog) { return work(catalog); },
        std::move(wanted));
}

template<typename T>
QFuture<RemoteAnswer<T>> onPgTimetable(const ConnectionProfile &profile,
                                       std::function<Result<T>(const PgTimetableCatalog &)> work)
{
    return onRemote<PgTimetableCatalog, T>(profile, std::move(work));
}

template<typename T>
QFuture<RemoteAnswer<T>>
onDolphinScheduler(const ConnectionProfile &profile,
                   std::function<Result<T>(const DolphinSchedulerCatalog &)> work)
{
    return onRemote<DolphinSchedulerCatalog, T>(profile, std::move(work));
}

template<typename T>
QFuture<RemoteAnswer<T>> onPgAgent(const ConnectionProfile &profile,
                                   std::function<Result<T>(const PgAgentCatalog &)> work)
{
    return onRemote<PgAgentCatalog, T>(profile, std::move(work));
}

// Hands FUTURE's answer to DONE on OWNER's thread (never, once OWNER is gone).
template<typename T>
void whenAnswered(QObject *owner, QFuture<RemoteAnswer<T>> future,
                  std::function<void(const Result<T> &)> done)
{
    auto *watcher = new QFutureWatcher<RemoteAnswer<T>>(owner);
    QObject::connect(watcher, &QFutureWatcher<RemoteAnswer<T>>::finished, owner, [watcher, done] {
        watcher->deleteLater();
        done(*watcher->result());
    });
    watcher->setFuture(future);
}

// Runs WORK off the GUI thread and hands its answer to DONE on OWNER's thread.
template<typename Catalog, typename T>
void runRemoteJob(QObject *owner, const ConnectionProfile &profile,
                  std::function<Result<T>(const Catalog &)> work,
                  std::function<void(const Result<T> &)> done, std::function<bool()> wanted = {})
{
    whenAnswered<T>(owner, onRemote<Catalog, T>(profile, std::move(work), std::move(wanted)),
                    std::move(done));
}

} // namespace hg
