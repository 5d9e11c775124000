#include "storeopencheck.h"

#include "store/store.h"

#include <QApplication>
#include <QEventLoop>
#include <QFileInfo>
#include <QKeyEvent>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QThread>
#include <QTimer>
#include <QVBoxLayout>

namespace hg {

StoreOpenCheck::StoreOpenCheck(StoreLocation location, Work work,
                               std::chrono::milliseconds showAfter, QObject *parent)
    : QObject(parent)
    , m_location(std::move(location))
    , m_work(std::move(work))
    , m_showAfter(showAfter)
{
    if (!m_work) {
        m_work = [location = m_location] {
            const Result<std::unique_ptr<Store>> store =
                Store::open(location, QStringLiteral("opencheck"));
            return store ? Status() : Status(store.error());
        };
    }
}

StoreOpenCheck::~StoreOpenCheck() = default;

bool StoreOpenCheck::run()
{
    // A loop of its own, before the application's: nothing else runs yet to be nested in.
    QEventLoop loop;
    Status status;
    std::unique_ptr<QThread> thread(QThread::create([this, &status] { status = m_work(); }));
    bool done = false; // set here, on this thread, when the thread's end is heard
    connect(thread.get(), &QThread::finished, &loop, [&loop, &done] {
        done = true;
        loop.quit();
    });
    QTimer later;
    later.setSingleShot(true);
    connect(&later, &QTimer::timeout, this, &StoreOpenCheck::showWindow);
    later.start(m_showAfter);
    thread->start();
    // Only the thread's end leaves the loop: the store must not be opened twice at once.
    while (!done)
        loop.exec();
    thread->wait();
    later.stop();
    m_window.reset();
    m_status = status;
    return bool(m_status);
}

void StoreOpenCheck::showWindow()
{
    auto window = std::make_unique<QWidget>(nullptr, Qt::Dialog | Qt::WindowTitleHint);
    window->setWindowTitle(QStringLiteral("Hourglass"));
    auto *layout = new QVBoxLayout(window.get());
    QString text = tr("Connecting to the store:\n%1").arg(m_location.displayName());
    if (m_location.backend() == StoreBackend::Sqlite) {
        const QFileInfo file(m_location.sqlitePath());
        text = tr("Checking the store before opening it:\n%1 (%2)")
                   .arg(file.absoluteFilePath(), QLocale().formattedDataSize(file.size()));
    }
    auto *label = new QLabel(text, window.get());
    label->setTextFormat(Qt::PlainText);
    label->setWordWrap(true);
    auto *bar = new QProgressBar(window.get());
    bar->setRange(0, 0); // busy: SQLite's check says nothing of its progress
    bar->setAccessibleName(tr("Checking the store"));
    layout->addWidget(label);
    layout->addWidget(bar);
    window->setMinimumWidth(420);
    window->installEventFilter(this); // closing it cancels the start
    window->show();
    m_window = std::move(window);
    Q_EMIT windowShown();
}

bool StoreOpenCheck::eventFilter(QObject *watched, QEvent *event)
{
    if (watched == m_window.get()) {
        const bool escape = event->type() == QEvent::KeyPress
                            && static_cast<QKeyEvent *>(event)->key() == Qt::Key_Escape;
        if (escape) {
            m_window->close();
            return true;
        }
        if (event->type() == QEvent::Close) // the check goes on to its end, then nothing opens
            m_cancelled = true;
    }
    return QObject::eventFilter(watched, event);
}

} // namespace hg
