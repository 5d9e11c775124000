#pragma once

#include "base/result.h"
#include "domain/occurrence.h"
#include "tablemodel.h"

#include <QList>

#include <optional>

namespace hg {

class Store;

// What became of the fire times of one chain, or of every chain, over a span: the occurrence
// ledger's rows and the scheduled runs side by side, oldest first. The chain's strip of
// recent occurrences and the Upcoming timeline's past day draw from it; each chain gives at
// most perChain entries, the latest (an every-second schedule has 86,400 runs a day).
class OccurrencesModel final : public TableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(OccurrencesModel)

public:
    enum Column { WhenColumn, ChainColumn, OutcomeColumn, CountColumn, DetailColumn, ColumnCount };
    Q_ENUM(Column)
    enum Role {
        FirstFireRole = Qt::UserRole + 1, // ms since the epoch
        LastFireRole,
        ChainIdRole,
        OutcomeRole, // OccurrenceOutcome as int
        CountRole,
        RunIdRole,
        FillRole,  // the outcome's colour
        UnrunRole, // true when no run was made: drawn hatched
        AlertRole, // a run's alerts (late, too long, too short), a line each; one chain only
    };
    Q_ENUM(Role)

    // What a reload reads, as a value: computed on any thread with that thread's store.
    struct Span
    {
        QList<Occurrence> rows;
        QHash<qint64, QString> paths;
        QHash<qint64, QString> alerts;
        qint64 fromMs = 0;
        qint64 toMs = 0;
    };

    explicit OccurrencesModel(Store &store, QObject *parent = nullptr);

    // chainId empty: every chain. [fromMs, toMs] in ms since the epoch.
    Status reload(std::optional<qint64> chainId, qint64 fromMs, qint64 toMs, int perChain = 200);
    // The same in two halves: read (any thread), then show (the model's thread).
    static Result<Span> compute(Store &store, std::optional<qint64> chainId, qint64 fromMs,
                                qint64 toMs, int perChain = 200);
    void show(Span span);
    void clear();
    const QList<Occurrence> &occurrences() const { return m_rows; }
    qint64 fromMs() const { return m_fromMs; }
    qint64 toMs() const { return m_toMs; }
    // "120 ran, 3 skipped (still running), 2 missed": fire times per outcome, for a screen
    // reader and a tooltip.
    QString summary() const;
    static QString summary(const QList<Occurrence> &occurrences);
    // PROJECT/CHAIN of each chain in the rows.
    const QHash<qint64, QString> &paths() const { return m_paths; }

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;

private:
    Store &m_store;
    QList<Occurrence> m_rows;
    QHash<qint64, QString> m_paths;
    QHash<qint64, QString> m_alerts; // run id -> its alerts
    qint64 m_fromMs = 0;
    qint64 m_toMs = 0;
};

} // namespace hg
