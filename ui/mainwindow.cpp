#include "mainwindow.h"

#include "projecttreemodel.h"
#include "runsmodel.h"
#include "runsview.h"
#include "scheduler/enginehost.h"
#include "scheduler/runcontrol.h"
#include "store/chainrepository.h"
#include "store/dependencyrepository.h"
#include "store/schedulerepository.h"
#include "store/store.h"
#include "store/taskrepository.h"
#include "upcomingmodel.h"

#include <QAction>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QSplitter>
#include <QStatusBar>
#include <QTableView>
#include <QTabWidget>
#include <QTimer>
#include <QTreeView>

namespace hg {

MainWindow::MainWindow(Store &store, EngineHost *engine, QWidget *parent)
    : QMainWindow(parent)
    , m_store(store)
    , m_model(new ProjectTreeModel(store, this))
    , m_tree(new QTreeView(this))
    , m_details(new QLabel(this))
    , m_tabs(new QTabWidget(this))
    , m_runsView(new RunsView(store, this))
    , m_upcoming(new UpcomingModel(store, this))
    , m_upcomingTable(new QTableView(this))
    , m_engineState(new QLabel(this))
{
    setWindowTitle(QStringLiteral("Hourglass"));
    m_tree->setModel(m_model);
    m_tree->setHeaderHidden(true);
    m_tree->setUniformRowHeights(true);

    m_details->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_details->setTextFormat(Qt::RichText);
    m_details->setWordWrap(true);
    m_details->setMargin(16);

    m_upcomingTable->setModel(m_upcoming);
    m_upcomingTable->verticalHeader()->hide();
    m_upcomingTable->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    m_upcomingTable->horizontalHeader()->setStretchLastSection(true);
    m_upcomingTable->setColumnWidth(UpcomingModel::WhenColumn, 190);
    m_upcomingTable->setColumnWidth(UpcomingModel::ChainColumn, 220);
    m_tabs->addTab(m_details, tr("&Chain"));
    m_tabs->addTab(m_runsView, tr("&Runs"));
    m_tabs->addTab(m_upcomingTable, tr("&Upcoming"));
    connect(m_tabs, &QTabWidget::currentChanged, this, [this](int tab) {
        if (m_tabs->widget(tab) == m_upcomingTable)
            (void)m_upcoming->reload();
    });

    auto *splitter = new QSplitter(this);
    splitter->addWidget(m_tree);
    splitter->addWidget(m_tabs);
    splitter->setStretchFactor(1, 3);
    splitter->setSizes({260, 1000});
    setCentralWidget(splitter);
    resize(1280, 800);

    auto *runNow = new QAction(tr("&Run now"), this);
    runNow->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_R));
    connect(runNow, &QAction::triggered, this, &MainWindow::runSelectedChain);
    auto *quit = new QAction(tr("&Quit"), this);
    quit->setShortcut(QKeySequence::Quit);
    connect(quit, &QAction::triggered, this, &QWidget::close);
    QMenu *fileMenu = menuBar()->addMenu(tr("&File"));
    fileMenu->addAction(quit);
    QMenu *chainMenu = menuBar()->addMenu(tr("C&hain"));
    chainMenu->addAction(runNow);
    m_tree->setContextMenuPolicy(Qt::CustomContextMenu);
    connect(m_tree, &QWidget::customContextMenuRequested, this, [this, runNow](const QPoint &at) {
        if (selectedChainId() <= 0)
            return;
        QMenu menu;
        menu.addAction(runNow);
        menu.exec(m_tree->viewport()->mapToGlobal(at));
    });

    statusBar()->addPermanentWidget(m_engineState);
    m_engineState->setText(engine ? tr("Engine: starting") : tr("Engine: not running here"));
    if (const Status loaded = m_model->reload(); !loaded)
        statusBar()->showMessage(loaded.error().message);
    else
        statusBar()->showMessage(tr("Store: %1").arg(store.location().displayName()));
    if (engine)
        connectEngine(engine);
    m_tree->expandAll();
    connect(m_tree->selectionModel(), &QItemSelectionModel::currentChanged, this,
            &MainWindow::showSelection);
    // Open on the first chain, so the window shows something useful straight away.
    const QModelIndex firstProject = m_model->index(0, 0);
    if (m_model->rowCount(firstProject) > 0)
        m_tree->setCurrentIndex(m_model->index(0, 0, firstProject));
    showSelection();
}

MainWindow::~MainWindow() = default;

