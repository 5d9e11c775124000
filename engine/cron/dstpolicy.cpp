#include "dstpolicy.h"

#include <QStringList>

namespace hg {

QString DstPolicy::toText() const
{
    if (isCronie())
        return QStringLiteral("cronie");
    return QStringLiteral("%1,%2").arg(
        gap == Gap::Skip ? QStringLiteral("skip") : QStringLiteral("run-after"),
        overlap == Overlap::Both ? QStringLiteral("both") : QStringLiteral("once"));
}

std::optional<DstPolicy> DstPolicy::fromText(const QString &text)
{
    const QString trimmed = text.trimmed().toLower();
    if (trimmed.isEmpty())
        return DstPolicy{};
    if (trimmed == QLatin1String("cronie"))
        return cronie();
    DstPolicy policy;
    bool gapSeen = false;
    bool overlapSeen = false;
    for (const QString &word : trimmed.split(QLatin1Char(','))) {
        const QString w = word.trimmed();
        if ((w == QLatin1String("run-after") || w == QLatin1String("skip")) && !gapSeen) {
            policy.gap = w == QLatin1String("skip") ? Gap::Skip : Gap::RunAfter;
            gapSeen = true;
        } else if ((w == QLatin1String("once") || w == QLatin1String("both")) && !overlapSeen) {
            policy.overlap = w == QLatin1String("both") ? Overlap::Both : Overlap::Once;
            overlapSeen = true;
        } else {
            return std::nullopt;
        }
    }
    return policy;
}

} // namespace hg
