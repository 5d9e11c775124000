#pragma once

#include "base/result.h"
#include "domain/chainpath.h"
#include "store/runrepository.h"
#include "tablemodel.h"

#include <QHash>
#include <QSet>

class QTimer;

namespace hg {

class StoreReader;

class Store;

// The runs table. Rows arrive a page at a time through fetchMore(), filtered and sorted in SQL
// (RunRepository::page), so a store with a million runs opens at once and nothing ever walks
// all of them. Engine events update the rows shown in place; a new run appears at the top
// when the view shows the newest first. A running run's duration counts up every second; a
// failed one names its first failed task and why (Reason). With a reader (setReader), pages,
// chain paths and reasons are read on its thread and arrive as values: the window never waits
// a round trip for them; without one, at once (the tests of the model itself).
class RunsModel final : public TableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RunsModel)

public:
    enum Column {
        IdColumn,
        ChainColumn,
        StateColumn,
        TriggerColumn,
        ScheduledColumn,
        StartedColumn,
        DurationColumn,
        ReasonColumn,
        ColumnCount
    };
    Q_ENUM(Column)
    enum Role { RunIdRole = Qt::UserRole + 1, StateRole, ChainIdRole };
    Q_ENUM(Role)

    explicit RunsModel(Store &store, QObject *parent = nullptr);
    void setReader(StoreReader *reader) { m_reader = reader; }

    // Filters; unset means all. Each change reloads the first page.
    void setFilter(std::optional<qint64> chainId, std::optional<RunState> state,
                   std::optional<RunTrigger> trigger);
    // The first page again; reloaded() follows once it is shown (at once without a reader).
    // The rows shown stay until then.
    Status reload();
    // A reload asked for and not yet shown.
    bool isLoading() const { return m_loading; }
    // Chains or projects were renamed (or removed): the shown rows take their paths anew, in
    // one read, without reading the runs again.
    void refreshChainPaths();
    QString lastError() const { return m_lastError; }
    static constexpr int pageSize = 200;

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    bool canFetchMore(const QModelIndex &parent) const override;
    void fetchMore(const QModelIndex &parent) override;
    // Id, scheduled-for, started and duration sort in SQL; other columns keep the order.
    void sort(int column, Qt::SortOrder order = Qt::AscendingOrder) override;

public Q_SLOTS:
    // From Engine::runChanged (queued from the engine thread).
    void applyRun(const hg::Run &run);

Q_SIGNALS:
    // A reload was asked for (a filter, a sort): the rows shown stay until reloaded().
    void reloading();
    // The first page of the last reload() is shown; lastError() says why it is empty if it
    // could not be read.
    void reloaded();

private:
    struct Page
    {
        QList<RunListing> rows;
        QHash<qint64, QString> alerts; // run id -> its alerts, a line each
    };
    static Result<Page> readPage(Store &store, const RunPageQuery &query);
    void showFirstPage(const Result<Page> &page);
    void appendPage(const Result<Page> &page);
    RunPageQuery nextPageQuery() const;
    void readFailureReason(qint64 runId);
    // Once a second while a shown run is running: its duration column counts up.
    void tickRunning();
    // The failure reason, then the run's alerts, a line each.
    QString reasonText(const RunListing &row) const;
    bool matchesFilter(const Run &run) const;
    int rowOf(qint64 runId) const;
    // Known, or the chain's id until its path is read.
    QString chainPath(qint64 chainId);
    void setChainPaths(const QHash<qint64, ChainPath> &paths);

    Store &m_store;
    StoreReader *m_reader = nullptr;
    RunPageQuery m_query;
    QList<RunListing> m_rows;
    QSet<qint64> m_loaded; // ids of m_rows
    QHash<qint64, QString> m_chainPaths;
    QHash<qint64, QString> m_alerts; // run id -> its alerts, a line each
    QSet<qint64> m_pathsAsked;       // chains whose path the reader is reading
    // Runs told while a reload was read: applied again to its answer, which may predate them.
    QList<Run> m_toldWhileLoading;
    quint64 m_generation = 0; // of the last reload: answers to earlier ones are dropped
    bool m_loading = false;
    bool m_fetching = false; // a next page is being read
    bool m_exhausted = false;
    bool m_notifying = false; // inside endResetModel()/endInsertRows()
    QString m_lastError;
    QTimer *m_ticker;
};

} // namespace hg
