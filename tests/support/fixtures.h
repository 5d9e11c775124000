#pragma once

#include "domain/chain.h"
#include "domain/engineconfig.h"
#include "domain/run.h"
#include "domain/task.h"

namespace hg {
class Store;
}

namespace hg::test {

// Short ways to build the definitions a test needs; they QVERIFY-fail loudly on error by
// returning an object with id 0, which every caller checks.
Chain makeChain(Store &store, const QString &project, const QString &chain);
Task makeTask(Store &store, qint64 chainId, const QString &name,
              const QString &command = QStringLiteral("/bin/true"));
// Any kind of task; a bad definition is reported as a warning and gives id 0.
Task addTask(Store &store, qint64 chainId, const QString &name, TaskKind kind,
             const QString &command, const QStringList &arguments = {});

class TestStore;

// An engine configuration on the test's store, with short timings for tests.
EngineConfig engineConfig(const TestStore &store, const QString &name = QStringLiteral("test"));
// A queued manual run of the chain (what `hourglass run` inserts).
Run queueRun(Store &store, qint64 chainId, const QJsonObject &parameters = {});
// A run of the chain queued, running and ended in `state` by engine "e1", as the store's own
// triggers see an end (the outbox's, the chain triggers'); its id, 0 when a write failed.
qint64 endRun(Store &store, qint64 chainId, RunState state);

} // namespace hg::test
