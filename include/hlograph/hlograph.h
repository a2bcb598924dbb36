// hlograph's public C++ API, all of it: Client (compiles StableHLO
// programs for the CPU or GPU backend), Executable (runs them), Array (the
// host arrays they take and return), Status and StatusOr (errors as values).
//
// From CMake: find_package(hlograph CONFIG REQUIRED) and link hlograph::hlograph.
#pragma once

#include "hlograph/array.h"
#include "hlograph/client.h"
#include "hlograph/executable.h"
#include "hlograph/status.h"
