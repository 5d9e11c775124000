#pragma once

class QSqlDatabase;

namespace hg::postgresnotices {

// libpq prints a server's notices on stderr by itself, among them "terminating connection
// due to administrator command" at every server restart, once per connection, beside
// Hourglass's own line about the outage. Routes the notices of a store connection through
// Qt's message handler instead, without the shutdown notices the outage message covers.
void routeThroughQt(const QSqlDatabase &db);

} // namespace hg::postgresnotices
