#pragma once

#include "alert.h"
#include "base/result.h"

#include <QCoreApplication>

namespace hg {

// The rules a chain's alerts must meet before they are stored, whoever writes them (the store,
// an import, the command line, the alerts dialog): limits not negative, a deadline that is a
// unix cron expression (judged by ScheduleValidator, as a schedule's would be), a zone this
// system knows. Errors name the field.
class AlertRulesValidator final
{
    Q_DECLARE_TR_FUNCTIONS(hg::AlertRulesValidator)

public:
    static Status validate(const AlertRules &rules);
};

} // namespace hg
