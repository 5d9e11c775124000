#pragma once

class QSqlDatabase;
#include <QStringList>

namespace hg::postgresnotices {

// libpq prints a server's notices on stderr by itself, among them "terminating connection
// due to administrator command" at every server restart, once per connection, beside
// Hourglass's own line about the outage. Routes the notices of a store connection through
// Qt's message handler instead, without the shutdown notices the outage message covers.
void routeThroughQt(const QSqlDatabase &db);
// A SQL task's connection: its notices (RAISE NOTICE, warnings) are lines of its output,
// appended to `lines` (which must outlive the connection's use) as they come.
void appendTo(const QSqlDatabase &db, QStringList *lines);

} // namespace hg::postgresnotices
