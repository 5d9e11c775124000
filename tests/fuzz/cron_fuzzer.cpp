// libFuzzer target for the cron parser and fire-time search: no input may crash, hang, trip
// a sanitizer, or make next()/previous() step the wrong way.
#include "cron/cronexplainer.h"
#include "cron/cronexpression.h"
#include "fuzzcheck.h"

#include <QTimeZone>

#include <cstddef>
#include <cstdint>

using namespace hg;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    if (size < 1 || size > 256)
        return 0;
    const auto dialect = CronDialect(data[0] % 5);
    const QString text =
        QString::fromUtf8(reinterpret_cast<const char *>(data + 1), qsizetype(size - 1));
    const Result<CronExpression> parsed = CronExpression::parse(text, dialect);
    if (!parsed) {
        if (!parsed.error().message.startsWith(QLatin1String("cron: ")))
            HG_FUZZ_FAIL();
        return 0;
    }
    static const QTimeZone zones[] = {QTimeZone("UTC"), QTimeZone("Europe/Berlin"),
                                      QTimeZone("Australia/Lord_Howe"),
                                      QTimeZone("America/Sao_Paulo")};
    const QTimeZone &zone = zones[data[0] / 5 % 4];
    // Start just before a DST change so the gap and overlap paths run too.
    QDateTime at(QDate(2026, 3, 29), QTime(0, 30), Qt::UTC);
    for (int i = 0; i < 6; ++i) {
        const std::optional<QDateTime> next = parsed->next(at, zone);
        if (!next)
            break;
        if (*next <= at)
            HG_FUZZ_FAIL();
        at = *next;
    }
    if (const std::optional<QDateTime> previous = parsed->previous(at, zone);
        previous && *previous >= at)
        HG_FUZZ_FAIL();
    const CronExplainer explainer(parsed.value());
    if (explainer.describe(QStringLiteral("UTC")).isEmpty())
        HG_FUZZ_FAIL();
    (void)explainer.warnings();
    return 0;
}
