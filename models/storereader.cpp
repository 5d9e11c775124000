#include "storereader.h"

#include "store/store.h"

namespace hg {

StoreReader::StoreReader(const StoreLocation &location, bool checked, QObject *parent)
    : QObject(parent)
    , m_location(location)
    , m_checked(checked)
    , m_worker(new QObject)
{
    m_thread.setObjectName(QStringLiteral("hourglass-store-reader"));
    m_worker->moveToThread(&m_thread);
    // The connection is closed in the thread that opened it, just before the thread ends.
    connect(
        &m_thread, &QThread::finished, m_worker,
        [this] {
            m_store.reset();
            delete m_worker;
        },
        Qt::DirectConnection);
    m_thread.start();
}

StoreReader::~StoreReader()
{
    m_thread.quit();
    m_thread.wait();
}

Store *StoreReader::openStore(Error &failed)
{
    if (m_store)
        return m_store.get();
    // As it is: a reader never migrates nor changes the file.
    Store::Options options;
    options.mode = Store::OpenMode::AsIs;
    options.readOnlyWhenDamaged = true;
    options.alreadyChecked = m_checked;
    Result<std::unique_ptr<Store>> opened =
        Store::open(m_location, QStringLiteral("reader"), options);
    if (!opened) {
        failed = opened.error();
        return nullptr;
    }
    m_store = std::move(opened.value());
    return m_store.get();
}

void StoreReader::post(std::function<void(Store *, const Error &)> job)
{
    m_pending.ref();
    QMetaObject::invokeMethod(
        m_worker,
        [this, job = std::move(job)] {
            Error failed;
            Store *store = openStore(failed);
            job(store, failed);
            m_pending.deref();
        },
        Qt::QueuedConnection);
}

} // namespace hg
