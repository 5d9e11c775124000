#pragma once

#include "cron/crondialect.h"
#include "domain/engineconfig.h"
#include "domain/enums.h"

#include <QList>
#include <QString>

class QTextStream;

namespace hg {
class Store;
}

namespace hg::bench {

// `count` chains p/c0 … with one task each and one schedule each, in one transaction.
void createChains(Store &store, int count, TaskKind kind, const QString &command,
                  const QStringList &arguments, const QString &expression,
                  const QString &project = QStringLiteral("bench"),
                  CronDialect dialect = CronDialect::Auto);
// Milliseconds at the given percentile (0-100) of the values.
double percentile(QList<qint64> values, double percent);
QString figures(const QList<qint64> &values); // "p50 x ms, p99 y ms, max z ms"
qint64 residentKiB();                         // VmRSS of this process
EngineConfig benchConfig(const QString &storePath);

// posix_spawn of `program` (no arguments, this process's stdio) `count` times, at most
// `concurrent` alive at once, each reaped: the cost of starting processes here, with no
// scheduler around it.
struct Spawned
{
    double seconds = 0;       // from the first spawn to the last reaped
    double lastStartedMs = 0; // from the first spawn to the last
};
Spawned spawnLoop(const char *program, int count, int concurrent);

// What a figure is set beside: a physical limit (the same work done bare, in the same run), a
// peer (another program doing the same), or a target (a budget the issue or README names).
enum class Beside { Limit, Peer, Target };

// One measured figure and what it is set beside. The ratio is the figure's cost in units of the
// other: value / beside when lower is better (times), beside / value when higher is better
// (rates). So 1.0 is "as good as the limit"; against a target, at most 1.0 meets it.
struct Figure
{
    QString bench;    // "bench_engine"
    QString what;     // "NoOp builtin runs"
    double value = 0; // the figure
    QString unit;     // "ms", "runs/s", "MiB"
    bool higherIsBetter = false;
    Beside kind = Beside::Limit;
    QString besideWhat; // "posix_spawn loop, 4 slots"
    double beside = 0;  // the limit, peer or target, in the same unit
    [[nodiscard]] double ratio() const;
};

// Prints the figure beside its limit with the ratio (one indented line), and appends it as a
// tab-separated row to the file named by $HOURGLASS_BENCH_FIGURES when set: scripts/bench
// prints every row as a table at its end.
void report(QTextStream &out, const Figure &figure);
// report() of a time in milliseconds (lower is better), the commonest figure.
void reportMs(QTextStream &out, const QString &bench, const QString &what, double ms, Beside kind,
              const QString &besideWhat, double beside);

// GUI benchmarks draw offscreen when there is no display (before QApplication exists).
void useOffscreenWithoutDisplay();

} // namespace hg::bench
