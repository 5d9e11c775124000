#include "runsmodel.h"

#include "base/terminaltext.h"
#include "displayformat.h"
#include "occurrencepresentation.h"
#include "stateicon.h"
#include "statepresentation.h"
#include "store/alertrepository.h"
#include "store/chainrepository.h"
#include "storereader.h"

#include <QColor>
#include <QTimer>

#include <algorithm>
#include <utility>

namespace hg {
namespace {

QString durationText(const Run &run)
{
    if (!run.startedAt.isValid())
        return {};
    if (!run.finishedAt.isValid())
        return DisplayFormat::duration(run.startedAt.msecsTo(QDateTime::currentDateTimeUtc()));
    return DisplayFormat::duration(run.startedAt.msecsTo(run.finishedAt));
}

bool isRunning(const Run &run)
{
    return run.startedAt.isValid() && !run.finishedAt.isValid() && !isTerminal(run.state);
}

} // namespace

RunsModel::RunsModel(Store &store, QObject *parent)
    : TableModel({tr("Run"), tr("Chain"), tr("State"), tr("Trigger"), tr("Scheduled"),
                  tr("Started"), tr("Duration"), tr("Reason")},
                 parent)
    , m_store(store)
    , m_ticker(new QTimer(this))
{
    m_query.limit = pageSize;
    m_ticker->setInterval(1000);
    connect(m_ticker, &QTimer::timeout, this, &RunsModel::tickRunning);
}

void RunsModel::tickRunning()
{
    bool any = false;
    for (qsizetype row = 0; row < m_rows.size(); ++row) {
        if (!isRunning(m_rows.at(row).run))
            continue;
        any = true;
        const QModelIndex cell = index(int(row), DurationColumn);
        Q_EMIT dataChanged(cell, cell, {Qt::DisplayRole});
    }
    if (!any)
        m_ticker->stop();
}

void RunsModel::setFilter(std::optional<qint64> chainId, std::optional<RunState> state,
                          std::optional<RunTrigger> trigger)
{
    m_query.chainId = chainId;
    m_query.state = state;
    m_query.trigger = trigger;
    (void)reload();
}

Status RunsModel::reload()
{
    m_exhausted = false;
    m_fetching = false;
    RunPageQuery first = m_query;
    first.after.reset();
    if (!m_reader) {
        const Result<Page> page = readPage(m_store, first);
        showFirstPage(page);
        return page ? Status() : Status(page.error());
    }
    Q_EMIT reloading();
    const quint64 generation = ++m_generation;
    m_loading = true;
    m_toldWhileLoading.clear();
    m_reader->read<Page>(
        this, [first](Store &store) { return readPage(store, first); },
        [this, generation](const Result<Page> &page) {
            if (generation == m_generation)
                showFirstPage(page);
        });
    return {};
}

Result<RunsModel::Page> RunsModel::readPage(Store &store, const RunPageQuery &query)
{
    Result<QList<RunListing>> rows = RunRepository(store).page(query);
    if (!rows)
        return rows.error();
    // The page's alerts (late, too long, too short): a mark in the reason column.
    QList<qint64> ids;
    for (const RunListing &row : rows.value())
        ids << row.run.id;
    Page page{rows.value(), {}};
    if (const Result<QHash<qint64, QList<Alert>>> alerts = AlertRepository(store).forRuns(ids))
        page.alerts = OccurrencePresentation::alertTexts(alerts.value());
    return page;
}

void RunsModel::showFirstPage(const Result<Page> &page)
{
    m_loading = false;
    m_lastError = page ? QString() : page.error().message;
    m_notifying = true;
    beginResetModel();
    m_rows.clear();
    m_loaded.clear();
    m_alerts.clear();
    if (page) {
        m_rows = page->rows;
        m_alerts = page->alerts;
        for (const RunListing &row : std::as_const(m_rows))
            m_loaded.insert(row.run.id);
        m_exhausted = m_rows.size() < pageSize;
    } else {
        m_exhausted = true;
    }
    // Views (and QAbstractItemModelTester) may ask for more while a change is announced;
    // rows fetched inside that notification would come twice or confuse them.
    endResetModel();
    m_notifying = false;
    const QList<Run> told = std::exchange(m_toldWhileLoading, {});
    for (const Run &run : told)
        applyRun(run);
    if (std::any_of(m_rows.cbegin(), m_rows.cend(),
                    [](const RunListing &row) { return isRunning(row.run); }))
        m_ticker->start();
    Q_EMIT reloaded();
}

RunPageQuery RunsModel::nextPageQuery() const
{
    RunPageQuery query = m_query;
    query.after.reset();
    if (!m_rows.isEmpty())
        query.after = std::pair(m_rows.last().sortValue, m_rows.last().run.id);
    return query;
}

int RunsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

QVariant RunsModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const RunListing &row = m_rows.at(index.row());
    const Run &run = row.run;
    switch (role) {
    case RunIdRole:
        return run.id;
    case StateRole:
        return int(run.state);
    case ChainIdRole:
        return run.chainId;
    case Qt::ForegroundRole:
        if (index.column() == StateColumn)
            return StatePresentation::text(run.state);
        if (index.column() == ReasonColumn)
            return StatePresentation::errorText();
        return {};
    case Qt::DecorationRole:
        return index.column() == StateColumn ? QVariant(StateIcon::forState(run.state))
                                             : QVariant();
    case Qt::ToolTipRole: {
        // The table writes recent times short: the whole date in the tooltip.
        if (index.column() == ScheduledColumn)
            return DisplayFormat::weekdayDateTime(run.scheduledFor);
        if (index.column() == StartedColumn)
            return DisplayFormat::weekdayDateTime(run.startedAt);
        if (index.column() != ReasonColumn)
            return {};
        const QString text = reasonText(row);
        return text.isEmpty() ? QVariant() : QVariant(text);
    }
    case Qt::TextAlignmentRole:
        return index.column() == IdColumn || index.column() == DurationColumn
                   ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                   : QVariant();
    case Qt::DisplayRole:
        switch (Column(index.column())) {
        case IdColumn:
            return run.id;
        case ChainColumn: // escaped: a right-to-left override must not reorder it
            return terminaltext::escaped(row.chainPath);
        case StateColumn:
            return StatePresentation::label(run.state);
        case TriggerColumn:
            return StatePresentation::triggerText(run);
        case ScheduledColumn:
            return DisplayFormat::recent(run.scheduledFor, QDateTime::currentDateTime());
        case StartedColumn:
            return DisplayFormat::recent(run.startedAt, QDateTime::currentDateTime());
        case DurationColumn:
            return durationText(run);
        case ReasonColumn:
            return reasonText(row).section(QLatin1Char('\n'), 0, 0);
        case ColumnCount:
            break;
        }
        break;
    default:
        break;
    }
    return {};
}

