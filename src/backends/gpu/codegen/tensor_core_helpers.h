// Device functions for the kernels that multiply on the tensor cores with
// mma.sync (flash attention, tile products), as CUDA source text.
#pragma once

#include <string>

namespace hlograph::gpu::emit {

// `name`(float* c, unsigned a0..a3, unsigned b0, b1): c (16 x 8, f32) +=
// a (16 x k) b (k x 8), the operands of `type` ("bf16", "f16" or "tf32")
// in 32-bit registers, for `shape` "m16n8k16" (16-bit) or "m16n8k8" (tf32).
std::string MmaFunction(const std::string& name, const std::string& shape, const std::string& type);

// `name`(float lo, float hi): the two rounded to `type` ("bf16" or "f16")
// in one register, lo in the low half (an mma fragment's first element).
std::string PackFunction(const std::string& name, const std::string& type);

}  // namespace hlograph::gpu::emit
