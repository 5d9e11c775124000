#pragma once

#include <QString>

namespace hg::passwordsettings {

// The name of a password setting (password, pwd, passwd, sslpassword) given anywhere in
// driver options or a connection string: as a key of its own ("password=…"), after a blank
// inside another value (libpq reads "application_name=x password=…" as two settings), after
// ";", "&" or "?", or percent-encoded. Empty when there is none. A password given so would be
// kept in the store in plain text, shown in listings and exports, or read in the process list.
QString named(const QString &text);

} // namespace hg::passwordsettings
