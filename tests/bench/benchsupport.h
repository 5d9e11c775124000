#pragma once

#include "domain/engineconfig.h"
#include "domain/enums.h"

#include <QList>
#include <QString>

namespace hg {
class Store;
}

namespace hg::bench {

// `count` chains p/c0 … with one task each and one schedule each, in one transaction.
void createChains(Store &store, int count, TaskKind kind, const QString &command,
                  const QStringList &arguments, const QString &expression);
// Milliseconds at the given percentile (0-100) of the values.
double percentile(QList<qint64> values, double percent);
QString figures(const QList<qint64> &values); // "p50 x ms, p99 y ms, max z ms"
qint64 residentKiB();                         // VmRSS of this process
EngineConfig benchConfig(const QString &storePath);

// GUI benchmarks draw offscreen when there is no display (before QApplication exists).
void useOffscreenWithoutDisplay();

} // namespace hg::bench
