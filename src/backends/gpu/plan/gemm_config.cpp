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
  if (epilogue == GemmEpilogue::kScale) s += " *scale";
  if (ir::IsInteger(lhs_type)) {
    // exact
  } else if (TakesKMajorOperands(lhs_type, rhs_type)) {
    s += precision == GemmPrecision::kHighest ? " f32-accumulation" : " fast-accumulation";
  } else if (precision == GemmPrecision::kHighest) {
    s += " highest";
  } else {
    s += lhs_type == ElementType::kF32 ? " tf32" : " default";
  }
  return s;
}

namespace {

bool IsCublasFp8(ElementType t) { return t == ElementType::kF8E4M3FN || t == ElementType::kF8E5M2; }

// cuBLASLt's 8-bit kernels: TN layout, and leading dimensions (k for both
// operands, n for the result) and cuBLASLt's M (our n) in multiples of 16
// elements (16 bytes or more), as its docs ask for the tensor-core paths.
bool Fits8BitRules(const GemmConfig& c) {
  const bool f8 = ir::IsFloat(c.lhs_type);
  return !c.lhs_transposed && c.rhs_transposed && c.k % 16 == 0 && c.n % 16 == 0 &&
         (c.epilogue == GemmEpilogue::kNone || (f8 && c.epilogue == GemmEpilogue::kScale));
}

}  // namespace

bool TakesKMajorOperands(ElementType lhs, ElementType rhs) {
  return (lhs == ElementType::kI8 && rhs == ElementType::kI8) || (IsCublasFp8(lhs) && IsCublasFp8(rhs));
}

bool IsSupportedByCublasLt(const GemmConfig& c) {
  if (c.batch < 1 || c.m < 1 || c.n < 1 || c.k < 1) return false;
  if (c.batch > std::numeric_limits<int32_t>::max()) return false;  // CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT is int32
  if (TakesKMajorOperands(c.lhs_type, c.rhs_type)) {
    if (!Fits8BitRules(c)) return false;
    if (c.lhs_type == ElementType::kI8) return c.out_type == ElementType::kI32;
    // e5m2 x e5m2 has no kernel; the result in f32 or a 16-bit float.
    if (c.lhs_type == ElementType::kF8E5M2 && c.rhs_type == ElementType::kF8E5M2) return false;
    return c.out_type == ElementType::kF32 || c.out_type == ElementType::kBF16 || c.out_type == ElementType::kF16;
  }
  if (c.lhs_type != c.rhs_type || c.epilogue == GemmEpilogue::kScale) return false;
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
