#include "backends/gpu/plan/gemm_config.h"

#include <limits>

namespace hlograph::gpu {

using ir::ElementType;

std::string GemmConfig::ToString() const {
  std::string s = "gemm ";
  s += ElementTypeName(lhs_type);
  s += "x";
  s += ElementTypeName(rhs_type);
  s += "->";
  s += ElementTypeName(out_type);
  s += " batch " + std::to_string(batch) + " m " + std::to_string(m) + " n " + std::to_string(n) + " k " +
       std::to_string(k);
  s += lhs_transposed ? " lhs T" : " lhs N";
  s += rhs_transposed ? " rhs T" : " rhs N";
  if (lhs_broadcast) s += " lhs-broadcast";
  if (rhs_broadcast) s += " rhs-broadcast";
  if (epilogue == GemmEpilogue::kBias) s += " +bias";
  if (epilogue == GemmEpilogue::kBiasRelu) s += " +bias+relu";
  if (precision == GemmPrecision::kHighest) {
    s += " highest";
  } else {
    s += lhs_type == ElementType::kF32 ? " tf32" : " default";
  }
  return s;
}

bool IsSupportedByCublasLt(const GemmConfig& c) {
  if (c.batch < 1 || c.m < 1 || c.n < 1 || c.k < 1) return false;
  if (c.batch > std::numeric_limits<int32_t>::max()) return false;  // CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT is int32
  if (c.lhs_type != c.rhs_type) return false;
  switch (c.lhs_type) {
    case ElementType::kF32:
    case ElementType::kF64:
    case ElementType::kC64:
    case ElementType::kC128:
      return c.out_type == c.lhs_type;
    case ElementType::kF16:
    case ElementType::kBF16:
      return c.out_type == c.lhs_type || c.out_type == ElementType::kF32;
    default:
      return false;
  }
}

}  // namespace hlograph::gpu
