#include "mainwindow.h"

#include "projecttreemodel.h"
#include "store/chainrepository.h"
#include "store/dependencyrepository.h"
#include "store/schedulerepository.h"
#include "store/store.h"
#include "store/taskrepository.h"

#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QStatusBar>
#include <QTreeView>

namespace hg {

MainWindow::MainWindow(Store &store, QWidget *parent)
    : QMainWindow(parent)
    , m_store(store)
    , m_model(new ProjectTreeModel(store, this))
    , m_tree(new QTreeView(this))
    , m_details(new QLabel(this))
{
    setWindowTitle(QStringLiteral("Hourglass"));
    m_tree->setModel(m_model);
    m_tree->setHeaderHidden(true);
    m_tree->setUniformRowHeights(true);

    m_details->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_details->setTextFormat(Qt::RichText);
    m_details->setWordWrap(true);
    m_details->setMargin(16);

    auto *splitter = new QSplitter(this);
    splitter->addWidget(m_tree);
    splitter->addWidget(m_details);
    splitter->setStretchFactor(1, 3);
    setCentralWidget(splitter);
    resize(1100, 700);

    if (const Status loaded = m_model->reload(); !loaded)
        statusBar()->showMessage(loaded.error().message);
    else
        statusBar()->showMessage(tr("Store: %1").arg(store.location().displayName()));
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
