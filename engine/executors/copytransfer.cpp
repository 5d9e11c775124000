#include "copytransfer.h"

#include <QSqlDatabase>
#include <QSqlDriver>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <libpq-fe.h>
#include <poll.h>
#include <pthread.h>
#include <unistd.h>

namespace hg {
namespace {

std::atomic<int> copyConnectionCounter{0};

// One statement only: the extended protocol (PQexecParams) refuses a second, which PQexec
// would have run ("COPY t FROM STDIN; DROP TABLE t" passed the check, helper-7).
PGresult *execOne(PGconn *connection, const QString &sql)
{
    return PQexecParams(connection, sql.toUtf8().constData(), 0, nullptr, nullptr, nullptr, nullptr,
                        0);
}

QString serverError(PGconn *connection)
{
    return QString::fromUtf8(PQerrorMessage(connection)).trimmed();
}

// A pipe whose reader went away (the program ended without reading all) makes write() raise
// SIGPIPE, which would end the engine: blocked in this thread, write() fails with EPIPE
// instead, and the pending signal is taken before the mask is restored.
class SigpipeBlock final
{
public:
    SigpipeBlock()
    {
        sigset_t pipe;
        sigemptyset(&pipe);
        sigaddset(&pipe, SIGPIPE);
        pthread_sigmask(SIG_BLOCK, &pipe, &m_before);
    }
    ~SigpipeBlock()
    {
        sigset_t pipe;
        sigemptyset(&pipe);
        sigaddset(&pipe, SIGPIPE);
        const timespec now{0, 0};
        while (sigtimedwait(&pipe, nullptr, &now) == SIGPIPE) {
        }
        pthread_sigmask(SIG_SETMASK, &m_before, nullptr);
    }
    SigpipeBlock(const SigpipeBlock &) = delete;
    SigpipeBlock &operator=(const SigpipeBlock &) = delete;

private:
    sigset_t m_before;
};

} // namespace

CopyTransfer::CopyTransfer(SqlTarget target, QString sql, Direction direction)
    : m_target(std::move(target))
    , m_sql(std::move(sql))
    , m_direction(direction)
{}

CopyTransfer::~CopyTransfer() = default;

void CopyTransfer::cancel()
{
    m_cancelled.store(true);
    const std::lock_guard lock(m_mutex);
    if (m_canceller) {
        char error[256];
        PQcancel(static_cast<PGcancel *>(m_canceller), error, sizeof error);
    }
}

CopyTransfer::Outcome CopyTransfer::run(int fd,
                                        const std::function<bool(const QByteArray &)> &written)
{
    if (!isPostgres())
        return {false, 0, notPostgres()};
    const SigpipeBlock sigpipe;
    const QString name = QStringLiteral("hourglass-copy-%1").arg(++copyConnectionCounter);
    Outcome outcome;
    {
        Result<QSqlDatabase> opened = m_target.open(name);
        if (!opened) {
            outcome.error = opened.error().message;
        } else {
            QSqlDatabase db = opened.value();
            const QVariant handle = db.driver()->handle();
            // Qt names the type as libpq declares it: "pg_conn*" (struct pg_conn).
            const bool libpq = qstrcmp(handle.typeName(), "pg_conn*") == 0
                               || qstrcmp(handle.typeName(), "PGconn*") == 0;
            PGconn *connection =
                libpq ? *static_cast<PGconn *const *>(handle.constData()) : nullptr;
            if (!connection) {
                outcome.error = QStringLiteral("the PostgreSQL driver gave no connection");
            } else {
                {
                    const std::lock_guard lock(m_mutex);
                    m_canceller = PQgetCancel(connection);
                }
                if (m_cancelled.load())
                    outcome.error = QStringLiteral("stopped");
                else
                    outcome = m_direction == Direction::IntoDatabase
                                  ? into(connection, fd)
                                  : outOf(connection, fd, written);
                const std::lock_guard lock(m_mutex);
                PQfreeCancel(static_cast<PGcancel *>(m_canceller));
                m_canceller = nullptr;
            }
            db.close();
        }
    }
    QSqlDatabase::removeDatabase(name);
    return outcome;
}

CopyTransfer::Outcome CopyTransfer::into(void *handle, int fd)
{
    auto *connection = static_cast<PGconn *>(handle);
    PGresult *started = execOne(connection, m_sql);
    const ExecStatusType status = PQresultStatus(started);
    PQclear(started);
    if (status != PGRES_COPY_IN)
        return {false, 0,
                status == PGRES_FATAL_ERROR
                    ? serverError(connection)
                    : QStringLiteral("the statement is not a COPY … FROM STDIN")};
    QString abort; // why the COPY is ended with an error rather than stored
    char buffer[65536];
    for (;;) {
        if (m_cancelled.load()) {
            abort = QStringLiteral("stopped");
            break;
        }
        pollfd ready{fd, POLLIN, 0};
        const int polled = ::poll(&ready, 1, 100); // a stop is seen within 100 ms
        if (polled < 0 && errno != EINTR) {
            abort = QString::fromLocal8Bit(std::strerror(errno));
            break;
        }
        if (polled <= 0)
            continue;
        const ssize_t got = ::read(fd, buffer, sizeof buffer);
        if (got < 0 && (errno == EINTR || errno == EAGAIN))
            continue;
        if (got < 0) {
            abort = QString::fromLocal8Bit(std::strerror(errno));
            break;
        }
        if (got == 0)
            break; // the end of the file, or every writer of the pipe closed it
        if (PQputCopyData(connection, buffer, int(got)) != 1) {
            abort = serverError(connection);
            break;
        }
    }
    // A program's output is stored only once the program ended well.
    while (abort.isEmpty() && m_program.load() == ProgramState::Running) {
        if (m_cancelled.load())
            abort = QStringLiteral("stopped");
        else
            ::usleep(10000);
    }
    if (abort.isEmpty() && m_program.load() == ProgramState::Failed)
        abort = QStringLiteral("the program failed");
    PQputCopyEnd(connection, abort.isEmpty() ? nullptr : abort.toUtf8().constData());
    Outcome outcome;
    while (PGresult *result = PQgetResult(connection)) {
        if (PQresultStatus(result) == PGRES_COMMAND_OK) {
            outcome.ok = abort.isEmpty();
            outcome.rows = QByteArray(PQcmdTuples(result)).toLongLong();
        } else {
            outcome.error = QString::fromUtf8(PQresultErrorMessage(result)).trimmed();
        }
        PQclear(result);
    }
    if (!abort.isEmpty())
        outcome = Outcome{false, 0, abort};
    return outcome;
}

CopyTransfer::Outcome CopyTransfer::outOf(void *handle, int fd,
                                          const std::function<bool(const QByteArray &)> &written)
{
    auto *connection = static_cast<PGconn *>(handle);
    PGresult *started = execOne(connection, m_sql);
    const ExecStatusType status = PQresultStatus(started);
    PQclear(started);
    if (status != PGRES_COPY_OUT)
        return {false, 0,
                status == PGRES_FATAL_ERROR
                    ? serverError(connection)
                    : QStringLiteral("the statement is not a COPY … TO STDOUT")};
    QString failed;
    for (;;) {
        char *data = nullptr;
        const int size = PQgetCopyData(connection, &data, 0); // a stop cancels it on the server
        if (size < 0)
            break; // -1: done (the result says how); -2: an error
        const QByteArray chunk(data, size);
        PQfreemem(data);
        if (!failed.isEmpty())
            continue; // drained, so that the connection ends cleanly
        if (written) {
            if (!written(chunk))
                failed = QStringLiteral("cannot write the data");
            continue;
        }
        for (qsizetype at = 0; at < chunk.size() && failed.isEmpty();) {
            const ssize_t put = ::write(fd, chunk.constData() + at, size_t(chunk.size() - at));
            if (put < 0 && errno == EINTR)
                continue;
            if (put < 0) {
                failed = errno == EPIPE ? QStringLiteral("the program stopped reading its input")
                                        : QString::fromLocal8Bit(std::strerror(errno));
                char error[256];
                const std::lock_guard lock(m_mutex);
                PQcancel(static_cast<PGcancel *>(m_canceller), error, sizeof error);
                break;
            }
            at += put;
        }
    }
    Outcome outcome;
    while (PGresult *result = PQgetResult(connection)) {
        if (PQresultStatus(result) == PGRES_COMMAND_OK) {
            outcome.ok = true;
            outcome.rows = QByteArray(PQcmdTuples(result)).toLongLong();
        } else if (outcome.error.isEmpty()) {
            outcome.error = QString::fromUtf8(PQresultErrorMessage(result)).trimmed();
        }
        PQclear(result);
    }
    if (m_cancelled.load())
        return {false, 0, QStringLiteral("stopped")};
    if (!failed.isEmpty())
        return {false, 0, failed};
    return outcome;
}

} // namespace hg
