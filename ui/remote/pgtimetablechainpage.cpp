#include "pgtimetablechainpage.h"

#include "common/elidedlabel.h"
#include "cron/cronexplainer.h"
#include "cron/cronexpression.h"
#include "displayformat.h"
#include "remotechaincanvas.h"
#include "remotejob.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QFutureWatcher>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMessageBox>
#include <QPushButton>
#include <QSpinBox>
#include <QSplitter>
#include <QTableWidget>
#include <QTimeZone>
#include <QVBoxLayout>

namespace hg {
namespace {

enum TimetableTaskColumn {
    OrderColumn,
    NameColumn,
    KindColumn,
    CommandColumn,
    ParametersColumn,
    IgnoreErrorColumn,
    AutonomousColumn,
    TimeoutColumn,
    ConnectionColumn,
    TimetableTaskColumnCount
};

constexpr int pgTimetableRunsPageSize = 200;
// A command longer than this is shown cut short and kept whole aside, not laid out whole in
// a cell: 45 KB of SQL held the GUI thread 0.8 s as the page opened (helper-2).
constexpr qsizetype longestCommandShown = 2000;

// Runs `work` off the GUI thread and hands its answer to `done` on it, unless `page` has
// moved on to another chain meanwhile.
template<typename T>
void runJob(PgTimetableChainPage *page, const ConnectionProfile &profile,
            std::function<Result<T>(const PgTimetableCatalog &)> work,
            std::function<void(const Result<T> &)> done, std::function<bool()> wanted = {})
{
    runRemoteJob<PgTimetableCatalog, T>(page, profile, std::move(work), std::move(done),
                                        std::move(wanted));
}

QTableWidgetItem *checkItem(bool checked)
{
    auto *item = new QTableWidgetItem;
    item->setFlags(Qt::ItemIsUserCheckable | Qt::ItemIsEnabled | Qt::ItemIsSelectable);
    item->setCheckState(checked ? Qt::Checked : Qt::Unchecked);
    return item;
}

QString text(const QTableWidget *table, int row, int column)
{
    const QTableWidgetItem *item = table->item(row, column);
    return item ? item->text().trimmed() : QString();
}

bool checked(const QTableWidget *table, int row, int column)
{
    const QTableWidgetItem *item = table->item(row, column);
    return item && item->checkState() == Qt::Checked;
}

} // namespace

PgTimetableChainPage::PgTimetableChainPage(QWidget *parent)
    : QWidget(parent)
{
    buildUi();
    updateEnabled();
}

void PgTimetableChainPage::buildUi()
{
    auto *layout = new QVBoxLayout(this);
    m_title = new ElidedLabel(this);
    QFont bold = m_title->font();
    bold.setBold(true);
    bold.setPointSizeF(bold.pointSizeF() * 1.2);
    m_title->setFont(bold);
    m_status = new QLabel(this);
    m_status->setWordWrap(true);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_title);
    layout->addWidget(m_status);

