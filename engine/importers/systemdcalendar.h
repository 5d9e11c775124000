#pragma once

#include "base/result.h"

#include <QCoreApplication>
#include <QString>

namespace hg {

// A systemd OnCalendar= value as a six-field cron expression (the seconds dialect):
// "daily", "Mon..Fri 02:30", "*-*-01 00:00:00", lists, ranges "..", repetitions "/", a zone
// at the end. What cron cannot say is an error naming it: a year other than '*', the last
// days of a month ('~'), fractions of a second, and a weekday together with a day of the
// month (systemd needs both to match, cron fires on either).
class SystemdCalendar final
{
    Q_DECLARE_TR_FUNCTIONS(hg::SystemdCalendar)

public:
    struct Cron
    {
        QString expression; // seconds dialect: S M H DoM Mon DoW
        QString timeZone;   // empty: the engine's zone
    };

    static Result<Cron> toCron(const QString &spec);

private:
    static Result<QString> field(const QString &text, int minimum, int maximum,
                                 const QString &what);
    static Result<QString> weekdays(const QString &text);
};

} // namespace hg
