#pragma once

#include "domain/enums.h"
#include "domain/run.h"

#include <QColor>
#include <QCoreApplication>
#include <QString>

#include <optional>

namespace hg {

// How a run or task state looks on screen, in one place for every view: a translated label
// (never a storage name such as `timed_out`) and one palette with two roles, a fill behind
// a shape (canvas, Gantt bars, tray icon) and a text colour for a table cell.
class StatePresentation final
{
    Q_DECLARE_TR_FUNCTIONS(hg::StatePresentation)

public:
    StatePresentation() = delete;

    static QString label(RunState state);
    // A task that has no attempt yet: "never ran".
    static QString label(std::optional<RunState> state);
    static QString label(RunTrigger trigger);
    // What started the run, as the Runs view's trigger column says it: "schedule", or for a
    // triggered run "after run 41 of ops/load succeeded".
    static QString triggerText(const Run &run);
    // A file trigger's run: "file /srv/in/a.csv created", "12 files at once".
    static QString fileTriggerText(const Run &run);
    static QString fileEventLabel(const QString &event);

    static QColor fill(std::optional<RunState> state);
    // An invalid colour where the view's own text colour should stay. Follows the palette:
    // lighter tones when the window is dark.
    static QColor text(RunState state);
    // A validation message or a failure reason.
    static QColor errorText();
    // Behind an error banner's errorText().
    static QColor errorBackground();
    static bool darkPalette();
};

} // namespace hg