    auto *form = new QFormLayout;
    m_runAt = new QLineEdit(this);
    m_runAt->setToolTip(tr("timetable.cron: five cron fields, @every INTERVAL, @after INTERVAL or "
                           "@reboot; empty: started only on demand"));
    m_live = new QCheckBox(tr("Live (scheduled)"), this);
    m_maxInstances = new QSpinBox(this);
    m_maxInstances->setRange(0, 100000);
    m_maxInstances->setSpecialValueText(tr("no limit"));
    m_timeout = new QSpinBox(this);
    m_timeout->setRange(0, std::numeric_limits<int>::max());
    m_timeout->setSuffix(tr(" ms"));
    m_timeout->setSpecialValueText(tr("none"));
    m_client = new QLineEdit(this);
    m_client->setPlaceholderText(tr("any worker"));
    m_exclusive = new QCheckBox(tr("Exclusive: other chains wait while it runs"), this);
    m_selfDestruct = new QCheckBox(tr("Self-destruct after a successful run"), this);
    m_schedule = new QLabel(this);
    m_schedule->setWordWrap(true);
    // Two rows hold the limits and the switches: the chain and its runs get the height.
    m_schedule->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Maximum);
    const auto labelFor = [this](const QString &text, QWidget *buddy) {
        auto *label = new QLabel(text, this);
        label->setBuddy(buddy);
        return label;
    };
    auto *limits = new QHBoxLayout;
    limits->addWidget(m_maxInstances, 1);
    limits->addWidget(labelFor(tr("Timeout:"), m_timeout));
    limits->addWidget(m_timeout, 1);
    limits->addWidget(labelFor(tr("Client name:"), m_client));
    limits->addWidget(m_client, 2);
    auto *switches = new QHBoxLayout;
    for (QCheckBox *box : {m_live, m_exclusive, m_selfDestruct})
        switches->addWidget(box);
    switches->addStretch(1);
    form->addRow(tr("Run at:"), m_runAt);
    form->addRow(QString(), m_schedule);
    form->addRow(tr("Max instances:"), limits);
    form->addRow(QString(), switches);
    layout->addLayout(form);
    connect(m_runAt, &QLineEdit::textChanged, this, &PgTimetableChainPage::showSchedule);

    m_tasks = new QTableWidget(0, TimetableTaskColumnCount, this);

    m_tasks->setTabKeyNavigation(false); // Tab leaves the table; arrows move inside
    m_tasks->setHorizontalHeaderLabels({tr("Order"), tr("Name"), tr("Kind"), tr("Command"),
                                        tr("Parameters"), tr("Ignore error"), tr("Autonomous"),
                                        tr("Timeout (ms)"), tr("Database connection")});
    m_tasks->horizontalHeaderItem(ParametersColumn)
        ->setToolTip(tr("A JSON array of parameter rows: pg_timetable runs the task once per "
                        "row, for example [[\"a\", 1]]"));
    m_tasks->horizontalHeader()->setSectionResizeMode(CommandColumn, QHeaderView::Stretch);
    m_tasks->setAccessibleName(tr("Tasks in order"));
    // The chain above, its history below: the user moves the line between them.
    auto *split = new QSplitter(Qt::Vertical, this);
    auto *chainPart = new QWidget(split);
    auto *chainLayout = new QVBoxLayout(chainPart);
    chainLayout->setContentsMargins(0, 0, 0, 0);
    auto *runsPart = new QWidget(split);
    auto *runsLayout = new QVBoxLayout(runsPart);
    runsLayout->setContentsMargins(0, 0, 0, 0);
    split->setSizes({500, 400}); // proportions: the canvas and tasks a little more than the runs
    layout->addWidget(split, 1);
    m_canvas = new RemoteChainCanvas(this);
    chainLayout->addWidget(m_canvas, 1);
    chainLayout->addWidget(m_tasks, 1);
    auto *taskButtons = new QHBoxLayout;
    m_addTask = new QPushButton(tr("Add task"), this);
    m_removeTask = new QPushButton(tr("Remove task"), this);
    m_save = new QPushButton(tr("Save to pg_timetable"), this);
    taskButtons->addWidget(m_addTask);
    taskButtons->addWidget(m_removeTask);
    taskButtons->addStretch();
    taskButtons->addWidget(m_save);
    chainLayout->addLayout(taskButtons);
    connect(m_addTask, &QPushButton::clicked, this, [this] {
        const int row = m_tasks->rowCount();
        const double order = row > 0 ? text(m_tasks, row - 1, OrderColumn).toDouble() + 10 : 10;
        m_tasks->insertRow(row);
        for (const int column : {NameColumn, CommandColumn, ParametersColumn, ConnectionColumn})
            m_tasks->setItem(row, column, new QTableWidgetItem);
        m_tasks->setItem(row, OrderColumn, new QTableWidgetItem(QString::number(order)));
        m_tasks->setItem(row, KindColumn, new QTableWidgetItem(QStringLiteral("SQL")));
        m_tasks->setItem(row, IgnoreErrorColumn, checkItem(false));
        m_tasks->setItem(row, AutonomousColumn, checkItem(false));
        m_tasks->setItem(row, TimeoutColumn, new QTableWidgetItem(QStringLiteral("0")));
        m_tasks->setCurrentCell(row, CommandColumn);
    });
    connect(m_removeTask, &QPushButton::clicked, this, [this] {
        if (m_tasks->currentRow() >= 0)
            m_tasks->removeRow(m_tasks->currentRow());
    });
    connect(m_save, &QPushButton::clicked, this, &PgTimetableChainPage::save);

    auto *actions = new QHBoxLayout;
    m_worker = new QComboBox(this);
    m_worker->setEditable(true);
    m_worker->setToolTip(tr("The pg_timetable worker (client name) to start or stop it on"));
    m_worker->setAccessibleName(tr("Worker"));
    m_start = new QPushButton(tr("Start"), this);
    m_stop = new QPushButton(tr("Stop"), this);
    m_delete = new QPushButton(tr("Delete…"), this);
    m_import = new QPushButton(tr("Import into a local project"), this);
    actions->addWidget(new QLabel(tr("Worker:"), this));
    actions->addWidget(m_worker, 1);
    actions->addWidget(m_start);
    actions->addWidget(m_stop);
    actions->addStretch();
    actions->addWidget(m_import);
    actions->addWidget(m_delete);
    chainLayout->addLayout(actions);
    connect(m_start, &QPushButton::clicked, this, [this] { act(QStringLiteral("start")); });
    connect(m_stop, &QPushButton::clicked, this, [this] { act(QStringLiteral("stop")); });
    connect(m_delete, &QPushButton::clicked, this, [this] {
        if (QMessageBox::question(this, tr("Delete chain"),
                                  tr("Delete chain '%1' and its tasks from pg_timetable on '%2'? "
                                     "Its run history stays.")
                                      .arg(m_chainName, m_profile.name))
            == QMessageBox::Yes)
            act(QStringLiteral("delete"));
    });
    connect(m_import, &QPushButton::clicked, this,
            [this] { Q_EMIT importRequested(m_profile.name, m_chainName); });
    m_sessions = new QLabel(this);
    m_sessions->setWordWrap(true);
    chainLayout->addWidget(m_sessions);

    auto *runsHeader = new QHBoxLayout;
    runsHeader->addWidget(new QLabel(tr("Runs (execution_log), newest first"), this));
    runsHeader->addStretch();
    m_since = new QComboBox(this);
    m_since->setAccessibleName(tr("Runs started within"));
    // The value is how far back, in seconds; 0 is the whole history.
    m_since->addItem(tr("Any time"), 0);
    m_since->addItem(tr("Last hour"), 3600);
    m_since->addItem(tr("Last 24 hours"), 86400);
    m_since->addItem(tr("Last 7 days"), 7 * 86400);
    m_since->addItem(tr("Last 30 days"), 30 * 86400);
    runsHeader->addWidget(m_since);
    m_failedOnly = new QCheckBox(tr("Failed only"), this);
    runsHeader->addWidget(m_failedOnly);
    runsLayout->addLayout(runsHeader);
    connect(m_failedOnly, &QCheckBox::toggled, this, [this] { loadRuns(false); });
    connect(m_since, &QComboBox::currentIndexChanged, this, [this] { loadRuns(false); });
    m_runsTable = new QTableWidget(0, 7, this);
    m_runsTable->setTabKeyNavigation(false); // Tab leaves the table; arrows move inside
    m_runsTable->setHorizontalHeaderLabels({tr("Started"), tr("Task"), tr("Result"), tr("Duration"),
                                            tr("Worker"), tr("Command"), tr("Output")});
    m_runsTable->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_runsTable->horizontalHeader()->setSectionResizeMode(6, QHeaderView::Stretch);
    m_runsTable->horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_runsTable->setWordWrap(false);
    m_runsTable->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    m_runsTable->setAccessibleName(tr("Runs"));
    runsLayout->addWidget(m_runsTable, 1);
    m_moreRuns = new QPushButton(tr("Load more"), this);
    runsLayout->addWidget(m_moreRuns, 0, Qt::AlignRight);
    connect(m_moreRuns, &QPushButton::clicked, this, [this] { loadRuns(true); });
}

