#pragma once

#include "base/result.h"

#include <QCoreApplication>
#include <QString>

namespace hg {

// "PROJECT/CHAIN", the way the command line and export documents name a chain.
struct ChainPath
{
    Q_DECLARE_TR_FUNCTIONS(hg::ChainPath)

public:
    QString project;
    QString chain;

    static Result<ChainPath> parse(const QString &text);
    QString toString() const { return project + QLatin1Char('/') + chain; }
};

// Names appear in paths and messages: no slash, no control characters, not blank.
Status validateName(const QString &what, const QString &name);

} // namespace hg
