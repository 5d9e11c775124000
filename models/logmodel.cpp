#include "logmodel.h"

#include "displayformat.h"
#include "statepresentation.h"
#include "store/logrepository.h"
#include "storereader.h"

#include <QColor>
#include <QFont>

#include <utility>

namespace hg {

LogModel::LogModel(Store &store, QObject *parent)
    : QAbstractListModel(parent)
    , m_store(store)
{}

Status LogModel::follow(qint64 runId, qint64 taskRunId)
{
    beginResetModel();
    m_lines.clear();
    m_runId = runId;
    m_taskRunId = taskRunId;
    m_lastId = 0;
    m_toldMeanwhile.clear();
    m_tailAsked = 0;
    m_startsLater = false;
    endResetModel();
    if (runId <= 0)
        return {};
    const int capacity = m_capacity;
    if (!m_reader) {
        Result<QList<LogLine>> tail = LogRepository(m_store).readTail(runId, capacity);
        if (tail)
            showTail(std::move(tail.value()));
        return tail ? Status() : Status(tail.error());
    }
    const quint64 asked = ++m_follows;
    m_tailAsked = asked;
    m_reader->read<QList<LogLine>>(
        this,
        [runId, capacity](Store &store) { return LogRepository(store).readTail(runId, capacity); },
        [this, asked](const Result<QList<LogLine>> &tail) {
            if (asked != m_tailAsked)
                return; // another run or attempt was asked for since
            m_tailAsked = 0;
            const QList<LogLine> told = std::exchange(m_toldMeanwhile, {});
            showTail(tail ? tail.value() : QList<LogLine>());
            appendLines(told);
        });
    return {};
}

void LogModel::showTail(QList<LogLine> tail)
{
    beginResetModel();
    m_lines.clear();
    m_startsLater = tail.size() >= m_capacity;
    for (LogLine &line : tail) {
        m_lastId = std::max(m_lastId, line.id);
        if (wanted(line))
            m_lines.push_back(std::move(line));
    }
    endResetModel();
}

void LogModel::setTaskName(qint64 taskRunId, const QString &name)
{
    const auto known = m_taskNames.constFind(taskRunId);
    if (known != m_taskNames.constEnd() && known.value() == name)
        return;
    m_taskNames.insert(taskRunId, name);
    if (!m_lines.empty()) // the lines already shown take the name
        Q_EMIT dataChanged(index(0), index(int(m_lines.size()) - 1), {Qt::DisplayRole});
}

bool LogModel::wanted(const LogLine &line) const
{
    return line.runId == m_runId && (m_taskRunId == 0 || line.taskRunId == m_taskRunId);
}

void LogModel::appendLines(const QList<LogLine> &lines)
{
    if (m_tailAsked != 0) { // after the tail, once it is read
        for (const LogLine &line : lines) {
            if (wanted(line))
                m_toldMeanwhile << line;
        }
        if (m_toldMeanwhile.size() > 2 * qsizetype(m_capacity)) // only the last ones are kept
            m_toldMeanwhile.remove(0, m_toldMeanwhile.size() - m_capacity);
        return;
    }
    QList<LogLine> fresh;
    for (const LogLine &line : lines) {
        if (wanted(line) && (line.id == 0 || line.id > m_lastId))
            fresh << line;
    }
    if (fresh.isEmpty())
        return;
    m_lastId = std::max(m_lastId, fresh.last().id);
    if (fresh.size() > m_capacity)
        fresh.remove(0, fresh.size() - m_capacity);
    const qsizetype overflow = qsizetype(m_lines.size()) + fresh.size() - m_capacity;
    if (overflow > 0) {
        m_startsLater = true;
        beginRemoveRows({}, 0, int(overflow) - 1);
        m_lines.erase(m_lines.begin(), m_lines.begin() + overflow);
        endRemoveRows();
    }
    const int first = int(m_lines.size());
    beginInsertRows({}, first, first + int(fresh.size()) - 1);
    for (LogLine &line : fresh)
        m_lines.push_back(std::move(line));
    endInsertRows();
}

bool LogModel::reportsFailure(const LogLine &line)
{
    return line.stream == LogStream::Failure;
}

int LogModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_lines.size());
}

QString LogModel::display(const LogLine &line) const
{
    const QString task = m_taskNames.value(line.taskRunId);
    if (task.isEmpty())
        return line.text;
    const QLatin1StringView mark(
        line.stream == LogStream::Stderr                                        ? " ! "
        : line.stream == LogStream::System || line.stream == LogStream::Failure ? " # "
                                                                                : " | ");
    return task + mark + line.text;
}

QVariant LogModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const LogLine &line = m_lines.at(size_t(index.row()));
    switch (role) {
    case Qt::DisplayRole:
        return display(line);
    case Qt::ToolTipRole:
        return DisplayFormat::preciseDateTime(line.at);
    case Qt::ForegroundRole:
        if (line.stream == LogStream::Stderr || reportsFailure(line))
            return StatePresentation::errorText();
        if (line.stream == LogStream::System)
            return StatePresentation::text(RunState::Cancelled); // the muted grey
        return {};
    case Qt::FontRole:
        if (reportsFailure(line)) {
            QFont bold;
            bold.setBold(true);
            return bold;
        }
        return {};
    case StreamRole:
        return int(line.stream);
    case TimeRole:
        return line.at;
    case TaskRunIdRole:
        return line.taskRunId;
    case LineIdRole:
        return line.id;
    default:
        return {};
    }
}

int LogModel::find(const QString &text, int from, bool forward) const
{
    const int count = int(m_lines.size());
    for (int row = from; row >= 0 && row < count; row += forward ? 1 : -1) {
        if (m_lines.at(size_t(row)).text.contains(text, Qt::CaseInsensitive))
            return row;
    }
    return -1;
}

QString LogModel::text(int firstRow, int lastRow) const
{
    const int last =
        lastRow < 0 ? int(m_lines.size()) - 1 : std::min(lastRow, int(m_lines.size()) - 1);
    QStringList all;
    for (int row = std::max(firstRow, 0); row <= last; ++row)
        all << display(m_lines.at(size_t(row)));
    return all.join(QLatin1Char('\n'));
}

} // namespace hg
