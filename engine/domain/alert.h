#pragma once

#include "base/enumnames.h"

#include <QString>
#include <QtGlobal>

namespace hg {

// What an alert says: a run started late, ran too long or too short, or a deadline passed
// without a succeeded run.
enum class AlertKind { Late, TooLong, TooShort, Deadline };
HG_ENUM_NAMES(AlertKind, {AlertKind::Late, "late"}, {AlertKind::TooLong, "too-long"},
              {AlertKind::TooShort, "too-short"}, {AlertKind::Deadline, "deadline"})

// A chain's alert rules; each one is off at 0 (or empty). A duration limit is absolute (ms)
// or relative to the median duration of the chain's last 20 succeeded runs (a factor: 3 is
// "more than 3x the median", 0.2 "less than a fifth of it"); relative limits wait for five
// such runs. The deadline is a cron expression (unix dialect) in deadlineZone (empty: the
// system's): at each of its fire times a run must have succeeded in the 24 hours before.
struct AlertRules
{
    qint64 lateAfterMs = 0;
    qint64 longerThanMs = 0;
    double longerThanFactor = 0;
    qint64 shorterThanMs = 0;
    double shorterThanFactor = 0;
    QString deadline;
    QString deadlineZone;

    bool isSet() const
    {
        return lateAfterMs > 0 || longerThanMs > 0 || longerThanFactor > 0 || shorterThanMs > 0
               || shorterThanFactor > 0 || !deadline.isEmpty();
    }
    friend bool operator==(const AlertRules &, const AlertRules &) = default;
};

struct Alert
{
    qint64 id = 0;
    qint64 chainId = 0;
    qint64 runId = 0; // 0: none (a deadline with no run)
    AlertKind kind = AlertKind::Late;
    qint64 atMs = 0; // the fire time (late), the run's start (durations), the deadline
    QString detail;  // "started 2 min 5 s after its fire time (limit 1 min)"
    qint64 raisedAtMs = 0;
};

} // namespace hg
