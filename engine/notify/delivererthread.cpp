#include "delivererthread.h"

#include "store/store.h"

namespace hg {
namespace {

// Owns, in the deliverer's thread, what was opened there.
class DelivererContext final : public QObject
{
public:
    std::unique_ptr<Store> store;
    std::unique_ptr<Deliverer> deliverer;

    ~DelivererContext() override
    {
        deliverer.reset(); // before the connection it uses
        store.reset();
    }
};

} // namespace

DelivererThread::DelivererThread(QObject *parent)
    : QObject(parent)
{
    m_thread.setObjectName(QStringLiteral("hourglass notifications"));
}

DelivererThread::~DelivererThread()
{
    stop();
}

void DelivererThread::start(const StoreLocation &location, const Deliverer::Options &options)
{
    if (m_thread.isRunning())
        return;
    auto *context = new DelivererContext;
    context->moveToThread(&m_thread);
    m_context = context;
    m_thread.start();
    QMetaObject::invokeMethod(context, [this, context, location, options] {
        Result<std::unique_ptr<Store>> opened = Store::open(location, QStringLiteral("notify"));
        if (!opened) {
            Q_EMIT unavailable(opened.error().message);
            return;
        }
        context->store = std::move(opened.value());
        context->deliverer = std::make_unique<Deliverer>(*context->store, options);
        connect(context->deliverer.get(), &Deliverer::settled, this, &DelivererThread::settled);
        context->deliverer->start();
    });
}

void DelivererThread::stop()
{
    if (!m_thread.isRunning())
        return;
    QMetaObject::invokeMethod(
        m_context,
        [context = static_cast<DelivererContext *>(m_context)] {
            if (context->deliverer)
                context->deliverer->stop();
            delete context; // its store connection closes in its own thread
        },
        Qt::BlockingQueuedConnection);
    m_context = nullptr;
    m_thread.quit();
    m_thread.wait();
}

void DelivererThread::lookSoon()
{
    if (!m_context)
        return;
    QMetaObject::invokeMethod(m_context, [context = static_cast<DelivererContext *>(m_context)] {
        if (context->deliverer)
            context->deliverer->lookSoon();
    });
}

} // namespace hg
