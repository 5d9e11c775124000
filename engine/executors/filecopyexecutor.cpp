#include "filecopyexecutor.h"

#include "base/outputfile.h"

#include <QFileInfo>
#include <QtConcurrent/QtConcurrentRun>

#include <filesystem>
#include <system_error>

namespace hg {
namespace {

QString copyFile(const QString &source, const QString &destination, bool overwrite,
                 const std::shared_ptr<std::atomic<bool>> &cancelled)
{
    namespace fs = std::filesystem;
    const fs::path from(source.toStdString());
    // Through a symbolic link to its file: the rename below would replace the link itself.
    const fs::path to(QFile::encodeName(OutputFile::renameTarget(destination)).toStdString());
    std::error_code error;
    if (!fs::is_regular_file(from, error))
        return QStringLiteral("%1 is not a file").arg(source);
    if (!overwrite && fs::exists(to, error))
        return QStringLiteral("%1 exists (set \"overwrite\": true to replace it)").arg(destination);
    // The rename below would put a regular file where a device or a FIFO was.
    if (const Status target = OutputFile::checkRenameTarget(QString::fromStdString(to.string()));
        !target)
        return target.error().message;
    fs::path temporary = to;
    temporary += ".hourglass-partial";
    fs::copy_file(from, temporary, fs::copy_options::overwrite_existing, error);
    if (error) {
        fs::remove(temporary, error);
        return QStringLiteral("cannot copy %1 to %2: %3")
            .arg(source, destination, QString::fromStdString(error.message()));
    }
    if (cancelled->load()) {
        fs::remove(temporary, error);
        return QStringLiteral("stopped");
    }
    fs::rename(temporary, to, error); // atomic replacement on one file system
    if (error) {
        std::error_code ignored;
        fs::remove(temporary, ignored);
        return QStringLiteral("cannot move the copy into place at %1: %2")
            .arg(destination, QString::fromStdString(error.message()));
    }
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
    m_watcher.setFuture(
        QtConcurrent::run(copyFile, m_source, m_destination, m_overwrite, m_cancelled));
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