void PgTimetableChainPage::showChain(const ConnectionProfile &profile, const QString &chainName)
{
    m_profile = profile;
    m_chainName = chainName;
    m_loaded = false;
    m_shownGeneration->store(++m_generation);
    m_title->setFullText(tr("%1 — pg_timetable on '%2'").arg(chainName, profile.name));
    // Nothing of the chain shown before stays under this one's name while it is read, nor
    // when the read fails (helper-2: a slow remote showed the last chain's schedule here).
    m_chain = PgtChain{};
    m_runAt->clear();
    m_live->setChecked(false);
    m_maxInstances->setValue(0);
    m_timeout->setValue(0);
    m_client->clear();
    m_exclusive->setChecked(false);
    m_selfDestruct->setChecked(false);
    m_canvas->showChain(m_chain);
    m_sessions->clear();
    m_schedule->setText(tr("Reading…"));
    m_tasks->setRowCount(0);
    m_runsTable->clearSpans();
    m_runsTable->setRowCount(0);
    m_runs.clear();
    reload();
    loadRuns(false);
}

QString PgTimetableChainPage::statusText() const
{
    return m_status->text();
}

void PgTimetableChainPage::setStatus(const QString &message, bool error)
{
    m_status->setText(message);
    m_status->setStyleSheet(error ? QStringLiteral("color: palette(highlight);") : QString());
    m_status->setAccessibleName(message);
}

