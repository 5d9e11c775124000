#pragma once

#include "base/result.h"
#include "domain/logline.h"

#include <QAbstractListModel>
#include <QHash>

#include <deque>

namespace hg {

class Store;
class StoreReader;

// The live log of one run (or one task run of it): a bounded ring buffer that follows the
// output. It starts with the run's last `capacity` lines from the store, then takes the
// engine's batches (Engine::logLinesWritten): one insert per batch, and the oldest lines
// leave in one removal when the buffer is full, so 20,000 lines a second stay cheap. With a
// reader, the tail is read on its thread: the log is empty until it comes, and the lines the
// engine sends meanwhile follow it.
class LogModel final : public QAbstractListModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(LogModel)

public:
    enum Role { StreamRole = Qt::UserRole + 1, TimeRole, TaskRunIdRole, LineIdRole };
    Q_ENUM(Role)

    explicit LogModel(Store &store, QObject *parent = nullptr);
    void setReader(StoreReader *reader) { m_reader = reader; }

    void setCapacity(int lines) { m_capacity = std::max(lines, 1); }
    int capacity() const { return m_capacity; }
    // Shows this run (taskRunId 0: all of it); reads its tail from the store.
    Status follow(qint64 runId, qint64 taskRunId = 0);
    qint64 runId() const { return m_runId; }
    // Task names for display ("task | line"), by task run id.
    void setTaskName(qint64 taskRunId, const QString &name);
    // The run has more lines than the buffer holds: the first ones are not shown.
    bool startsLater() const { return m_startsLater; }
    // The tail asked for by follow() is still being read.
    bool isLoading() const { return m_tailAsked != 0; }

    // The next row at or after `from` (before, backwards) whose text contains `text`
    // (case-insensitive); -1 when none.
    int find(const QString &text, int from, bool forward = true) const;
    // The rows as plain text, one line each (for copy and save).
    QString text(int firstRow = 0, int lastRow = -1) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    // The engine's line saying why an attempt failed: shown bold in the error colour.
    static bool reportsFailure(const LogLine &line);

public Q_SLOTS:
    // From Engine::logLinesWritten; lines of other runs are ignored.
    void appendLines(const QList<hg::LogLine> &lines);

private:
    bool wanted(const LogLine &line) const;
    void showTail(QList<LogLine> tail);
    QString display(const LogLine &line) const;

    Store &m_store;
    StoreReader *m_reader = nullptr;
    quint64 m_tailAsked = 0; // the follow() whose tail is being read; 0: none
    quint64 m_follows = 0;
    QList<LogLine> m_toldMeanwhile; // the engine's lines while the tail is read
    std::deque<LogLine> m_lines;
    QHash<qint64, QString> m_taskNames;
    int m_capacity = 100000;
    qint64 m_runId = 0;
    qint64 m_taskRunId = 0;
    bool m_startsLater = false;
    qint64 m_lastId = 0; // engine batches may repeat what the store read already had
};

} // namespace hg
