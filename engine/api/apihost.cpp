#include "apihost.h"

#include "scheduler/engine.h"

namespace hg {

ApiHost::ApiHost(StoreLocation location, ApiServer::Options options, QObject *parent)
    : QObject(parent)
    , m_thread(std::make_unique<QThread>())
    , m_server(new ApiServer(std::move(location), options))
    , m_options(options)
{
    qRegisterMetaType<QList<hg::ApiServedRequest>>();
    m_thread->setObjectName(QStringLiteral("api"));
    m_server->moveToThread(m_thread.get());
    connect(m_server, &ApiServer::started, this, [this](quint16 port, bool tls) {
        m_port = port;
        m_url = ApiServer::urlOf(m_options.address, port, tls);
        Q_EMIT started(port, tls);
    });
    connect(m_server, &ApiServer::startFailed, this, &ApiHost::startFailed);
    connect(m_server, &ApiServer::logged, this, &ApiHost::logged);
    connect(m_server, &ApiServer::served, this, &ApiHost::served);
    m_thread->start();
}

ApiHost::~ApiHost()
{
    // The server (its connections, its store) ends on its own thread, then the thread.
    ApiServer *server = m_server;
    QMetaObject::invokeMethod(
        server, [server] { delete server; }, Qt::BlockingQueuedConnection);
    m_thread->quit();
    m_thread->wait();
}

void ApiHost::start()
{
    QMetaObject::invokeMethod(m_server, &ApiServer::start, Qt::QueuedConnection);
}

void ApiHost::watch(Engine &engine)
{
    connect(&engine, &Engine::runChanged, m_server, &ApiServer::observeRun);
    connect(&engine, &Engine::taskRunChanged, m_server, &ApiServer::observeTaskRun);
}

} // namespace hg
