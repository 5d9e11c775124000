#pragma once

#include "domain/run.h"
#include "domain/taskrun.h"

#include <QByteArray>
#include <QCoreApplication>
#include <QHash>
#include <QList>
#include <QSet>

#include <array>

namespace hg {

class Store;

// /metrics in Prometheus's text format. Counters and histograms count what this process's
// engine saw since it started (Prometheus sums them over instances and reads a restart as a
// reset); gauges are read from the store at each scrape. Labels are bounded: a chain's path,
// a state, an engine's name; never a run id.
class ApiMetrics final
{
    Q_DECLARE_TR_FUNCTIONS(hg::ApiMetrics)

public:
    // A run's change as the engine reports it: counted once at its end, its lateness once at
    // its start. The chain's path names it (read once per chain).
    void observe(const Run &run, const QString &chainPath);
    void observe(const TaskRun &attempt);
    void countRequest(int status);
    // Every metric, gauges read now on `store`.
    QByteArray render(Store &store) const;

    static constexpr std::array<double, 12> durationBuckets{0.1, 0.5, 1,   5,    10,   30,
                                                            60,  300, 600, 1800, 3600, 21600};
    static constexpr std::array<double, 11> latenessBuckets{0.001, 0.005, 0.01, 0.05, 0.1, 0.25,
                                                            0.5,   1,     5,    30,   60};

private:
    template<std::size_t N>
    struct Histogram
    {
        std::array<quint64, N> buckets{};
        quint64 count = 0;
        double sum = 0;
        void add(const std::array<double, N> &bounds, double value);
    };
    struct ChainFigures
    {
        QHash<QString, quint64> endedByState;
        Histogram<durationBuckets.size()> duration;
    };

    QHash<QString, ChainFigures> m_chains;
    Histogram<latenessBuckets.size()> m_lateness;
    Histogram<durationBuckets.size()> m_taskDuration;
    QSet<qint64> m_started; // runs whose lateness is counted, until they end
    QSet<qint64> m_ended;   // recent ends, so a repeated report is not counted twice
    QList<qint64> m_endedOrder;
    QHash<int, quint64> m_requests;
};

} // namespace hg
