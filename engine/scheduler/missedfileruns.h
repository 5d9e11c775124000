#pragma once

#include "base/result.h"
#include "domain/chain.h"
#include "domain/occurrence.h"
#include "domain/run.h"

#include <QCoreApplication>
#include <QJsonObject>
#include <QList>

namespace hg {

class Store;

// The missed-runs inbox's rows of file triggers (misfire policy ask): the files that arrived
// while no engine watched, held (file_trigger_held) until the user decides. A run each is
// keyed by its file version as a live run is, so no version runs twice whatever else ran it;
// "the latest only" is one run for all the held files of a trigger, their list in
// ${trigger.paths}. MissedRunsInbox::decide calls this inside its transaction.
class MissedFileRuns final
{
    Q_DECLARE_TR_FUNCTIONS(hg::MissedFileRuns)

public:
    struct Planned
    {
        qint64 triggerId = 0;
        QString key;
        QJsonObject parameters;
        qint64 firedMs = 0; // the file's modification time: the batch runs oldest first
    };

    // The runs the rows stand for, oldest file first (oneEach false: one per trigger).
    static Result<QList<Planned>> plan(Store &store, const QList<Occurrence> &rows, bool oneEach);
    // Queued as one batch (parallel at once) with a command each, so an engine admits them
    // now; a version that ran already is passed over.
    static Result<QList<Run>> enqueue(Store &store, const Chain &chain,
                                      const QList<Planned> &planned, int parallel);
};

} // namespace hg
