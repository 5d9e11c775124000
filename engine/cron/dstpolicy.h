#pragma once

#include <QString>

#include <optional>

namespace hg {

// What a cron schedule does where a DST change skips or repeats wall-clock time, chosen per
// schedule. The default is Hourglass's documented rule; `cronie` does what cronie's
// src/cron.c does (see CronExpression for both).
struct DstPolicy
{
    enum class Gap {
        RunAfter, // a fire time the spring-forward gap removes runs at the first instant after it
        Skip,     // it does not run
        Cronie,   // fixed-time jobs of the skipped minutes run right after it, wildcard ones not
    };
    enum class Overlap {
        Once,   // a fixed time runs in the first pass only; '*'/step hours run in both passes
        Both,   // every matching wall time runs at both instants
        Cronie, // wildcard jobs (minute or hour field starting with '*') run again, fixed not
    };

    Gap gap = Gap::RunAfter;
    Overlap overlap = Overlap::Once;

    static DstPolicy cronie() { return {Gap::Cronie, Overlap::Cronie}; }
    bool isCronie() const { return gap == Gap::Cronie; }
    bool isDefault() const { return gap == Gap::RunAfter && overlap == Overlap::Once; }

    // "run-after,once" (the default), "skip", "both", "skip,both", "cronie": the form the
    // store, the export and the command line use. Either half alone keeps the other's default.
    QString toText() const;
    static std::optional<DstPolicy> fromText(const QString &text);

    friend bool operator==(const DstPolicy &, const DstPolicy &) = default;
};

} // namespace hg
