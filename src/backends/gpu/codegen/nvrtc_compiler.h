// CUDA C++ -> cubin through NVRTC, with an on-disk cache keyed by the
// source, the target architecture, the options and NVRTC's version. NVRTC
// needs no GPU, so kernels compile (and their tests run) on any machine with
// the CUDA toolkit.
#pragma once

#include <string>

#include "hlograph/status.h"

namespace hlograph::gpu {

struct CompileOptions {
  int cc_major = 9, cc_minor = 0;  // sm_90 (Hopper)
  bool fast_math = false;          // never for results compared to XLA
  bool use_cache = true;
};

struct CompiledKernel {
  std::string cubin;
  std::string log;         // NVRTC's warnings, if any
  bool from_cache = false;
};

// Compiles `source` (one translation unit; `name` is used in messages) to a
// cubin for sm_<cc_major><cc_minor>. Errors carry NVRTC's log and the
// numbered source lines it points at.
//
// Cubins are kept in the on-disk cache (runtime/cache_file.h), keyed by the
// source, the target, the options and NVRTC's version; an unreadable or
// corrupt entry is recompiled.
StatusOr<CompiledKernel> CompileToCubin(const std::string& source, const std::string& name,
                                        const CompileOptions& options);

// NVRTC's version as "13.0".
std::string NvrtcVersion();

}  // namespace hlograph::gpu
