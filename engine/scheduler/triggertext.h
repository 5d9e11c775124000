#pragma once

#include "domain/chaintrigger.h"

#include <QJsonObject>
#include <QString>

namespace hg::triggertext {

// Said in one line, as `trigger list` and `trigger add` say it: "when files matching … are
// created", "when the session is unlocked".
QString describe(const ChainTrigger &t);
// `trigger list --json`'s object for it.
QJsonObject json(const ChainTrigger &t);

} // namespace hg::triggertext
