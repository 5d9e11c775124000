#pragma once

#include "cronexpression.h"

#include <QCoreApplication>

namespace hg {

// Turns text into a CronExpression, with each dialect's own rules:
//  unix        Vixie/cronie: 5 fields, names, ranges, steps after '*' or a range, lists,
//              0 and 7 are Sunday, @yearly..@hourly and @reboot.
//  seconds     6 fields, seconds first, otherwise as unix.
//  quartz      Quartz CronExpression (DolphinScheduler): 6–7 fields, '?', L, L-n, W, LW,
//              nL, n#k, 1–7 = SUN–SAT, wrap-around ranges, optional year 1970–2099.
//  pgtimetable timetable.cron: 5 numeric fields, lists of plain numbers only, n/step runs
//              to the field's end, dow 0–7, day-of-month AND day-of-week; @every, @after
//              (PostgreSQL interval text) and @reboot.
class CronParser final
{
    Q_DECLARE_TR_FUNCTIONS(hg::CronParser)

public:
    static Result<CronExpression> parse(const QString &text, CronDialect dialect);

private:
    struct Field
    {
        QString text;
        int column = 1; // 1-based position in the original expression
    };

    CronParser(const QString &text, CronDialect dialect);

    Result<CronExpression> run();
    Status parseMacro();
    Status splitFields();
    Status detectDialect();
    Status parseFields();
    Status checkDayFields();
    Status checkCanFire() const;

    // Parses one field into bits (value v sets bit v); dow values arrive already shifted to
    // 0 = Sunday. Quartz day specials are handled by the callers below.
    Status parseList(int fieldIndex, std::uint64_t &bits);
    Status parseItem(int fieldIndex, const QString &item, int column, std::uint64_t &bits);
    Status parseValue(int fieldIndex, const QString &text, int column, int &value) const;
    Status parseDayOfMonthQuartz(const Field &field);
    Status parseDayOfWeekQuartz(const Field &field);
    Status parseYears(const Field &field);

    Error fieldError(int fieldIndex, int column, const QString &problem) const;
    int fieldMinimum(int fieldIndex) const;
    int fieldMaximum(int fieldIndex) const;

    QString m_text;
    CronDialect m_requested;
    CronExpression m_expression;
    QList<Field> m_fields;
    bool m_hasSeconds = false;
};

} // namespace hg
