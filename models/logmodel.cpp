#include "logmodel.h"

#include "displayformat.h"
#include "statepresentation.h"
#include "store/logrepository.h"

#include <QColor>
#include <QFont>

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
    Result<QList<LogLine>> tail = LogRepository(m_store).readTail(runId, m_capacity);
    if (tail) {
        for (LogLine &line : tail.value()) {
            m_lastId = std::max(m_lastId, line.id);
            if (wanted(line))
                m_lines.push_back(std::move(line));
        }
    }
    endResetModel();
    return tail ? Status() : Status(tail.error());
}

bool LogModel::wanted(const LogLine &line) const
{
    return line.runId == m_runId && (m_taskRunId == 0 || line.taskRunId == m_taskRunId);
}

void LogModel::appendLines(const QList<LogLine> &lines)
{
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