void PgTimetableChainPage::jobStarted()
{
    ++m_busy;
    updateEnabled();
}

void PgTimetableChainPage::jobFinished()
{
    --m_busy;
    updateEnabled();
    if (m_busy == 0)
        Q_EMIT idle();
}

void PgTimetableChainPage::updateEnabled()
{
    const bool writable = m_loaded && !m_info.readOnly && m_busy == 0;
    for (QWidget *w : {static_cast<QWidget *>(m_runAt), static_cast<QWidget *>(m_live),
                       static_cast<QWidget *>(m_maxInstances), static_cast<QWidget *>(m_timeout),
                       static_cast<QWidget *>(m_client), static_cast<QWidget *>(m_exclusive),
                       static_cast<QWidget *>(m_selfDestruct), static_cast<QWidget *>(m_addTask),
                       static_cast<QWidget *>(m_removeTask), static_cast<QWidget *>(m_save),
                       static_cast<QWidget *>(m_start), static_cast<QWidget *>(m_stop),
                       static_cast<QWidget *>(m_delete)})
        w->setEnabled(writable);
    m_tasks->setEditTriggers(writable ? QAbstractItemView::AllEditTriggers
                                      : QAbstractItemView::NoEditTriggers);
    m_import->setEnabled(m_loaded && m_busy == 0);
    m_moreRuns->setEnabled(m_busy == 0 && !m_runs.isEmpty()
                           && m_runs.size() % pgTimetableRunsPageSize == 0);
}

void PgTimetableChainPage::reload()
{
    setStatus(tr("Reading chain '%1' from '%2'…").arg(m_chainName, m_profile.name), false);
    jobStarted();
    const QString name = m_chainName;
    const quint64 generation = m_generation;
    runJob<Loaded>(
        this, m_profile,
        [name](const PgTimetableCatalog &catalog) -> Result<Loaded> {
            Result<PgtChain> chain = catalog.chain(name);
            if (!chain)
                return chain.error();
            Result<QList<PgtSession>> sessions = catalog.sessions();
            if (!sessions)
                return sessions.error();
            return Loaded{catalog.info(), chain.value(), sessions.value()};
        },
        [this, generation](const Result<Loaded> &loaded) {
            if (generation == m_generation) {
                if (loaded)
                    showLoaded(loaded.value());
                else
                    setStatus(loaded.error().message, true);
            }
            jobFinished();
        },
        [shown = m_shownGeneration, generation] { return shown->load() == generation; });
}

