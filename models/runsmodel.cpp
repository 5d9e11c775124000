#include "runsmodel.h"

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
    m_notifying = true;
    beginResetModel();
    m_rows.clear();
    m_loaded.clear();
    m_alerts.clear();
    m_exhausted = false;
    m_query.after.reset();
    const Result<QList<RunListing>> first = fetchPage();
    if (first) {
        m_rows = first.value();
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
    if (std::any_of(m_rows.cbegin(), m_rows.cend(),
                    [](const RunListing &row) { return isRunning(row.run); }))
        m_ticker->start();
    return first ? Status() : Status(first.error());
}

Result<QList<RunListing>> RunsModel::fetchPage()
{
    RunPageQuery query = m_query;
    if (!m_rows.isEmpty())
        query.after = std::pair(m_rows.last().sortValue, m_rows.last().run.id);
    Result<QList<RunListing>> page = RunRepository(m_store).page(query);
    if (!page) {
        m_lastError = page.error().message;
        return page;
    }
    // The page's alerts (late, too long, too short): a mark in the reason column.
    QList<qint64> ids;
    for (const RunListing &row : page.value())
        ids << row.run.id;
    if (const Result<QHash<qint64, QList<Alert>>> alerts = AlertRepository(m_store).forRuns(ids))
        m_alerts.insert(OccurrencePresentation::alertTexts(alerts.value()));
    return page;
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
        case ChainColumn:
            return row.chainPath;
        case StateColumn:
            return StatePresentation::label(run.state);
        case TriggerColumn:
            return StatePresentation::label(run.trigger);
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
    if (parent.isValid() || m_exhausted || m_notifying)
        return;
    const Result<QList<RunListing>> page = fetchPage();
    if (!page || page->isEmpty()) {
        m_exhausted = true;
        return;
    }
    m_exhausted = page->size() < pageSize;
    const int first = int(m_rows.size());
    m_notifying = true;
    beginInsertRows({}, first, first + int(page->size()) - 1);
    for (const RunListing &row : page.value()) {
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
    const Result<QHash<qint64, ChainPath>> paths = ChainRepository(m_store).pathsOf(ids);
    if (!paths)
        return; // the next reload reads them
    m_chainPaths.clear();
    for (auto it = paths->cbegin(); it != paths->cend(); ++it)
        m_chainPaths.insert(it.key(), it.value().toString());
    bool changed = false;
    for (RunListing &row : m_rows) {
        const QString path = m_chainPaths.value(row.run.chainId, QString::number(row.run.chainId));
        changed = changed || path != row.chainPath;
        row.chainPath = path;
    }
    if (changed && !m_rows.isEmpty())
        Q_EMIT dataChanged(index(0, ChainColumn), index(int(m_rows.size()) - 1, ChainColumn));
}

QString RunsModel::chainPath(qint64 chainId)
{
    if (const auto known = m_chainPaths.constFind(chainId); known != m_chainPaths.constEnd())
        return known.value();
    const Result<ChainPath> path = ChainRepository(m_store).pathOf(chainId);
    const QString text = path ? path->toString() : QString::number(chainId);
    m_chainPaths.insert(chainId, text);
    return text;
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
    if (m_loaded.contains(run.id)) {
        const int row = rowOf(run.id);
        if (row < 0)
            return;
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
    // newest-first list.
    const bool newestFirst = m_query.sort == RunPageQuery::SortKey::Id && !m_query.ascending;
    if (!newestFirst || !matchesFilter(run)
        || (!m_rows.isEmpty() && run.id < m_rows.first().run.id))
        return;
    const QString path = chainPath(run.chainId);
    m_notifying = true;
    beginInsertRows({}, 0, 0);
    m_rows.prepend(RunListing{run, path, run.id, {}});
    m_loaded.insert(run.id);
    endInsertRows();
    m_notifying = false;
    if (isRunning(run) && !m_ticker->isActive())
        m_ticker->start();
}

} // namespace hg