QString RunsModel::reasonText(const RunListing &row) const
{
    const QString alerts = m_alerts.value(row.run.id);
    // A run stopped while queued has no attempt to say so.
    const QString reason = row.failureReason.isEmpty() && row.run.state == RunState::Cancelled
                               ? tr("stopped before any task started")
                               : row.failureReason;
    if (alerts.isEmpty())
        return reason;
    return reason.isEmpty() ? alerts : reason + QLatin1Char('\n') + alerts;
}

bool RunsModel::canFetchMore(const QModelIndex &parent) const
{
    return !parent.isValid() && !m_exhausted;
}

void RunsModel::fetchMore(const QModelIndex &parent)
{
    if (parent.isValid() || m_exhausted || m_notifying || m_loading || m_fetching)
        return;
    const RunPageQuery next = nextPageQuery();
    if (!m_reader)
        return appendPage(readPage(m_store, next));
    m_fetching = true;
    m_reader->read<Page>(
        this, [next](Store &store) { return readPage(store, next); },
        [this, generation = m_generation](const Result<Page> &page) {
            if (generation != m_generation || !m_fetching)
                return; // a reload came between: its own first page replaces these rows
            m_fetching = false;
            appendPage(page);
        });
}

void RunsModel::appendPage(const Result<Page> &page)
{
    if (!page || page->rows.isEmpty()) {
        if (!page)
            m_lastError = page.error().message;
        m_exhausted = true;
        return;
    }
    m_exhausted = page->rows.size() < pageSize;
    m_alerts.insert(page->alerts);
    QList<RunListing> fresh;
    for (const RunListing &row : page->rows) {
        if (!m_loaded.contains(row.run.id))
            fresh << row;
    }
    if (fresh.isEmpty())
        return;
    const int first = int(m_rows.size());
    m_notifying = true;
    beginInsertRows({}, first, first + int(fresh.size()) - 1);
    for (const RunListing &row : std::as_const(fresh)) {
        m_rows << row;
        m_loaded.insert(row.run.id);
    }
    endInsertRows();
    m_notifying = false;
}