void PgTimetableChainPage::showLoaded(const Loaded &loaded)
{
    m_info = loaded.info;
    m_chain = loaded.chain;
    m_loaded = true;
    m_runAt->setText(m_chain.runAt);
    m_live->setChecked(m_chain.live);
    m_maxInstances->setValue(m_chain.maxInstances.value_or(0));
    m_timeout->setValue(m_chain.timeoutMs);
    m_client->setText(m_chain.clientName);
    m_exclusive->setChecked(m_chain.exclusive);
    m_selfDestruct->setChecked(m_chain.selfDestruct);
    fillTasks();
    m_canvas->showChain(m_chain);
    showSchedule();
    const QString current = m_worker->currentText();
    m_worker->clear();
    QStringList lines;
    for (const PgtSession &session : loaded.sessions) {
        m_worker->addItem(session.clientName);
        lines << tr("%1 (pid %2, since %3)%4")
                     .arg(session.clientName)
                     .arg(session.clientPid)
                     .arg(QLocale().toString(session.startedAt.toLocalTime(), QLocale::ShortFormat))
                     .arg(session.activeChains.isEmpty()
                              ? QString()
                              : tr(": running %1")
                                    .arg(session.activeChains.join(QLatin1String(", "))));
    }
    m_worker->setCurrentText(!m_chain.clientName.isEmpty() ? m_chain.clientName
                             : current.isEmpty()           ? m_worker->itemText(0)
                                                           : current);
    m_sessions->setText(lines.isEmpty()
                            ? tr("No pg_timetable worker is connected.")
                            : tr("Connected workers: %1").arg(lines.join(QLatin1String("; "))));
    setStatus(m_info.readOnly
                  ? m_info.warning
                  : tr("%1 %2, time zone %3").arg(m_info.system, m_info.version, m_info.timeZone),
              m_info.readOnly);
    updateEnabled();
}

void PgTimetableChainPage::fillTasks()
{
    m_tasks->setRowCount(0);
    for (const PgtTask &task : std::as_const(m_chain.tasks)) {
        const int row = m_tasks->rowCount();
        m_tasks->insertRow(row);
        auto *order = new QTableWidgetItem(QString::number(task.order));
        order->setData(Qt::UserRole, task.id);
        m_tasks->setItem(row, OrderColumn, order);
        m_tasks->setItem(row, NameColumn, new QTableWidgetItem(task.name));
        m_tasks->setItem(row, KindColumn, new QTableWidgetItem(task.kind));
        auto *command = new QTableWidgetItem(task.command);
        if (task.command.size() > longestCommandShown) {
            command->setText(tr("%1… (%L2 characters: too long to edit here)")
                                 .arg(task.command.left(200).simplified())
                                 .arg(task.command.size()));
            command->setData(Qt::UserRole, task.command); // saved as it is
            command->setFlags(command->flags() & ~Qt::ItemIsEditable);
        }
        m_tasks->setItem(row, CommandColumn, command);
        QString parameters;
        if (!task.parameters.isEmpty())
            parameters =
                QLatin1Char('[') + task.parameters.join(QLatin1String(", ")) + QLatin1Char(']');
        m_tasks->setItem(row, ParametersColumn, new QTableWidgetItem(parameters));
        m_tasks->setItem(row, IgnoreErrorColumn, checkItem(task.ignoreError));
        m_tasks->setItem(row, AutonomousColumn, checkItem(task.autonomous));
        m_tasks->setItem(row, TimeoutColumn, new QTableWidgetItem(QString::number(task.timeoutMs)));
        m_tasks->setItem(row, ConnectionColumn, new QTableWidgetItem(task.databaseConnection));
    }
    m_tasks->resizeColumnsToContents();
}

