#pragma once

#include "base/result.h"

#include <QCoreApplication>

namespace hg {

// A store holds tasks that run as its owner: whoever can write it can run anything as that
// user. So before a SQLite store is opened, its folder and files must be writable by its
// owner alone. What the user owns is put right (and said on stderr); what another user owns,
// or a folder others may write without the sticky bit, is refused, naming the problem.
class StorePermissions final
{
    Q_DECLARE_TR_FUNCTIONS(hg::StorePermissions)

public:
    static Status secure(const QString &storePath);
};

} // namespace hg
