#pragma once

#include <atomic>
#include <functional>
#include <mutex>

namespace hg {

// Asks work on another thread to stop. A flag it polls, and a hook that stops a call blocked
// where no poll reaches it (libcurl waits for an SMTP server's last answer for two minutes
// without calling back: the hook cuts its socket). The hook runs under the token's lock, so
// it is never called once setHook({}) returned.
class CancelToken final
{
public:
    CancelToken() = default;
    CancelToken(const CancelToken &) = delete;
    CancelToken &operator=(const CancelToken &) = delete;

    bool isCancelled() const { return m_cancelled.load(); }
    void cancel();
    // Run at once when the token is cancelled already; {} removes it.
    void setHook(std::function<void()> hook);

private:
    std::atomic<bool> m_cancelled{false};
    std::mutex m_mutex;
    std::function<void()> m_hook;
};

} // namespace hg
