#pragma once

#include "base/result.h"
#include "domain/desktoptriggerspec.h"

#include <QCoreApplication>

#include <optional>

namespace hg {

class Store;

// The runs desktop triggers start. A run is keyed by the event and the time the desktop
// says it happened (UNIQUE (trigger_id, trigger_key)): an event that two of the desktop's
// sources report (logind and the screen saver both saying "unlocked") starts one run.
class DesktopTriggerRepository final
{
    Q_DECLARE_TR_FUNCTIONS(hg::DesktopTriggerRepository)

public:
    explicit DesktopTriggerRepository(Store &store)
        : m_store(store)
    {}

    // The id of the run started; nullopt when that key had started one already.
    Result<std::optional<qint64>> start(qint64 triggerId, qint64 chainId,
                                        const DesktopTriggerSpec &spec, qint64 eventAtMs,
                                        qint64 nowMs);

private:
    Store &m_store;
};

} // namespace hg
