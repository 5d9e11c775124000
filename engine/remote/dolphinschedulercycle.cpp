#include "dolphinschedulercycle.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStringList>

namespace hg {
namespace {

// How cron-utils parses one field of a Quartz expression.
enum class Expression { Always, QuestionMark, Every, Between, And, On };

Expression classify(const QString &field)
{
    if (field == QLatin1String("*"))
        return Expression::Always;
    if (field == QLatin1String("?"))
        return Expression::QuestionMark;
    if (field.contains(QLatin1Char(',')))
        return Expression::And;
    if (field.contains(QLatin1Char('/')))
        return Expression::Every;
    if (field.contains(QLatin1Char('-')))
        return Expression::Between;
    return Expression::On;
}

bool isSetAll(Expression e)
{
    return e != Expression::QuestionMark;
}

bool isEvery(Expression e)
{
    return e == Expression::Every || e == Expression::Always;
}

} // namespace

std::optional<DolphinSchedulerCycle::Cycle> DolphinSchedulerCycle::ofCron(const QString &quartzCron)
{
    const QStringList fields = quartzCron.simplified().split(QLatin1Char(' '));
    if (fields.size() < 6 || fields.size() > 7)
        return std::nullopt;
    // Seconds are not looked at; a missing year is "*".
    const Expression min = classify(fields.at(1));
    const Expression hour = classify(fields.at(2));
    const Expression dayOfMonth = classify(fields.at(3));
    const Expression month = classify(fields.at(4));
    const Expression dayOfWeek = classify(fields.at(5));
    const Expression year = fields.size() == 7 ? classify(fields.at(6)) : Expression::Always;
    const auto is = [](Expression e, Expression what) {
        return e == what;
    };
    using E = Expression;

    // CycleFactory's cycles, in CronUtils.getMaxCycle's order; the first that matches wins.
    if (isEvery(min) && is(hour, E::Always) && is(dayOfMonth, E::Always) && is(month, E::Always))
        return Cycle::Minute;
    if (isSetAll(min) && isEvery(hour) && is(dayOfMonth, E::Always)
        && is(dayOfWeek, E::QuestionMark) && is(month, E::Always))
        return Cycle::Hour;
    if (isSetAll(min) && isSetAll(hour) && isEvery(dayOfMonth) && is(dayOfWeek, E::QuestionMark)
        && is(month, E::Always))
        return Cycle::Day;
    if (isSetAll(min) && isSetAll(hour) && is(dayOfMonth, E::QuestionMark) && isEvery(dayOfWeek)
        && is(month, E::Always))
        return Cycle::Week;
    if ((isSetAll(min) && isSetAll(hour) && isSetAll(dayOfMonth) && is(dayOfWeek, E::QuestionMark)
         && isEvery(month))
        || (isSetAll(min) && isSetAll(hour) && is(dayOfMonth, E::QuestionMark)
            && isSetAll(dayOfWeek) && isEvery(month)))
        return Cycle::Month;
    if ((isSetAll(min) && isSetAll(hour) && isSetAll(dayOfMonth) && is(dayOfWeek, E::QuestionMark)
         && isSetAll(month) && isEvery(year))
        || (isSetAll(min) && isSetAll(hour) && is(dayOfMonth, E::QuestionMark)
            && isSetAll(dayOfWeek) && isSetAll(month) && isEvery(year)))
        return Cycle::Year;
    return std::nullopt;
}

std::optional<DolphinSchedulerCycle::Cycle>
DolphinSchedulerCycle::ofDependence(const QString &taskParams, qint64 upstreamCode)
{
    const QJsonObject dependence = QJsonDocument::fromJson(taskParams.toUtf8())
                                       .object()
                                       .value(QLatin1String("dependence"))
                                       .toObject();
    const QJsonArray tasks = dependence.value(QLatin1String("dependTaskList")).toArray();
    for (const auto &task : tasks) {
        const QJsonArray items = task.toObject().value(QLatin1String("dependItemList")).toArray();
        for (const auto &item : items) {
            const QJsonValue code = item.toObject().value(QLatin1String("definitionCode"));
            const qint64 value =
                code.isString() ? code.toString().toLongLong() : qint64(code.toDouble());
            if (value != upstreamCode)
                continue;
            const QString cycle = item.toObject().value(QLatin1String("cycle")).toString();
            if (cycle == QLatin1String("day"))
                return Cycle::Day;
            if (cycle == QLatin1String("hour"))
                return Cycle::Hour;
            if (cycle == QLatin1String("week"))
                return Cycle::Week;
            if (cycle == QLatin1String("month"))
                return Cycle::Month;
            return std::nullopt;
        }
    }
    return Cycle::Day;
}

} // namespace hg
