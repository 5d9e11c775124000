#include "chainvalidator.h"

#include "chainpath.h"

namespace hg {

Status ChainValidator::validate(const Chain &c)
{
    if (Status name = validateName(QStringLiteral("chain"), c.name); !name)
        return name;
    if (c.maxInstances < 0)
        return Error::invalid(tr("max instances must be 0 (no limit) or more"));
    if (c.timeoutSeconds < 0)
        return Error::invalid(tr("chain timeout must be 0 (none) or more seconds"));
    const Retention &r = c.retention;
    if (r.keepRuns < 0 || r.keepDays < 0 || r.keepFailedRuns < 0 || r.keepFailedDays < 0)
        return Error::invalid(tr("retention limits must be 0 (keep all) or more"));
    return {};
}

} // namespace hg
