// Library calls this process's GPU turned down. The planner proposes a
// library call (a cuDNN convolution, a cuFFT transform) from the op alone;
// the library may still refuse it when the executable is loaded (no cuDNN
// engine for it, cuFFT missing or out of plans). The refusal is kept here,
// by the call's printed configuration, and the executable is planned again
// without it (a generated kernel instead), as is every later program with
// the same call.
#pragma once

#include <optional>
#include <string>

namespace hlograph::gpu {

// `call`: the configuration as printed ("fft C2C forward f32 4096 x 1024").
void RefuseLibraryCall(const std::string& call, const std::string& why);
// Why the library refused `call`; nullopt if it has not.
std::optional<std::string> LibraryRefusal(const std::string& call);

}  // namespace hlograph::gpu
