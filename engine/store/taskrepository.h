#pragma once

#include "base/result.h"
#include "domain/task.h"

#include <QCoreApplication>
#include <QList>

namespace hg {

class Store;

class TaskRepository final
{
    Q_DECLARE_TR_FUNCTIONS(hg::TaskRepository)

public:
    explicit TaskRepository(Store &store)
        : m_store(store)
    {}

    // Each write is checked by TaskValidator first.
    Result<Task> add(const Task &task);
    Status update(const Task &task);
    // Where the task sits on the canvas, and nothing else: no definition change for the
    // engine (the store's revision triggers leave the position columns out).
    Status setPosition(qint64 taskId, const std::optional<QPointF> &position);
    Result<Task> byName(qint64 chainId, const QString &name) const;
    Result<Task> byId(qint64 id) const;
    Result<QList<Task>> list(qint64 chainId) const;
    // Refused while a run of its chain has not ended (RunsInFlight).
    Status remove(qint64 id);
    // Whether any task's arguments hold `text` (a SendMail password's keychain key, before
    // it is forgotten).
    Result<bool> anyArgumentsHold(const QString &text) const;

private:
    Result<QVariant> connectionIdFor(const Task &task) const;
    Status removeRow(qint64 id);

    Store &m_store;
};

} // namespace hg
