// PJRT_Error: a code and a message, allocated by the plugin and freed by the
// caller through PJRT_Error_Destroy.
#pragma once

#include <string>

#include "hlograph/status.h"
#include "pjrt/pjrt_c_api.h"

struct PJRT_Error {
  PJRT_Error_Code code;
  std::string message;
};

namespace hlograph::pjrt {

PJRT_Error* MakeError(PJRT_Error_Code code, std::string message);
// An INVALID_ARGUMENT error carrying `status`'s message, or null when ok.
PJRT_Error* FromStatus(const Status& status, PJRT_Error_Code code = PJRT_Error_Code_INVALID_ARGUMENT);
// The error every unimplemented slot returns: UNIMPLEMENTED, naming `function`.
PJRT_Error* Unimplemented(const char* function);

// Checks the caller's struct_size covers the fields this plugin reads
// (`needed`, the size up to the last of them).
PJRT_Error* CheckStructSize(const char* function, size_t given, size_t needed);

void ErrorDestroy(PJRT_Error_Destroy_Args* args);
void ErrorMessage(PJRT_Error_Message_Args* args);
PJRT_Error* ErrorGetCode(PJRT_Error_GetCode_Args* args);
// hlograph's errors carry no payloads: there is nothing to visit. (The
// framework calls this while converting any error: it must not fail.)
PJRT_Error* ErrorForEachPayload(PJRT_Error_ForEachPayload_Args* args);

}  // namespace hlograph::pjrt
