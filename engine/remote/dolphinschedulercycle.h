#pragma once

#include <QString>

#include <optional>

namespace hg {

// The "cycle" DolphinScheduler 3.2 gives a Quartz cron and a DEPENDENT task's dependence, to
// decide which dependent workflows a complement takes along (ExecutorServiceImpl
// .checkDependentProcessDefinitionValid compares the two). Ported from its service module:
// CronUtils.getMaxCycle over CycleFactory's minute, hour, day, week, month and year cycles
// (the first that matches, in that order), each field classified as cron-utils parses it
// (Always "*", QuestionMark "?", Every "a/b", Between "a-b", And "a,b", On anything else);
// and DependentProcessDefinition.getDependentCycle.
class DolphinSchedulerCycle final
{
public:
    enum class Cycle { Minute, Hour, Day, Week, Month, Year };

    DolphinSchedulerCycle() = delete;

    // No value: none matches (DolphinScheduler's null), or the cron does not parse.
    static std::optional<Cycle> ofCron(const QString &quartzCron);
    // The cycle of the dependence item on UPSTREAMCODE in a DEPENDENT task's task_params
    // ("day", "hour", "week", "month"; another word: no value), or Day when no item names it.
    static std::optional<Cycle> ofDependence(const QString &taskParams, qint64 upstreamCode);
};

} // namespace hg
