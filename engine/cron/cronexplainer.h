#pragma once

#include "cronexpression.h"

#include <QStringList>

namespace hg {

// Plain English for a parsed expression ("At 02:30 on Monday through Friday, Europe/Berlin")
// and warnings where the dialects would read the same text differently.
class CronExplainer final
{
public:
    explicit CronExplainer(const CronExpression &expression);

    QString describe(const QString &zoneName) const;
    QStringList warnings() const;

private:
    QString timePhrase() const;
    QString dayPhrase() const;
    QString monthPhrase() const;
    QString yearPhrase() const;

    const CronExpression &m_expression;
};

} // namespace hg
