#pragma once

#include <QObject>
#include <QThread>

#include <memory>

namespace hg::test {

// A TCP proxy on loopback that holds every chunk of bytes `delayMs` before passing it on, each
// way: a server `2 × delayMs` round trip away. For kernels without netem (tc's sch_netem
// module, absent from this project's CI VMs), where tc cannot add the delay. Runs on a thread
// of its own, so the latency it adds never depends on how busy the caller's thread is.
class DelayProxy final
{
public:
    DelayProxy(quint16 targetPort, int delayMs);
    ~DelayProxy();
    Q_DISABLE_COPY_MOVE(DelayProxy)

    quint16 port() const { return m_port; } // 0: it could not listen

private:
    QThread m_thread;
    QObject *m_worker; // lives in m_thread, parent of the server and its connections
    quint16 m_port = 0;
};

} // namespace hg::test
