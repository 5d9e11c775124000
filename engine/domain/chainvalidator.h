#pragma once

#include "base/result.h"
#include "chain.h"

namespace hg {

// The rules a chain must meet before it is stored, whoever writes it.
class ChainValidator final
{
public:
    static Status validate(const Chain &chain);
};

} // namespace hg
