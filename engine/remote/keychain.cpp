#include "keychain.h"

#include <QEventLoop>
#include <qt6keychain/keychain.h>
#include <QThread>
#include <QTimer>

#include <functional>
#include <memory>
#include <optional>

namespace hg {
namespace {

// Runs a job to its end (or the timeout) in a local event loop. The job deletes itself later,
// so a late answer after a timeout reaches no dead object.
bool runJob(QKeychain::Job *job, int timeoutMs)
{
    QEventLoop loop;
    bool finished = false;
    QObject::connect(job, &QKeychain::Job::finished, &loop, [&loop, &finished] {
        finished = true;
        loop.quit();
    });
    QTimer::singleShot(timeoutMs, &loop, &QEventLoop::quit);
    job->start();
    if (!finished)
        loop.exec(QEventLoop::ExcludeUserInputEvents);
    return finished;
}

Error errorOf(const QKeychain::Job &job, const QString &what)
{
    const QString text = QStringLiteral("%1: %2").arg(what, job.errorString());
    switch (job.error()) {
    case QKeychain::EntryNotFound:
        return Error::notFound(text);
    case QKeychain::NoBackendAvailable:
    case QKeychain::NotImplemented:
    case QKeychain::AccessDeniedByUser:
    case QKeychain::AccessDenied:
        return Error::unavailable(text);
    case QKeychain::NoError:
    case QKeychain::CouldNotDeleteEntry:
    case QKeychain::OtherError:
        break;
    }
    // libsecret reports a missing session bus or Secret Service as OtherError.
    return Error::unavailable(text);
}

// A job that timed out may still call back: it is deleted by its thread's event loop later,
// never under a running callback.
struct LaterDeleter
{
    void operator()(QObject *object) const { object->deleteLater(); }
};
template<typename JobType>
using JobPointer = std::unique_ptr<JobType, LaterDeleter>;

// QtKeychain queues its jobs through one process-wide executor object that lives in the thread
// of the first job, and libsecret binds to that thread's GLib context: jobs from two threads
// crash it. So every job runs in one thread of its own, whoever asks.
QObject *keychainAnchor()
{
    static QObject *anchor = [] {
        auto *thread = new QThread;
        thread->setObjectName(QStringLiteral("hourglass-keychain"));
        thread->start();
        auto *object = new QObject;
        object->moveToThread(thread);
        qAddPostRoutine([] {
            QThread *running = keychainAnchor()->thread();
            running->quit();
            running->wait();
        });
        return object;
    }();
    return anchor;
}

template<typename T>
T onKeychainThread(const std::function<T()> &work)
{
    QObject *anchor = keychainAnchor();
    if (QThread::currentThread() == anchor->thread())
        return work();
    std::optional<T> result;
    QMetaObject::invokeMethod(
        anchor, [&result, &work] { result.emplace(work()); }, Qt::BlockingQueuedConnection);
    return std::move(*result);
}

} // namespace

Keychain::Keychain(QString service, int timeoutMs)
    : m_service(std::move(service))
    , m_timeoutMs(timeoutMs)
{}

Status Keychain::execute(QKeychain::Job &job, const QString &key, const QString &what) const
{
    job.setAutoDelete(false);
    job.setKey(key);
    if (!runJob(&job, m_timeoutMs))
        return Error::unavailable(
            tr("the keychain did not answer within %1 s").arg(m_timeoutMs / 1000));
    if (job.error() != QKeychain::NoError)
        return errorOf(job, what);
    return {};
}

Result<QString> Keychain::read(const QString &key) const
{
    return onKeychainThread<Result<QString>>([this, &key] { return readHere(key); });
}

Status Keychain::write(const QString &key, const QString &secret) const
{
    return onKeychainThread<Status>([this, &key, &secret] { return writeHere(key, secret); });
}

Status Keychain::remove(const QString &key) const
{
    return onKeychainThread<Status>([this, &key] { return removeHere(key); });
}

Result<QString> Keychain::readHere(const QString &key) const
{
    const JobPointer<QKeychain::ReadPasswordJob> job(new QKeychain::ReadPasswordJob(m_service));
    if (Status done = execute(*job, key, tr("cannot read '%1' from the keychain").arg(key)); !done)
        return done.error();
    return job->textData();
}

Status Keychain::writeHere(const QString &key, const QString &secret) const
{
    const JobPointer<QKeychain::WritePasswordJob> job(new QKeychain::WritePasswordJob(m_service));
    job->setTextData(secret);
    return execute(*job, key, tr("cannot keep '%1' in the keychain").arg(key));
}

Status Keychain::removeHere(const QString &key) const
{
    const JobPointer<QKeychain::DeletePasswordJob> job(new QKeychain::DeletePasswordJob(m_service));
    Status done = execute(*job, key, tr("cannot remove '%1' from the keychain").arg(key));
    if (!done && done.error().kind == ErrorKind::NotFound)
        return {};
    return done;
}

} // namespace hg
