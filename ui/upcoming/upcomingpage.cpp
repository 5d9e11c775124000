#include "upcomingpage.h"

#include "common/taborder.h"
#include "occurrencesmodel.h"
#include "storereader.h"
#include "upcomingmodel.h"
#include "upcomingtimeline.h"

#include <QDateTime>
#include <QFutureWatcher>
#include <QHeaderView>
#include <QLabel>
#include <QScrollArea>
#include <QSplitter>
#include <QTableView>
#include <QtConcurrent/QtConcurrentRun>
#include <QTimer>
#include <QVBoxLayout>

namespace hg {

UpcomingPage::UpcomingPage(StoreReader &reader, Store &store, QWidget *parent)
    : QWidget(parent)
    , m_reader(reader)
    , m_fires(new UpcomingModel(store, this))
    , m_timeline(new UpcomingTimeline(this))
    , m_table(new QTableView(this))
    , m_note(new QLabel(this))
    , m_status(new QLabel(this))
{
    m_table->setTabKeyNavigation(false); // Tab leaves the table; arrows move inside
    m_table->setAccessibleDescription(tr("Every fire of the coming week, by time"));
    m_table->setAccessibleName(tr("Upcoming fire times"));
    m_table->setModel(m_fires);
    m_table->verticalHeader()->hide();
    m_table->verticalHeader()->setDefaultSectionSize(fontMetrics().height() + 6);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setColumnWidth(UpcomingModel::WhenColumn, 190);
    m_table->setColumnWidth(UpcomingModel::ChainColumn, 220);
    // A fire time gone by leaves the table within a second while the page is shown, not at
    // the next read half a minute later: its first rows, a removal each.
    auto *pastFires = new QTimer(this);
    pastFires->setInterval(1000);
    connect(pastFires, &QTimer::timeout, this, [this] {
        if (isVisible() && !m_reading)
            m_fires->dropPast(QDateTime::currentMSecsSinceEpoch());
    });
    pastFires->start();

    // The timeline grows a row per chain: it scrolls, the table below keeps its room.
    auto *timelineScroll = new QScrollArea(this);
    timelineScroll->setObjectName(QStringLiteral("upcoming.timelineScroll"));
    timelineScroll->setWidget(m_timeline);
    timelineScroll->setWidgetResizable(true);
    timelineScroll->setFrameShape(QFrame::NoFrame);
    timelineScroll->setAccessibleName(tr("Week timeline, a row per chain"));
    timelineScroll->setAccessibleDescription(
        tr("Scrolls over every chain; the table below lists the same fires one by one"));
    auto *split = new QSplitter(Qt::Vertical, this);
    split->setObjectName(QStringLiteral("upcoming.timelineAndTable"));
    split->addWidget(timelineScroll);
    split->addWidget(m_table);
    // Half each: the timeline showed about three chains above a table of hundreds of rows
    // (issue 34); it scrolls for more, the table likewise. A timeline of few chains takes
    // only their height.
    split->setStretchFactor(0, 1);
    split->setStretchFactor(1, 1);
    split->setSizes({1000, 1000}); // proportions until the page has its size
    m_note->setObjectName(QStringLiteral("upcoming.note"));
    m_note->setWordWrap(true);
    m_status->setObjectName(QStringLiteral("upcoming.status"));
    m_status->hide();
    auto *layout = new QVBoxLayout(this);
    layout->addWidget(m_note);
    layout->addWidget(m_status);
    layout->addWidget(split, 1);
    setTabOrderOf({timelineScroll, m_table}); // top to bottom
    showNote();
}

void UpcomingPage::reload()
{
    if (m_reading) {
        m_again = true;
        return;
    }
    m_reading = true;
    m_again = false;
    m_status->setText(tr("Reading the fire times…"));
    m_status->show();
    // The timeline's past: every chain's fire times since yesterday began (at least 24 hours).
    const QDateTime now = QDateTime::currentDateTimeUtc();
    const qint64 yesterdayMs =
        QDateTime(QDate::currentDate().addDays(-1), QTime(0, 0)).toMSecsSinceEpoch();
    m_reader.read<Read>(
        this,
        [now, yesterdayMs](Store &store) -> Result<Read> {
            Result<OccurrencesModel::Span> past = OccurrencesModel::compute(
                store, std::nullopt, yesterdayMs, now.toMSecsSinceEpoch(), 500);
            if (!past)
                return past.error();
            Result<UpcomingModel::Week> week = UpcomingModel::compute(store, now);
            if (!week)
                return week.error();
            UpcomingTimeline::Rows rows =
                UpcomingTimeline::layOut(past->rows, past->paths, week->fires);
            return Read{std::move(week.value()), std::move(rows)};
        },
        [this](const Result<Read> &read) {
            m_reading = false;
            m_status->hide();
            if (!read) {
                Q_EMIT failed(read.error().message);
            } else {
                m_read = read.value();
                showRead();
            }
            if (m_again)
                reload();
        });
}

void UpcomingPage::setSchedulesPaused(bool paused)
{
    m_paused = paused;
    showNote();
}

void UpcomingPage::setShownChains(const std::optional<QSet<qint64>> &chains)
{
    if (chains == m_shownChains)
        return;
    m_shownChains = chains;
    if (m_read)
        showRead();
}

UpcomingPage::Read UpcomingPage::filtered(const Read &read, const QSet<qint64> &chains,
                                          qint64 nowMs)
{
    // Fires gone by since the read are left out, and only the schedules shown count as cut
    // short (their last fire listed carries `continues`; helper-14).
    Read shown;
    for (const UpcomingModel::Fire &fire : read.week.fires) {
        if (fire.atMs < nowMs || !chains.contains(fire.chainId))
            continue;
        shown.week.fires << fire;
        shown.week.truncated += fire.continues ? 1 : 0;
    }
    shown.rows.pastSummary = read.rows.pastSummary;
    for (const UpcomingTimeline::Row &row : read.rows.rows) {
        if (chains.contains(row.chainId))
            shown.rows.rows << row;
    }
    return shown;
}

void UpcomingPage::showRead()
{
    if (!m_shownChains) {
        ++m_filtering; // an answer still coming is for a filter no longer set
        m_filterPending = false;
        showFiltered(*m_read);
        return;
    }
    // A week of 10,000 hourly chains is 1.7 M fire times: filtered on a pool thread (copies of
    // implicitly shared lists), shown if no other filter or read came meanwhile.
    const int generation = ++m_filtering;
    m_filterPending = true;
    auto *watcher = new QFutureWatcher<Read>(this);
    connect(watcher, &QFutureWatcher<Read>::finished, this, [this, watcher, generation] {
        watcher->deleteLater();
        if (generation != m_filtering)
            return;
        m_filterPending = false;
        showFiltered(watcher->result());
    });
    watcher->setFuture(QtConcurrent::run(&UpcomingPage::filtered, *m_read, *m_shownChains,
                                         QDateTime::currentMSecsSinceEpoch()));
}

void UpcomingPage::showFiltered(const Read &shown)
{
    if (!m_reading)
        m_status->hide();
    m_fires->show(shown.week);
    m_timeline->showRows(shown.rows);
    // No taller than its rows: what it does not need goes to the table.
    if (auto *scroll = findChild<QScrollArea *>(QStringLiteral("upcoming.timelineScroll")))
        scroll->setMaximumHeight(m_timeline->sizeHint().height() + 2 * scroll->frameWidth());
    // Said, not left for the user to notice in the table (helper-9 did not).
    if (const int cut = m_fires->truncatedSchedules(); cut > 0) {
        m_status->setText(tr("The table lists at most %1 fire times of each "
                             "schedule: %n schedule(s) fire more often this week "
                             "(hatched in the timeline).",
                             nullptr, cut)
                              .arg(UpcomingModel::perSchedule));
        m_status->show();
    }
}

void UpcomingPage::showNote()
{
    const QString legend =
        tr("Left of the red line, since yesterday: what became of each fire time (a run in its "
           "state's colour; missed, skipped and excluded hatched). Right of it, the coming week: "
           "each tick is a fire time; a hatched band is a schedule too frequent to draw each "
           "fire.");
    if (m_paused)
        m_note->setText(tr("<b>Schedules are paused:</b> none of these fires until you "
                           "resume (Chain → Pause all schedules, Ctrl+Shift+P). ")
                        + legend.toHtmlEscaped());
    else
        m_note->setText(legend.toHtmlEscaped());
}

} // namespace hg
