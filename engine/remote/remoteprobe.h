#pragma once

#include "base/result.h"
#include "domain/connectionprofile.h"
#include "remoteinfo.h"

#include <QCoreApplication>

namespace hg {

class RemoteDatabase;

// `remote test` and the Connections tree: connect (within the timeout), then read which
// system and version the database holds — or say exactly why not.
class RemoteProbe final
{
    Q_DECLARE_TR_FUNCTIONS(hg::RemoteProbe)

public:
    // Looks the password up (keychain, then the client's files), connects in the calling
    // thread and inspects.
    static Result<RemoteInfo> test(const ConnectionProfile &profile);
    static Result<RemoteInfo> inspect(RemoteDatabase &remote);
};

} // namespace hg