void PgTimetableChainPage::showSchedule()
{
    const QString runAt = m_runAt->text().trimmed();
    if (runAt.isEmpty()) {
        m_schedule->setText(tr("No schedule: the chain runs only when started."));
        return;
    }
    const Result<CronExpression> expression =
        CronExpression::parse(runAt, CronDialect::PgTimetable);
    if (!expression) {
        m_schedule->setText(expression.error().message);
        return;
    }
    QTimeZone zone(m_info.timeZone.toUtf8());
    if (!zone.isValid())
        zone = QTimeZone::utc();
    QStringList next;
    QDateTime after = QDateTime::currentDateTimeUtc();
    for (int i = 0; i < 5; ++i) {
        const std::optional<QDateTime> fire = expression->next(after, zone);
        if (!fire)
            break;
        next << QLocale().toString(*fire, QLocale::ShortFormat);
        after = *fire;
    }
    const QString meaning =
        CronExplainer(expression.value()).describe(QString::fromUtf8(zone.id()));
    m_schedule->setText(
        next.isEmpty() ? meaning : tr("%1. Next: %2").arg(meaning, next.join(QLatin1String(", "))));
}

bool PgTimetableChainPage::chainFromUi(PgtChain &chain)
{
    chain = m_chain;
    chain.runAt = m_runAt->text().trimmed();
    chain.live = m_live->isChecked();
    chain.maxInstances =
        m_maxInstances->value() > 0 ? std::optional<int>(m_maxInstances->value()) : std::nullopt;
    chain.timeoutMs = m_timeout->value();
    chain.clientName = m_client->text().trimmed();
    chain.exclusive = m_exclusive->isChecked();
    chain.selfDestruct = m_selfDestruct->isChecked();
    chain.tasks.clear();
    for (int row = 0; row < m_tasks->rowCount(); ++row) {
        PgtTask task;
        task.id = m_tasks->item(row, OrderColumn)
                      ? m_tasks->item(row, OrderColumn)->data(Qt::UserRole).toLongLong()
                      : 0;
        task.order = text(m_tasks, row, OrderColumn).toDouble();
        task.name = text(m_tasks, row, NameColumn);
        task.kind = text(m_tasks, row, KindColumn).toUpper();
        const QTableWidgetItem *command = m_tasks->item(row, CommandColumn);
        task.command = command && command->data(Qt::UserRole).isValid()
                           ? command->data(Qt::UserRole).toString()
                           : text(m_tasks, row, CommandColumn);
        task.ignoreError = checked(m_tasks, row, IgnoreErrorColumn);
        task.autonomous = checked(m_tasks, row, AutonomousColumn);
        task.timeoutMs = text(m_tasks, row, TimeoutColumn).toInt();
        task.databaseConnection = text(m_tasks, row, ConnectionColumn);
        const QString parameters = text(m_tasks, row, ParametersColumn);
        if (!parameters.isEmpty()) {
            const QJsonDocument rows = QJsonDocument::fromJson(parameters.toUtf8());
            if (!rows.isArray()) {
                setStatus(tr("Task %1: the parameters must be a JSON array of rows, for example "
                             "[[\"a\", 1]]")
                              .arg(row + 1),
                          true);
                return false;
            }
            const QJsonArray values = rows.array();
            for (const auto &value : values)
                task.parameters << QString::fromUtf8(QJsonDocument(QJsonArray{value})
                                                         .toJson(QJsonDocument::Compact))
                                       .mid(1)
                                       .chopped(1);
        }
        chain.tasks << task;
    }
    return true;
}

void PgTimetableChainPage::save()
{
    PgtChain chain;
    if (!chainFromUi(chain))
        return;
    setStatus(tr("Saving '%1'…").arg(chain.name), false);
    jobStarted();
    const quint64 generation = m_generation;
    runJob<bool>(
        this, m_profile,
        [chain](const PgTimetableCatalog &catalog) -> Result<bool> {
            const Status saved = catalog.save(chain);
            if (!saved)
                return saved.error();
            return true;
        },
        [this, generation](const Result<bool> &saved) {
            if (generation == m_generation) {
                if (saved)
                    reload();
                else
                    setStatus(tr("Nothing was saved: %1").arg(saved.error().message), true);
            }
            jobFinished();
        });
}

