#pragma once

#include "domain/connectionprofile.h"
#include "remote/pgtimetabletypes.h"
#include "remote/remoteinfo.h"

#include <QWidget>

#include <atomic>
#include <memory>

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;
class QTableWidget;

namespace hg {

class ElidedLabel;
class RemoteChainCanvas;
} // namespace hg

namespace hg {

// One pg_timetable chain as the console shows it: its settings, its next fire times in the
// server's zone with their meaning, its tasks (editable, saved back in one transaction), the
// actions pg_timetable offers (enable, disable, start and stop on a worker, delete) and its
// run history from execution_log, page by page. Every read and write runs off the GUI thread.
class PgTimetableChainPage final : public QWidget
{
    Q_OBJECT

public:
    explicit PgTimetableChainPage(QWidget *parent = nullptr);

    void showChain(const ConnectionProfile &profile, const QString &chainName);
    bool isBusy() const { return m_busy > 0; }
    // The status line: what is loading, what failed, or the remote's read-only warning.
    QString statusText() const;
    RemoteChainCanvas *canvas() const { return m_canvas; }

Q_SIGNALS:
    void importRequested(const QString &remoteName, const QString &chainName);
    void chainDeleted(const QString &remoteName, const QString &chainName);
    void idle(); // every job has come back

private:
    struct Loaded
    {
        RemoteInfo info;
        PgtChain chain;
        QList<PgtSession> sessions;
    };

    void buildUi();
    void reload();
    void showLoaded(const Loaded &loaded);
    void showSchedule();
    void fillTasks();
    void loadRuns(bool more);
    void appendRuns(const QList<PgtExecution> &rows);
    void save();
    void act(const QString &what);
    void setStatus(const QString &text, bool error);
    void updateEnabled();
    // The chain as the form and the table say now; false (with the status set) when a
    // parameter cell is not JSON.
    bool chainFromUi(PgtChain &chain);
    void jobStarted();
    void jobFinished();

    ConnectionProfile m_profile;
    QString m_chainName;
    PgtChain m_chain;
    RemoteInfo m_info;
    QList<PgtExecution> m_runs;
    bool m_loaded = false;
    int m_busy = 0;
    quint64 m_generation = 0; // answers for an earlier chain are dropped
    // The generation shown, for the pool's threads: a read for a chain left meanwhile is not
    // made at all.
    std::shared_ptr<std::atomic<quint64>> m_shownGeneration =
        std::make_shared<std::atomic<quint64>>(0);

    ElidedLabel *m_title = nullptr; // a chain's name may be 20,000 characters
    QLabel *m_status = nullptr;
    QLineEdit *m_runAt = nullptr;
    QCheckBox *m_live = nullptr;
    QSpinBox *m_maxInstances = nullptr;
    QSpinBox *m_timeout = nullptr;
    QLineEdit *m_client = nullptr;
    QCheckBox *m_exclusive = nullptr;
    QCheckBox *m_selfDestruct = nullptr;
    QLabel *m_schedule = nullptr;
    QTableWidget *m_tasks = nullptr;
    RemoteChainCanvas *m_canvas = nullptr;
    QPushButton *m_addTask = nullptr;
    QPushButton *m_removeTask = nullptr;
    QPushButton *m_save = nullptr;
    QComboBox *m_worker = nullptr;
    QPushButton *m_start = nullptr;
    QPushButton *m_stop = nullptr;
    QPushButton *m_delete = nullptr;
    QPushButton *m_import = nullptr;
    QLabel *m_sessions = nullptr;
    QComboBox *m_since = nullptr;
    QCheckBox *m_failedOnly = nullptr;
    QTableWidget *m_runsTable = nullptr;
    QPushButton *m_moreRuns = nullptr;
};

} // namespace hg
