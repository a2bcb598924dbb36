#include "backends/gpu/codegen/tensor_core_helpers.h"

namespace hlograph::gpu::emit {

std::string MmaFunction(const std::string& name, const std::string& shape, const std::string& type) {
  return "static __device__ __forceinline__ void " + name +
         "(float* c, unsigned a0, unsigned a1, unsigned a2, unsigned a3, unsigned b0, unsigned b1) {\n"
         "  asm volatile(\"mma.sync.aligned." + shape + ".row.col.f32." + type + "." + type +
         ".f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, {%0, %1, %2, %3};\"\n"
         "               : \"+f\"(c[0]), \"+f\"(c[1]), \"+f\"(c[2]), \"+f\"(c[3])\n"
         "               : \"r\"(a0), \"r\"(a1), \"r\"(a2), \"r\"(a3), \"r\"(b0), \"r\"(b1));\n"
         "}\n";
}

std::string PackFunction(const std::string& name, const std::string& type) {
  return "static __device__ __forceinline__ unsigned " + name + "(float lo, float hi) {\n"
         "  unsigned r;\n"
         "  asm(\"cvt.rn." + type + "x2.f32 %0, %1, %2;\" : \"=r\"(r) : \"f\"(hi), \"f\"(lo));\n"
         "  return r;\n"
         "}\n";
}

}  // namespace hlograph::gpu::emit