void RunsModel::sort(int column, Qt::SortOrder order)
{
    using Key = RunPageQuery::SortKey;
    std::optional<Key> key;
    switch (Column(column)) {
    case IdColumn:
        key = Key::Id;
        break;
    case ScheduledColumn:
        key = Key::ScheduledFor;
        break;
    case StartedColumn:
        key = Key::StartedAt;
        break;
    case DurationColumn:
        key = Key::Duration;
        break;
    default:
        break;
    }
    if (!key)
        return;
    m_query.sort = *key;
    m_query.ascending = order == Qt::AscendingOrder;
    (void)reload();
}

bool RunsModel::matchesFilter(const Run &run) const
{
    return (!m_query.chainId || *m_query.chainId == run.chainId)
           && (!m_query.state || *m_query.state == run.state)
           && (!m_query.trigger || *m_query.trigger == run.trigger);
}

int RunsModel::rowOf(qint64 runId) const
{
    for (qsizetype i = 0; i < m_rows.size(); ++i) { // active runs are near the top
        if (m_rows.at(i).run.id == runId)
            return int(i);
    }
    return -1;
}

void RunsModel::refreshChainPaths()
{
    QSet<qint64> distinct(m_chainPaths.keyBegin(), m_chainPaths.keyEnd());
    for (const RunListing &row : std::as_const(m_rows))
        distinct.insert(row.run.chainId);
    const QList<qint64> ids(distinct.cbegin(), distinct.cend());
    if (!m_reader) {
        if (const Result<QHash<qint64, ChainPath>> paths = ChainRepository(m_store).pathsOf(ids)) {
            m_chainPaths.clear();
            setChainPaths(paths.value());
        }
        return; // else the next reload reads them
    }
    m_reader->read<QHash<qint64, ChainPath>>(
        this, [ids](Store &store) { return ChainRepository(store).pathsOf(ids); },
        [this](const Result<QHash<qint64, ChainPath>> &paths) {
            if (!paths)
                return;
            m_chainPaths.clear();
            setChainPaths(paths.value());
        });
}

void RunsModel::setChainPaths(const QHash<qint64, ChainPath> &paths)
{
    for (auto it = paths.cbegin(); it != paths.cend(); ++it)
        m_chainPaths.insert(it.key(), it.value().toString());
    int firstChanged = -1;
    int lastChanged = -1;
    for (qsizetype row = 0; row < m_rows.size(); ++row) {
        RunListing &listing = m_rows[row];
        const auto known = m_chainPaths.constFind(listing.run.chainId);
        const QString path =
            known != m_chainPaths.constEnd() ? known.value() : QString::number(listing.run.chainId);
        if (path == listing.chainPath)
            continue;
        listing.chainPath = path;
        firstChanged = firstChanged < 0 ? int(row) : firstChanged;
        lastChanged = int(row);
    }
    if (firstChanged >= 0)
        Q_EMIT dataChanged(index(firstChanged, ChainColumn), index(lastChanged, ChainColumn));
}

