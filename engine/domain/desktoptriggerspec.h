#pragma once

#include "base/enumnames.h"

#include <QCoreApplication>
#include <QString>

namespace hg {

// What happened on the desktop, as a desktop trigger names it: the session was unlocked, the
// machine woke from sleep, the network came up (reachable beyond the local link), the
// session has been idle for a while, the machine went onto mains power.
enum class DesktopEvent { Unlock, Resume, Network, Idle, AcPower };
HG_ENUM_NAMES(DesktopEvent, {DesktopEvent::Unlock, "unlock"}, {DesktopEvent::Resume, "resume"},
              {DesktopEvent::Network, "network"}, {DesktopEvent::Idle, "idle"},
              {DesktopEvent::AcPower, "ac-power"})

// A desktop trigger's settings (chain_trigger.settings, JSON). idleMs: how long the session
// must have been idle (Idle only). An event seen while no engine ran is not seen at all: a
// desktop trigger has no misfire policy.
struct DesktopTriggerSpec
{
    Q_DECLARE_TR_FUNCTIONS(hg::DesktopTriggerSpec)

public:
    DesktopEvent event = DesktopEvent::Unlock;
    qint64 idleMs = 0;

    // "" when it holds, else the problem, naming the option as the CLI names it.
    QString problem() const;
    QString toJson() const;
    static DesktopTriggerSpec fromJson(const QString &json);
    // "session unlocked", "idle for 10 min": what the runs view says started a run.
    static QString describe(DesktopEvent event, qint64 idleMs);
    // The option that makes it: "--on-unlock", "--on-idle 10 min".
    QString option() const;
    bool operator==(const DesktopTriggerSpec &other) const = default;
};

} // namespace hg
