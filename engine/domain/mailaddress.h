#pragma once

#include <QString>

namespace hg::mailaddress {

// An address an SMTP server takes as a path (local@domain, ASCII, no display name): what a
// channel's --from/--to and the SendMail builtin's addresses must be.
bool isValid(const QString &address);

} // namespace hg::mailaddress