QString RunsModel::chainPath(qint64 chainId)
{
    if (const auto known = m_chainPaths.constFind(chainId); known != m_chainPaths.constEnd())
        return known.value();
    if (!m_reader) {
        const Result<ChainPath> path = ChainRepository(m_store).pathOf(chainId);
        const QString text = path ? path->toString() : QString::number(chainId);
        m_chainPaths.insert(chainId, text);
        return text;
    }
    if (!m_pathsAsked.contains(chainId)) {
        m_pathsAsked.insert(chainId);
        m_reader->read<ChainPath>(
            this, [chainId](Store &store) { return ChainRepository(store).pathOf(chainId); },
            [this, chainId](const Result<ChainPath> &path) {
                m_pathsAsked.remove(chainId);
                if (path)
                    setChainPaths({{chainId, path.value()}});
            });
    }
    return QString::number(chainId);
}

void RunsModel::readFailureReason(qint64 runId)
{
    if (!m_reader) { // the caller says the row changed
        const int row = rowOf(runId);
        if (const Result<QString> reason = RunRepository(m_store).failureReason(runId);
            row >= 0 && reason)
            m_rows[row].failureReason = reason.value();
        return;
    }
    m_reader->read<QString>(
        this, [runId](Store &store) { return RunRepository(store).failureReason(runId); },
        [this, runId](const Result<QString> &reason) {
            const int row = rowOf(runId);
            if (row < 0 || !reason || reason->isEmpty())
                return;
            m_rows[row].failureReason = reason.value();
            Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1));
        });
}

void RunsModel::applyRun(const Run &run)
{
    if (m_loading)
        m_toldWhileLoading << run;
    if (m_loaded.contains(run.id)) {
        const int row = rowOf(run.id);
        if (row < 0)
            return;
        if (m_query.state && *m_query.state != run.state) {
            // It left the state the list is filtered by (helper-1: "running" kept every run
            // that had started, long after it ended).
            m_notifying = true;
            beginRemoveRows({}, row, row);
            m_rows.removeAt(row);
            m_loaded.remove(run.id);
            endRemoveRows();
            m_notifying = false;
            return;
        }
        RunListing &listing = m_rows[row];
        listing.run.state = run.state;
        if (run.startedAt.isValid())
            listing.run.startedAt = run.startedAt;
        if (run.finishedAt.isValid())
            listing.run.finishedAt = run.finishedAt;
        if (!run.engineName.isEmpty())
            listing.run.engineName = run.engineName;
        if (isTerminal(run.state) && run.state != RunState::Succeeded
            && listing.failureReason.isEmpty())
            readFailureReason(run.id);
        if (isRunning(listing.run) && !m_ticker->isActive())
            m_ticker->start();
        Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1));
        return;
    }
    // New runs show at once only where they belong without a query: the top of a
    // newest-first list, or the end of an oldest-first one read to its end (helper-1: the
    // list stopped at the run that was last when it was read).
    const bool byId = m_query.sort == RunPageQuery::SortKey::Id;
    const bool atTop =
        byId && !m_query.ascending && (m_rows.isEmpty() || run.id > m_rows.first().run.id);
    const bool atEnd = byId && m_query.ascending && m_exhausted && !m_fetching
                       && (m_rows.isEmpty() || run.id > m_rows.last().run.id);
    if (!(atTop || atEnd) || !matchesFilter(run))
        return;
    const QString path = chainPath(run.chainId);
    const int at = atTop ? 0 : int(m_rows.size());
    m_notifying = true;
    beginInsertRows({}, at, at);
    m_rows.insert(at, RunListing{run, path, run.id, {}});
    m_loaded.insert(run.id);
    endInsertRows();
    m_notifying = false;
    if (isRunning(run) && !m_ticker->isActive())
        m_ticker->start();
}

} // namespace hg
