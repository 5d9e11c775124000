#pragma once

#include <QString>

namespace hg {

// How one attempt to hand a message to its receiver ended.
struct SendOutcome
{
    bool delivered = false;
    // Sending it again cannot help (a 4xx the receiver will give again, a refused login):
    // the delivery fails now instead of retrying for a day.
    bool permanent = false;
    // The receiver may have had it all the same (a timeout after the request went out): it is
    // sent again with the same delivery id, for the receiver to drop the repeat.
    bool ambiguous = false;
    // The server's own answer ("250 2.0.0 Ok: queued", "HTTP 503: …"), or what failed.
    QString answer;
    // How long the receiver asked to be left alone (HTTP Retry-After on 429 or 503); 0: it
    // did not say.
    qint64 retryAfterMs = 0;
};

} // namespace hg
