#include "keychain.h"

#include <QEventLoop>
#include <qt6keychain/keychain.h>
#include <QTimer>

#include <memory>

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
    const JobPointer<QKeychain::ReadPasswordJob> job(new QKeychain::ReadPasswordJob(m_service));
    if (Status done = execute(*job, key, tr("cannot read '%1' from the keychain").arg(key)); !done)
        return done.error();
    return job->textData();
}

Status Keychain::write(const QString &key, const QString &secret) const
{
    const JobPointer<QKeychain::WritePasswordJob> job(new QKeychain::WritePasswordJob(m_service));
    job->setTextData(secret);
    return execute(*job, key, tr("cannot keep '%1' in the keychain").arg(key));
}

Status Keychain::remove(const QString &key) const
{
    const JobPointer<QKeychain::DeletePasswordJob> job(new QKeychain::DeletePasswordJob(m_service));
    Status done = execute(*job, key, tr("cannot remove '%1' from the keychain").arg(key));
    if (!done && done.error().kind == ErrorKind::NotFound)
        return {};
    return done;
}

} // namespace hg
