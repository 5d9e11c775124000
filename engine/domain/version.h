#pragma once

#include <QString>

namespace hg {

// The project's version, from CMake's project(VERSION). Defined in a file CMake generates, so a
// version bump recompiles one translation unit instead of every file that shows the version.
QString versionString();

} // namespace hg
