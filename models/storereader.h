#pragma once

#include "base/result.h"
#include "store/storelocation.h"

#include <QObject>
#include <QPointer>
#include <QThread>

#include <functional>
#include <memory>

namespace hg {

class Store;

// Reads the store on a thread of its own, on a connection opened there once (a Qt Sql
// connection belongs to the thread that opened it), so reading 10,000 chains never freezes
// the window. Reads run one after another in the order asked; each answer comes back as a
// value on the GUI thread, and not at all once its owner is gone.
class StoreReader final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(StoreReader)

public:
    // `checked`: the GUI's own connection found the file sound (SQLite), so this one skips the
    // check that reads the whole file. On a damaged store the reader checks again and reads.
    StoreReader(const StoreLocation &location, bool checked, QObject *parent = nullptr);
    ~StoreReader() override;

    template<typename T>
    void read(QObject *owner, std::function<Result<T>(Store &)> work,
              std::function<void(const Result<T> &)> done)
    {
        QPointer<QObject> guard(owner);
        post([this, guard, work = std::move(work), done = std::move(done)](Store *store,
                                                                           const Error &failed) {
            auto answer = std::make_shared<Result<T>>(store ? work(*store) : Result<T>(failed));
            // Back on this object's (the GUI) thread, where the guard may be read safely.
            QMetaObject::invokeMethod(
                this,
                [guard, done, answer] {
                    if (guard)
                        done(*answer);
                },
                Qt::QueuedConnection);
        });
    }

    // Reads asked and not yet answered (for tests and the stall benchmark).
    int pending() const { return m_pending.loadRelaxed(); }

private:
    // Runs JOB in the reader's thread with the open store, or with null and why it would not
    // open (tried again at the next job: a server may come back).
    void post(std::function<void(Store *, const Error &)> job);
    Store *openStore(Error &failed);

    StoreLocation m_location;
    bool m_checked;
    QThread m_thread;
    QObject *m_worker;              // lives in m_thread: the jobs are its queued calls
    std::unique_ptr<Store> m_store; // opened, used and closed in m_thread only
    QAtomicInt m_pending;
};

} // namespace hg
