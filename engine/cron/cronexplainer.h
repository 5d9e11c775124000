#pragma once

#include "cronexpression.h"

#include <QCoreApplication>
#include <QStringList>

namespace hg {

// Plain words for a parsed expression ("At 02:30 on Monday through Friday, Europe/Berlin")
// and warnings where the dialects would read the same text differently. English unless a
// translator is installed (the GUI's); each sentence shape is one translatable template.
class CronExplainer final
{
    Q_DECLARE_TR_FUNCTIONS(hg::CronExplainer)

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
