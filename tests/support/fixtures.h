#pragma once

#include "domain/chain.h"
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

} // namespace hg::test
