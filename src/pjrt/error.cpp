#include "pjrt/error.h"

#include <utility>

namespace hlograph::pjrt {

PJRT_Error* MakeError(PJRT_Error_Code code, std::string message) {
  return new PJRT_Error{code, std::move(message)};
}

PJRT_Error* FromStatus(const Status& status, PJRT_Error_Code code) {
  if (status.ok()) return nullptr;
  return MakeError(code, status.message());
}

PJRT_Error* Unimplemented(const char* function) {
  return MakeError(PJRT_Error_Code_UNIMPLEMENTED, std::string(function) + " is not implemented by hlograph");
}

PJRT_Error* CheckStructSize(const char* function, size_t given, size_t needed) {
  if (given >= needed) return nullptr;
  return MakeError(PJRT_Error_Code_INVALID_ARGUMENT, std::string(function) + ": the caller's argument struct has " +
                                                         std::to_string(given) + " bytes, hlograph reads " +
                                                         std::to_string(needed));
}

void ErrorDestroy(PJRT_Error_Destroy_Args* args) { delete args->error; }

void ErrorMessage(PJRT_Error_Message_Args* args) {
  args->message = args->error->message.data();
  args->message_size = args->error->message.size();
}

PJRT_Error* ErrorGetCode(PJRT_Error_GetCode_Args* args) {
  args->code = args->error->code;
  return nullptr;
}

PJRT_Error* ErrorForEachPayload(PJRT_Error_ForEachPayload_Args* args) { return nullptr; }

}  // namespace hlograph::pjrt
