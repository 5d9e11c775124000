#include "networkpresence.h"

#include <QHostAddress>
#include <QNetworkInterface>

namespace hg {

QString NetworkPresence::through()
{
    const auto wanted = QNetworkInterface::IsUp | QNetworkInterface::IsRunning;
    for (const QNetworkInterface &interface : QNetworkInterface::allInterfaces()) {
        if ((interface.flags() & wanted) != wanted
            || interface.flags().testFlag(QNetworkInterface::IsLoopBack))
            continue;
        for (const QNetworkAddressEntry &entry : interface.addressEntries()) {
            const QHostAddress address = entry.ip();
            if (address.isNull() || address.isLoopback() || address.isLinkLocal())
                continue;
            return QStringLiteral("%1 (%2)").arg(interface.name(), address.toString());
        }
    }
    return {};
}

bool NetworkPresence::online()
{
    return !through().isEmpty();
}

} // namespace hg
