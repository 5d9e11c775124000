// libFuzzer target for PostgreSQL interval text (pg_timetable's @every/@after): no input may
// crash, hang or trip a sanitizer; an accepted interval is whole seconds from one second to
// 100 years, and that many seconds, written the ways the parser documents, read back the same.
#include "cron/pginterval.h"
#include "fuzzcheck.h"

#include <cmath>
#include <cstddef>
#include <cstdint>

using namespace hg;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    if (size > 256)
        return 0;
    const QString text = QString::fromUtf8(reinterpret_cast<const char *>(data), qsizetype(size));
    const Result<qint64> parsed = PgInterval::parseSeconds(text);
    if (!parsed) {
        if (parsed.error().message.isEmpty())
            HG_FUZZ_FAIL();
        return 0;
    }
    const qint64 seconds = parsed.value();
    if (seconds < 1 || seconds > std::llround(100 * 365.25 * 86400))
        HG_FUZZ_FAIL();
    for (const QString &written :
         {QStringLiteral("%1 seconds").arg(seconds), QStringLiteral("PT%1S").arg(seconds),
          QStringLiteral("@ %1 secs").arg(seconds)}) {
        const Result<qint64> again = PgInterval::parseSeconds(written);
        if (!again || again.value() != seconds)
            HG_FUZZ_FAIL();
    }
    return 0;
}
