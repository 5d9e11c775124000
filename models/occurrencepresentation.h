#pragma once

#include "domain/alert.h"
#include "domain/occurrence.h"

#include <QColor>
#include <QCoreApplication>
#include <QHash>
#include <QList>
#include <QString>

namespace hg {

// How an occurrence (what became of a fire time) looks on screen: a translated label, a
// sentence of detail and a colour, the same in the chain's strip, the Upcoming timeline and
// their tooltips. A run is coloured by its state, as everywhere else.
class OccurrencePresentation final
{
    Q_DECLARE_TR_FUNCTIONS(hg::OccurrencePresentation)

public:
    OccurrencePresentation() = delete;

    static QString label(OccurrenceOutcome outcome);
    static QString label(OccurrenceCause cause);
    // "Missed 12 fire times while the engine was down; waiting in the missed-runs inbox".
    static QString detail(const Occurrence &occurrence);
    static QColor fill(const Occurrence &occurrence);
    // Each run's alerts as "Alert: …" lines, as the strip's tooltip and the Runs view's
    // reason column show them.
    static QHash<qint64, QString> alertTexts(const QHash<qint64, QList<Alert>> &alertsByRun);
    // Not a run: drawn hatched, so colour is not the only cue.
    static bool unrun(const Occurrence &occurrence)
    {
        return occurrence.outcome != OccurrenceOutcome::Ran;
    }

private:
    // "; waiting in the missed-runs inbox", or what was decided; empty: not in it.
    static QString inboxText(InboxState inbox);
    // "3 files: a.csv, b.csv, c.csv, written 09:12 to 09:14: arrived while the engine was not
    // running; waiting in the missed-runs inbox".
    static QString triggerDetail(const Occurrence &occurrence);
};

} // namespace hg
