#pragma once

#include <QList>
#include <QString>

namespace hg {

// Which runs a window follows on a shared store without executing them: those other engines
// have admitted (running, waiting or paused, another session's), and any named besides (runs
// just ended, whose last attempts and lines are still to be read).
class RunsElsewhere final
{
public:
    // A condition on run_id with one placeholder, the window's own session id.
    static QString condition(const QList<qint64> &alsoRuns);
    // The same for log lines, which also follow the attempts another engine ran for one of
    // this engine's runs (offered tasks): two placeholders, both the session id.
    static QString lineCondition(const QList<qint64> &alsoRuns);
};

} // namespace hg
