// What HLOGRAPH_PJRT_BACKEND=auto would run on, asked before any client
// exists: the Python package (python/hlograph_jax) reads it to decide
// whether the platform may become JAX's default. Without a GPU it must not,
// since the CPU interpreter is far slower than XLA:CPU.
#include <string>

#include "pjrt/backend.h"

// "gpu", or "cpu: " and why the GPU backend is not used. The string stays
// valid until the next call from the same thread.
extern "C" __attribute__((visibility("default"))) const char* hlograph_pjrt_auto_backend(void) {
  thread_local std::string text;
  const hlograph::Status gpu = hlograph::pjrt::GpuBackendUsable();
  text = gpu.ok() ? "gpu" : "cpu: " + gpu.message();
  return text.c_str();
}
