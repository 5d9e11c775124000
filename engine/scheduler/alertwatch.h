#pragma once

#include "domain/alert.h"
#include "domain/run.h"

#include <QCoreApplication>
#include <QHash>
#include <QList>
#include <QSet>
#include <QTimeZone>

#include <optional>

namespace hg {

class Store;

// Judges runs against their chain's alert rules and records what it raises: a run that
// started late (when it starts), one that runs past its ceiling (while it runs, once) or
// ended below its floor (a succeeded one, when it ends), and each deadline that passed
// without a succeeded run in the 24 hours before it (looked at every few seconds). The rules
// of every chain are read at each look, so an edit holds within seconds, and a run of a chain
// without rules costs no query. Time comes from the engine's clock, so tests move it.
//
// On a shared store every engine judges the runs it executes; deadlines are judged by the
// engine that writes the occurrence ledger, so each is raised once.
class AlertWatch final
{
    Q_DECLARE_TR_FUNCTIONS(hg::AlertWatch)

public:
    explicit AlertWatch(Store &store, const QTimeZone &defaultZone = QTimeZone::systemTimeZone())
        : m_store(store)
        , m_defaultZone(defaultZone)
    {}

    // Each returns the alerts it recorded (and so should be told).
    QList<Alert> runStarted(const Run &run, qint64 nowMs);
    QList<Alert> runEnded(const Run &run, qint64 nowMs);
    // running: the runs going now (started). judgeDeadlines: this engine judges them.
    QList<Alert> look(const QList<Run> &running, qint64 nowMs, bool judgeDeadlines);

    // "Ran 14 min, more than 3x the median of the last 20 runs (4 min 10 s)": the limit a
    // rule sets for a run, -1 for none (relative limits wait for five runs).
    struct Limit
    {
        qint64 ms = -1;
        QString text;
    };
    Limit ceiling(const Run &run) const;
    Limit floor(const Run &run) const;
    // Reads every chain's rules again (look() does, every few seconds).
    void reloadRules();

private:
    struct Watched
    {
        Limit ceiling;
        Limit floor;
        bool limitsRead = false; // false: a run that had no rules when it started
        bool ceilingRaised = false;
    };
    std::optional<Alert> raise(const Run &run, AlertKind kind, qint64 atMs, const QString &detail,
                               qint64 nowMs);
    // `recent` holds the chain's recent durations once read, so two limits read them once.
    Limit limit(const Run &run, qint64 absoluteMs, double factor, bool above,
                std::optional<QList<qint64>> &recent) const;

    Store &m_store;
    QTimeZone m_defaultZone;
    AlertRules rulesOf(qint64 chainId) const { return m_rules.value(chainId); }

    QHash<qint64, AlertRules> m_rules; // chain id -> its rules; chains without are absent
    bool m_rulesRead = false;
    QHash<qint64, Watched> m_running;     // run id -> its ceiling, judged while it runs
    QHash<qint64, qint64> m_nextDeadline; // chain id -> its next deadline to judge
    QHash<qint64, QString> m_deadlineOf;  // chain id -> the rule m_nextDeadline was computed for
};

} // namespace hg
