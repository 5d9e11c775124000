#include "filecopyexecutor.h"

#include "base/outputfile.h"
#include "base/waitingworkpool.h"

#include <QFile>
#include <QFileInfo>
#include <QtConcurrent/QtConcurrentRun>

#include <sys/stat.h>

namespace hg {
namespace {

QString copyFile(const QString &source, const QString &destination, bool overwrite,
                 const std::shared_ptr<std::atomic<bool>> &cancelled)
{
    QFile from(source);
    struct stat in = {};
    if (::stat(QFile::encodeName(source).constData(), &in) != 0 || !S_ISREG(in.st_mode)
        || !from.open(QIODevice::ReadOnly))
        return QStringLiteral("%1 is not a file").arg(source);
    struct stat out = {};
    const bool exists = ::stat(QFile::encodeName(destination).constData(), &out) == 0;
    if (!overwrite && exists)
        return QStringLiteral("%1 exists (set \"overwrite\": true to replace it)").arg(destination);
    // Written in place (another hard link of it), the source would be cut to nothing first.
    if (exists && in.st_dev == out.st_dev && in.st_ino == out.st_ino)
        return QStringLiteral("%1 and %2 are the same file").arg(source, destination);
    // Whole or not at all, never over a device or a FIFO, its owner and links kept.
    OutputFile file(destination, OutputFile::Special::Refuse);
    if (const Status opened = file.open(); !opened)
        return QStringLiteral("cannot copy %1 to %2: %3")
            .arg(source, destination, opened.error().message);
    while (!from.atEnd()) {
        if (cancelled->load())
            return QStringLiteral("stopped");
        const QByteArray chunk = from.read(qint64(1) << 20);
        if (chunk.isEmpty() || !file.write(chunk))
            return QStringLiteral("cannot copy %1 to %2: %3")
                .arg(source, destination,
                     chunk.isEmpty() ? from.errorString() : file.errorString());
    }
    if (const Status committed = file.commit(); !committed)
        return QStringLiteral("cannot copy %1 to %2: %3")
            .arg(source, destination, committed.error().message);
    return {};
}

} // namespace

FileCopyExecutor::FileCopyExecutor(QString source, QString destination, bool overwrite,
                                   qint64 timeoutMs, QObject *parent)
    : TaskExecutor(parent)
    , m_source(std::move(source))
    , m_destination(std::move(destination))
    , m_overwrite(overwrite)
    , m_timeoutMs(timeoutMs)
{
    connect(&m_timeout, &LongTimer::timeout, this, [this] { stop(RunState::TimedOut); });
    connect(&m_watcher, &QFutureWatcher<QString>::finished, this, [this] {
        m_timeout.stop();
        const QString error = m_watcher.result();
        if (!error.isEmpty()) {
            deliverOutcome(TaskOutcome{RunState::Failed, std::nullopt, error});
            return;
        }
        Q_EMIT outputLine(LogStream::System, QStringLiteral("copied %1 to %2 (%3 bytes)")
                                                 .arg(m_source, m_destination)
                                                 .arg(QFileInfo(m_destination).size()));
        deliverOutcome(TaskOutcome{RunState::Succeeded, 0, {}});
    });
}

FileCopyExecutor::~FileCopyExecutor()
{
    m_cancelled->store(true);
    m_watcher.disconnect(this);
    m_watcher.waitForFinished(); // the copy must not outlive the engine that started it
}

void FileCopyExecutor::start()
{
    if (m_timeoutMs > 0)
        m_timeout.start(m_timeoutMs);
    m_watcher.setFuture(QtConcurrent::run(waitingWorkPool(), copyFile, m_source, m_destination,
                                          m_overwrite, m_cancelled));
}

void FileCopyExecutor::stop(RunState reason)
{
    m_cancelled->store(true);
    m_watcher.disconnect(this);
    m_timeout.stop();
    deliverOutcome(TaskOutcome{reason, std::nullopt,
                               reason == RunState::TimedOut ? QStringLiteral("timed out")
                                                            : QStringLiteral("stopped")});
}

} // namespace hg