void PgTimetableChainPage::act(const QString &what)
{
    const QString name = m_chainName;
    const QString worker = m_worker->currentText().trimmed();
    const quint64 generation = m_generation;
    jobStarted();
    runJob<bool>(
        this, m_profile,
        [what, name, worker](const PgTimetableCatalog &catalog) -> Result<bool> {
            Status done;
            if (what == QLatin1String("start"))
                done = catalog.start(name, worker);
            else if (what == QLatin1String("stop"))
                done = catalog.stop(name, worker);
            else
                done = catalog.deleteJob(name);
            if (!done)
                return done.error();
            return true;
        },
        [this, what, name, worker, generation](const Result<bool> &done) {
            if (generation == m_generation) {
                if (!done)
                    setStatus(done.error().message, true);
                else if (what == QLatin1String("delete"))
                    Q_EMIT chainDeleted(m_profile.name, name);
                else
                    setStatus(what == QLatin1String("start")
                                  ? tr("Start sent to worker '%1'.").arg(worker)
                                  : tr("Stop sent to worker '%1'.").arg(worker),
                              false);
            }
            jobFinished();
        });
}

void PgTimetableChainPage::loadRuns(bool more)
{
    if (m_profile.name.isEmpty())
        return;
    if (!more) {
        m_runs.clear();
        m_runsTable->clearSpans();
        m_runsTable->setRowCount(0);
    }
    PgtExecutionFilter filter;
    filter.chainName = m_chainName;
    filter.failedOnly = m_failedOnly->isChecked();
    if (const int back = m_since->currentData().toInt(); back > 0)
        filter.since = QDateTime::currentDateTimeUtc().addSecs(-back);
    filter.limit = pgTimetableRunsPageSize;
    if (more && !m_runs.isEmpty())
        filter.before = PgtExecutionKey::after(m_runs.last());
    const quint64 generation = m_generation;
    jobStarted();
    runJob<QList<PgtExecution>>(
        this, m_profile,
        [filter](const PgTimetableCatalog &catalog) { return catalog.executions(filter); },
        [this, generation](const Result<QList<PgtExecution>> &rows) {
            if (generation == m_generation) {
                if (rows)
                    appendRuns(rows.value());
                else
                    setStatus(rows.error().message, true);
            }
            jobFinished();
        },
        [shown = m_shownGeneration, generation] { return shown->load() == generation; });
}

void PgTimetableChainPage::appendRuns(const QList<PgtExecution> &rows)
{
    if (m_runs.isEmpty() && rows.isEmpty()) { // an empty table said nothing
        m_runsTable->setRowCount(1);
        auto *none = new QTableWidgetItem(tr("No runs yet"));
        none->setFlags(Qt::ItemIsEnabled);
        m_runsTable->setItem(0, 0, none);
        m_runsTable->setSpan(0, 0, 1, m_runsTable->columnCount());
        return;
    }
    m_runs += rows;
    // A page of 200 rows at once: inserted one by one, each row laid the table out again
    // (72 ms on the GUI thread, bench_windowscale).
    m_runsTable->setUpdatesEnabled(false);
    int row = m_runsTable->rowCount();
    m_runsTable->setRowCount(row + int(rows.size()));
    for (const PgtExecution &run : rows) {
        const qint64 ms = run.finished.isValid() ? run.lastRun.msecsTo(run.finished) : -1;
        // Dates and durations as the rest of the window shows them ("60000 ms" before).
        const QStringList cells{DisplayFormat::dateTime(run.lastRun),
                                QString::number(run.taskId),
                                run.failed() ? tr("failed (%1)").arg(run.returnCode.value_or(0))
                                             : tr("succeeded"),
                                ms >= 0 ? DisplayFormat::duration(ms) : QString(),
                                run.clientName,
                                run.command.simplified(),
                                run.output.simplified().left(200)};
        for (int column = 0; column < cells.size(); ++column)
            m_runsTable->setItem(row, column, new QTableWidgetItem(cells.at(column)));
        ++row;
    }
    m_runsTable->setUpdatesEnabled(true);
}

} // namespace hg
