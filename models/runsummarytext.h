#pragma once

#include "store/runrepository.h"

#include <QCoreApplication>
#include <QList>
#include <QString>

namespace hg {

// A chain's last runs in words, for a tooltip and a screen reader, wherever they are drawn as
// bars (the Overview's sparklines, the Runs view's trend).
class RunSummaryText final
{
    Q_DECLARE_TR_FUNCTIONS(hg::RunSummaryText)

public:
    RunSummaryText() = delete;

    // The median duration of the successful runs (what duration alerts compare with); -1
    // when none succeeded.
    static qint64 medianMs(const QList<RunSummary> &runs);
    // "20 runs: 18 succeeded, 2 failed; median 13 s", or "No runs yet".
    static QString describe(const QList<RunSummary> &runs);
};

} // namespace hg
