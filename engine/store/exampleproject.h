#pragma once

#include "base/result.h"

namespace hg {

class Store;

// The example project shipped as a resource: safe commands, one DAG, a few schedules. Shown on
// first start so nobody meets an empty window, and run by scripts/run where there is no display.
class ExampleProject final
{
public:
    static constexpr const char *projectName = "Examples";

    static QByteArray document();
    // Imports it unless a project of that name is already there.
    static Status install(Store &store);
};

} // namespace hg
