#include "canceltoken.h"

namespace hg {

void CancelToken::cancel()
{
    const std::lock_guard lock(m_mutex);
    m_cancelled.store(true);
    if (m_hook)
        m_hook();
}

void CancelToken::setHook(std::function<void()> hook)
{
    const std::lock_guard lock(m_mutex);
    m_hook = std::move(hook);
    if (m_hook && m_cancelled.load())
        m_hook();
}

} // namespace hg
