#pragma once

#include "base/result.h"

#include <QSet>
#include <QWidget>

#include <memory>
#include <optional>

class QLabel;
class QListWidget;
class QTableView;

namespace hg {

class ChainFlowView;
class OverviewChainsModel;
class StoreReader;
struct OverviewSnapshot;

// What a user opens Hourglass for, on one page: the runs going now, recent failures with
// their reasons, the next fires, and for every chain a sparkline of its last 20 runs. Shown
// when no chain is selected, for every project or the selected one. Read on the StoreReader's
// thread as one snapshot: with 10,000 chains the window answers while the page fills.
class OverviewPage final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(OverviewPage)

public:
    explicit OverviewPage(StoreReader &reader, QWidget *parent = nullptr);

    // 0: every project.
    void setProject(qint64 projectId);
    // Reads again; a reload asked while one reads runs once that one is shown.
    void reload();
    bool isReading() const { return m_reading; }
    // While every schedule is paused the next fires are listed under a line that says none
    // of them fires until schedules are resumed.
    void setSchedulesPaused(bool paused);
    // Only these chains (ids), as the tree's filter shows them; none: every chain.
    void setShownChains(const std::optional<QSet<qint64>> &chains);
    // What the next reload reads again of each chain's last runs: the chains a run of which
    // changed (run events), or every chain (no event says which: runs changed elsewhere).
    void noteRunChanged(qint64 chainId) { m_runsChangedIn.insert(chainId); }
    void noteEveryRunChanged() { m_everyRunChanged = true; }

    static constexpr int sparklineRuns = 20;
    QListWidget *running() const { return m_running; }
    QListWidget *failures() const { return m_failures; }
    QListWidget *nextFires() const { return m_next; }
    OverviewChainsModel *chains() const { return m_chainsModel; }
    QTableView *chainTable() const { return m_chains; }
    QLabel *title() const { return m_title; }
    ChainFlowView *flow() const { return m_flow; }
    // The chains listed, in order, as PROJECT/CHAIN.
    QStringList chainRows() const;

Q_SIGNALS:
    void runActivated(qint64 runId);
    void chainActivated(qint64 chainId);
    void failed(const QString &message);

private:
    QListWidget *makeList(const QString &name);
    bool passes(qint64 chainId) const { return !m_shownChains || m_shownChains->contains(chainId); }
    void show(const OverviewSnapshot &snapshot);
    void showNextFires();
    // Greys what is shown while it is older than the last read, which failed.
    void setCurrent(bool current);

    StoreReader &m_reader;
    qint64 m_projectId = 0;
    QLabel *m_title;
    QListWidget *m_running;
    QListWidget *m_failures;
    QListWidget *m_next;
    OverviewChainsModel *m_chainsModel;
    QTableView *m_chains;
    ChainFlowView *m_flow;
    QWidget *m_flowBox;
    bool m_reading = false;
    bool m_again = false;
    bool m_paused = false;
    std::shared_ptr<const OverviewSnapshot> m_shown; // what the lists show
    qint64 m_shownProject = -1;                      // the project m_shown was read for
    QSet<qint64> m_runsChangedIn;                    // since the read m_shown came from
    bool m_everyRunChanged = true;
    std::optional<QSet<qint64>> m_shownChains; // the tree filter's chains, if any
};

} // namespace hg
