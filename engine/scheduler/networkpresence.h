#pragma once

#include <QString>

namespace hg {

// Whether the computer has a network, as Task Scheduler's "start only if a network connection
// is available" means it: an interface other than loopback is up, running and holds an
// address that is not link-local. Read from the kernel (netlink, through QNetworkInterface)
// at each call, which takes well under a millisecond and never blocks; unlike
// QNetworkInformation it needs no NetworkManager, and it answers inside a container or a
// network namespace too (only loopback there: offline).
class NetworkPresence final
{
public:
    NetworkPresence() = delete;

    static bool online();
    // "eth0 (192.0.2.7)": the interface that makes it online, empty when offline.
    static QString through();
};

} // namespace hg
