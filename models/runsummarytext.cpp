#include "runsummarytext.h"

#include "displayformat.h"
#include "statepresentation.h"

#include <QMap>

#include <algorithm>

namespace hg {

qint64 RunSummaryText::medianMs(const QList<RunSummary> &runs)
{
    // Successes only, as the engine's duration alerts count them: a cancelled, timed-out or
    // interrupted run was cut short, and a failure may end at once.
    QList<qint64> durations;
    for (const RunSummary &run : runs) {
        if (run.durationMs >= 0 && run.state == RunState::Succeeded)
            durations << run.durationMs;
    }
    if (durations.isEmpty())
        return -1;
    const auto middle = durations.begin() + durations.size() / 2;
    std::nth_element(durations.begin(), middle, durations.end());
    return *middle;
}

QString RunSummaryText::describe(const QList<RunSummary> &runs)
{
    if (runs.isEmpty())
        return tr("No runs yet");
    QMap<QString, int> byState;
    for (const RunSummary &run : runs)
        ++byState[StatePresentation::label(run.state)];
    QStringList parts;
    for (auto it = byState.cbegin(); it != byState.cend(); ++it)
        parts << QStringLiteral("%1 %2").arg(it.value()).arg(it.key());
    QString text =
        tr("%n run(s): %1", nullptr, int(runs.size())).arg(parts.join(QLatin1String(", ")));
    if (const qint64 median = medianMs(runs); median >= 0)
        text += tr("; median %1").arg(DisplayFormat::duration(median));
    return text;
}

} // namespace hg
