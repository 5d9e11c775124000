#pragma once

#include "base/result.h"
#include "chain.h"

#include <QCoreApplication>

namespace hg {

// The rules a chain must meet before it is stored, whoever writes it.
class ChainValidator final
{
    Q_DECLARE_TR_FUNCTIONS(hg::ChainValidator)

public:
    static Status validate(const Chain &chain);
};

} // namespace hg
