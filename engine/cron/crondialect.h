#pragma once

#include "base/enumnames.h"

namespace hg {

// The cron grammars Hourglass reads; Auto picks one from the field count and syntax.
enum class CronDialect { Auto, Unix, Seconds, Quartz, PgTimetable };
HG_ENUM_NAMES(CronDialect, {CronDialect::Auto, "auto"}, {CronDialect::Unix, "unix"},
              {CronDialect::Seconds, "seconds"}, {CronDialect::Quartz, "quartz"},
              {CronDialect::PgTimetable, "pgtimetable"})

} // namespace hg
