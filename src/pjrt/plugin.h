// Plugin-wide calls: initialization and the attributes the framework reads
// before it creates a client (the StableHLO versions hlograph accepts).
#pragma once

#include "pjrt/pjrt_c_api.h"

namespace hlograph::pjrt {

PJRT_Error* PluginInitialize(PJRT_Plugin_Initialize_Args* args);
PJRT_Error* PluginAttributes(PJRT_Plugin_Attributes_Args* args);

// The StableHLO version range of portable artifacts hlograph reads.
inline constexpr int64_t kStablehloMinimumVersion[3] = {0, 9, 0};
inline constexpr int64_t kStablehloCurrentVersion[3] = {1, 20, 0};

// The function table GetPjrtApi() returns.
const PJRT_Api* Api();

}  // namespace hlograph::pjrt
