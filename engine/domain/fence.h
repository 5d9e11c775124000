#pragma once

#include <QtGlobal>

namespace hg {

// The claim an engine holds on a run: its session and that session's epoch. A write about a
// claimed run is accepted only while the run still names both; after a takeover it names
// another session, so a paused engine that wakes up cannot overwrite the new owner's work.
struct Fence
{
    qint64 sessionId = 0;
    qint64 epoch = 0;

    bool isHeld() const { return sessionId > 0; }
    friend bool operator==(const Fence &, const Fence &) = default;
};

} // namespace hg
