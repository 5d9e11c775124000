#pragma once

#include <QMetaType>

namespace hg {

// How many runs the engine has on hand, as the status bar and the tray show them.
struct RunCounts
{
    int active = 0; // running or paused
    int queued = 0; // queued, or waiting for a slot
    int failed = 0; // top-level runs that ended failed or timed out since start-up
    // The last top-level run to end failed: the tray stays red until one succeeds.
    bool lastFailed = false;

    friend bool operator==(const RunCounts &, const RunCounts &) = default;
};

} // namespace hg

Q_DECLARE_METATYPE(hg::RunCounts)
