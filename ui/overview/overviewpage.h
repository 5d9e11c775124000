#pragma once

#include "base/result.h"

#include <QWidget>

class QGridLayout;
class QLabel;
class QListWidget;

namespace hg {

class Store;
class UpcomingModel;

// What a user opens Hourglass for, on one page: the runs going now, recent failures with
// their reasons, the next fires, and for every chain a sparkline of its last 20 runs. Shown
// when no chain is selected, for every project or the selected one.
class OverviewPage final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(OverviewPage)

public:
    explicit OverviewPage(Store &store, QWidget *parent = nullptr);

    // 0: every project.
    void setProject(qint64 projectId);
    Status reload();

    static constexpr int sparklineRuns = 20;
    QListWidget *running() const { return m_running; }
    QListWidget *failures() const { return m_failures; }
    QListWidget *nextFires() const { return m_next; }
    // The chains drawn, in order, as PROJECT/CHAIN.
    QStringList chainRows() const;

Q_SIGNALS:
    void runActivated(qint64 runId);
    void chainActivated(qint64 chainId);

private:
    QListWidget *makeList(const QString &name);
    Status loadRuns(const QHash<qint64, QString> &paths);
    Status loadChains(const QHash<qint64, QString> &paths, const QList<qint64> &chainIds);
    void loadNextFires(const QHash<qint64, QString> &paths);

    Store &m_store;
    qint64 m_projectId = 0;
    QLabel *m_title;
    QListWidget *m_running;
    QListWidget *m_failures;
    QListWidget *m_next;
    QWidget *m_chains;
    QGridLayout *m_chainGrid;
    UpcomingModel *m_upcoming;
};

} // namespace hg
