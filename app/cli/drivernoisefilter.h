#pragma once

namespace hg {

// While a PostgreSQL store is away, Qt's SQL driver warns for every statement it could not
// free and every query on the closed connection: a hundred lines per outage on serve's
// stderr, each saying what the engine's one line ("the store cannot be used ...") already
// said. Those warnings are counted instead, and said once a minute at most, as a count; every
// other message passes unchanged.
namespace drivernoisefilter {

void install();

} // namespace drivernoisefilter
} // namespace hg
