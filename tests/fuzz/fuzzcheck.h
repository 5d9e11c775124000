#pragma once

// A property a fuzz target checks did not hold: say which one before stopping (CI shows only
// the tail of the log, and the input alone does not tell which check failed).
#include <cstdio>

#define HG_FUZZ_FAIL()                                                                             \
    (std::fprintf(stderr, "fuzz check failed at %s:%d\n", __FILE__, __LINE__), __builtin_trap())
