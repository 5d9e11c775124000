#include "copydataexecutor.h"

#include "base/outputfile.h"
#include "base/waitingworkpool.h"

#include <QFile>
#include <QtConcurrent/QtConcurrentRun>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace hg {
namespace {

bool intoDatabase(Builtin builtin)
{
    return builtin == Builtin::CopyFromFile || builtin == Builtin::CopyFromProgram;
}

// CopyFromFile: a regular file only (a FIFO could block the COPY for good).
CopyTransfer::Outcome copyFromFile(const std::shared_ptr<CopyTransfer> &transfer,
                                   const QString &path)
{
    const int fd = ::open(QFile::encodeName(path).constData(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return {false, 0,
                QStringLiteral("%1: %2").arg(path, QString::fromLocal8Bit(std::strerror(errno)))};
    struct stat info = {};
    if (::fstat(fd, &info) != 0 || !S_ISREG(info.st_mode)) {
        ::close(fd);
        return {false, 0, QStringLiteral("%1 is not a file").arg(path)};
    }
    CopyTransfer::Outcome outcome = transfer->run(fd);
    ::close(fd);
    return outcome;
}

// CopyToFile: whole or not at all, never over a device or a FIFO (OutputFile).
CopyTransfer::Outcome copyToFile(const std::shared_ptr<CopyTransfer> &transfer, const QString &path,
                                 bool overwrite)
{
    if (!overwrite && QFile::exists(path))
        return {false, 0,
                QStringLiteral("%1 exists (set \"overwrite\": true to replace it)").arg(path)};
    OutputFile file(path, OutputFile::Special::Refuse);
    if (const Status opened = file.open(); !opened)
        return {false, 0, opened.error().message};
    CopyTransfer::Outcome outcome =
        transfer->run(-1, [&file](const QByteArray &chunk) { return file.write(chunk); });
    if (!outcome.ok)
        return outcome; // the file is discarded: the old one, if any, stays
    if (const Status committed = file.commit(); !committed)
        return {false, 0, QStringLiteral("%1: %2").arg(path, committed.error().message)};
    return outcome;
}

// The pipe's end is closed here only when the COPY went well (the program's end of file);
// after a failure the program is stopped first (finishIfDone()), so that a program fed half
// the rows never takes their end for the whole (helper-7: cat wrote 499,999 rows, exit 0).
CopyTransfer::Outcome copyWithPipe(const std::shared_ptr<CopyTransfer> &transfer, int fd,
                                   const std::shared_ptr<std::atomic<int>> &keptOpen)
{
    CopyTransfer::Outcome outcome = transfer->run(fd);
    if (outcome.ok)
        ::close(fd);
    else
        keptOpen->store(fd);
    return outcome;
}

} // namespace

CopyDataExecutor::CopyDataExecutor(Builtin builtin, CopyDataArguments copy, SqlTarget target,
                                   std::optional<ProcessSpec> program, qint64 timeoutMs,
                                   QObject *parent)
    : TaskExecutor(parent)
    , m_builtin(builtin)
    , m_copy(std::move(copy))
    , m_transfer(std::make_shared<CopyTransfer>(std::move(target), m_copy.sql,
                                                intoDatabase(builtin)
                                                    ? CopyTransfer::Direction::IntoDatabase
                                                    : CopyTransfer::Direction::OutOfDatabase))
    , m_programSpec(std::move(program))
    , m_timeoutMs(timeoutMs)
{
    connect(&m_timeout, &LongTimer::timeout, this, [this] { stop(RunState::TimedOut); });
    connect(&m_watcher, &QFutureWatcher<CopyTransfer::Outcome>::finished, this,
            &CopyDataExecutor::finishIfDone);
}

CopyDataExecutor::~CopyDataExecutor()
{
    m_transfer->cancel();
    m_watcher.disconnect(this);
    m_program.reset();           // kills what is left of the program, and so ends the pipe
    m_watcher.waitForFinished(); // the COPY must not outlive the engine that started it
    for (int &fd : m_pipe)
        if (fd >= 0)
            ::close(std::exchange(fd, -1));
}

void CopyDataExecutor::start()
{
    if (m_timeoutMs > 0)
        m_timeout.start(m_timeoutMs);
    if (!m_transfer->isPostgres()) { // before any program starts for nothing
        fail(m_transfer->notPostgres());
        return;
    }
    if (m_builtin == Builtin::CopyFromFile) {
        m_watcher.setFuture(
            QtConcurrent::run(waitingWorkPool(), copyFromFile, m_transfer, m_copy.file));
        return;
    }
    if (m_builtin == Builtin::CopyToFile) {
        m_watcher.setFuture(QtConcurrent::run(waitingWorkPool(), copyToFile, m_transfer,
                                              m_copy.file, m_copy.overwrite));
        return;
    }
    // The program's end of the pipe is given to it by path (QProcess opens it and hands it to
    // the child); the COPY keeps the other.
    if (::pipe2(m_pipe, O_CLOEXEC) != 0) {
        fail(QStringLiteral("cannot make a pipe: %1")
                 .arg(QString::fromLocal8Bit(std::strerror(errno))));
        return;
    }
    const bool into = intoDatabase(m_builtin);
    const int programEnd = into ? m_pipe[1] : m_pipe[0];
    const int copyEnd = into ? m_pipe[0] : m_pipe[1];
    const QString path = QStringLiteral("/proc/self/fd/%1").arg(programEnd);
    if (into)
        m_programSpec->standardOutputFile = path;
    else
        m_programSpec->standardInputFile = path;
    m_program = std::make_unique<ProcessExecutor>(*m_programSpec);
    connect(m_program.get(), &TaskExecutor::processStarted, this, &TaskExecutor::processStarted);
    connect(m_program.get(), &TaskExecutor::outputLine, this, &TaskExecutor::outputLine);
    connect(m_program.get(), &TaskExecutor::finished, this, [this](const TaskOutcome &outcome) {
        m_programOutcome = outcome;
        m_transfer->setProgramState(outcome.state == RunState::Succeeded
                                        ? CopyTransfer::ProgramState::Succeeded
                                        : CopyTransfer::ProgramState::Failed);
        finishIfDone();
    });
    m_transfer->setProgramState(CopyTransfer::ProgramState::Running);
    m_program->start();
    // The child has its copy now: closed here, its end of file is the program's own end.
    ::close(std::exchange(into ? m_pipe[1] : m_pipe[0], -1));
    (into ? m_pipe[0] : m_pipe[1]) = -1; // the COPY closes its end when it is done
    m_watcher.setFuture(
        QtConcurrent::run(waitingWorkPool(), copyWithPipe, m_transfer, copyEnd, m_keptOpen));
}

void CopyDataExecutor::stop(RunState reason)
{
    if (outcomeDelivered())
        return;
    m_timeout.stop();
    m_transfer->cancel();
    if (m_program && !m_programOutcome)
        m_program->stop(reason);
    m_watcher.disconnect(this);
    deliverOutcome(TaskOutcome{reason, std::nullopt,
                               reason == RunState::TimedOut ? QStringLiteral("timed out")
                                                            : QStringLiteral("stopped")});
}

void CopyDataExecutor::fail(const QString &error)
{
    m_timeout.stop();
    deliverOutcome(TaskOutcome{RunState::Failed, std::nullopt, error});
}

void CopyDataExecutor::finishIfDone()
{
    if (outcomeDelivered() || !m_watcher.isFinished() || !m_watcher.future().isValid())
        return;
    const CopyTransfer::Outcome copied = m_watcher.result();
    if (m_program && !m_programOutcome) {
        if (!copied.ok)
            m_program->stop(RunState::Cancelled); // no more data for it, or none taken
        return;                                   // its end follows
    }
    m_timeout.stop();
    const QString where =
        m_program ? QStringLiteral("program %1").arg(m_copy.program) : m_copy.file;
    if (m_programOutcome && m_programOutcome->state != RunState::Succeeded && copied.ok) {
        fail(QStringLiteral("%1: %2").arg(where, m_programOutcome->error));
        return;
    }
    if (!copied.ok) {
        const QString program =
            m_programOutcome && m_programOutcome->state != RunState::Succeeded
                ? QStringLiteral(" (%1: %2)").arg(where, m_programOutcome->error)
                : QString();
        fail(copied.error + program);
        return;
    }
    Q_EMIT outputLine(
        LogStream::System,
        QStringLiteral("%1 rows copied %2 %3")
            .arg(copied.rows)
            .arg(intoDatabase(m_builtin) ? QStringLiteral("from") : QStringLiteral("to"), where));
    deliverOutcome(TaskOutcome{RunState::Succeeded, 0, {}});
}

} // namespace hg