qint64 MainWindow::selectedChainId() const
{
    const QModelIndex current = m_tree->currentIndex();
    if (!current.isValid() || !current.data(ProjectTreeModel::IsChainRole).toBool())
        return 0;
    return current.data(ProjectTreeModel::IdRole).toLongLong();
}

void MainWindow::runSelectedChain()
{
    const qint64 chainId = selectedChainId();
    if (chainId <= 0)
        return;
    const Result<Run> run = RunControl(m_store).start(chainId);
    if (!run) {
        QMessageBox::warning(this, tr("Run now"), run.error().message);
        return;
    }
    m_runsView->applyRun(run.value());
    m_runsView->selectRun(run->id);
    m_tabs->setCurrentWidget(m_runsView);
    statusBar()->showMessage(tr("Run %1 queued").arg(run->id), 5000);
}

void MainWindow::connectEngine(EngineHost *engine)
{
    // Queued across threads: the engine never waits for the window.
    Engine *source = engine->engine();
    connect(source, &Engine::runChanged, m_runsView, &RunsView::applyRun);
    connect(source, &Engine::taskRunChanged, m_runsView, &RunsView::applyTaskRun);
    connect(source, &Engine::logLinesWritten, m_runsView, &RunsView::appendLogLines);
    connect(source, &Engine::runChanged, this, [this](const Run &run) {
        if (isTerminal(run.state))
            m_activeRuns.remove(run.id);
        else if (run.state == RunState::Running || run.state == RunState::Paused)
            m_activeRuns.insert(run.id);
        m_engineState->setText(
            tr("Engine: running, %n active run(s)", nullptr, int(m_activeRuns.size())));
    });
    connect(engine, &EngineHost::started, this,
            [this] { m_engineState->setText(tr("Engine: running")); });
    connect(engine, &EngineHost::startFailed, this, [this](const QString &why) {
        m_engineState->setText(tr("Engine: not running here"));
        m_engineState->setToolTip(why);
        statusBar()->showMessage(why);
    });
    connect(engine, &EngineHost::stopped, this,
            [this] { m_engineState->setText(tr("Engine: stopped")); });
}

void MainWindow::showSelection()
{
    const QModelIndex current = m_tree->currentIndex();
    if (!current.isValid() || !current.data(ProjectTreeModel::IsChainRole).toBool()) {
        m_details->setText(tr("<h2>Hourglass</h2><p>Select a chain to see its tasks and "
                              "schedules.</p>"));
        return;
    }
    const qint64 chainId = current.data(ProjectTreeModel::IdRole).toLongLong();
    const Result<Chain> chain = ChainRepository(m_store).byId(chainId);
    const Result<QList<Task>> tasks = TaskRepository(m_store).list(chainId);
    const Result<QList<Dependency>> edges = DependencyRepository(m_store).list(chainId);
    const Result<QList<Schedule>> schedules = ScheduleRepository(m_store).list(chainId);
    if (!chain || !tasks || !edges || !schedules) {
        m_details->setText(tr("Cannot read this chain."));
        return;
    }
    QString html =
        QStringLiteral("<h2>%1</h2><p>%2</p><h3>%3</h3><ul>")
            .arg(chain->name.toHtmlEscaped(), chain->description.toHtmlEscaped(), tr("Tasks"));
    for (const Task &task : tasks.value()) {
        QStringList after;
        for (const Dependency &edge : edges.value()) {
            if (edge.taskId == task.id)
                after << edge.upstreamName;
        }
        html +=
            QStringLiteral("<li><b>%1</b> (%2) <code>%3</code>%4</li>")
                .arg(task.name.toHtmlEscaped(), enumName(task.kind),
                     (QStringList{task.command} + task.arguments)
                         .join(QLatin1Char(' '))
                         .toHtmlEscaped(),
                     after.isEmpty()
                         ? QString()
                         : tr(" after %1").arg(after.join(QLatin1String(", ")).toHtmlEscaped()));
    }
    html += QStringLiteral("</ul><h3>%1</h3><ul>").arg(tr("Schedules"));
    for (const Schedule &schedule : schedules.value())
        html += QStringLiteral("<li><code>%1</code> (%2, %3)</li>")
                    .arg(schedule.expression.toHtmlEscaped(), enumName(schedule.dialect),
                         schedule.timeZone.isEmpty() ? tr("local time") : schedule.timeZone);
    html += QStringLiteral("</ul>");
    m_details->setText(html);
}

} // namespace hg
