#include "backends/gpu/plan/elementwise_support.h"

#include <array>

#include "ir/elementwise_ops.h"

namespace hlograph::gpu {

using E = ir::ElementType;

bool IsSupportedElementType(E t) {
  switch (t) {
    case E::kI1:
    case E::kI8:
    case E::kI16:
    case E::kI32:
    case E::kI64:
    case E::kU8:
    case E::kU16:
    case E::kU32:
    case E::kU64:
    case E::kF16:
    case E::kBF16:
    case E::kF32:
    case E::kF64:
    case E::kC64:
    case E::kC128:
    case E::kF8E3M4:
    case E::kF8E4M3:
    case E::kF8E4M3FN:
    case E::kF8E4M3FNUZ:
    case E::kF8E4M3B11FNUZ:
    case E::kF8E5M2:
    case E::kF8E5M2FNUZ:
    case E::kF8E8M0FNU: return true;
    default: return false;
  }
}

namespace {

using ir::OpId;

// Per op id: computed per element, and on complex operands too.
struct OpSupport {
  std::array<bool, ir::kNumOpIds> elementwise{};
  std::array<bool, ir::kNumOpIds> complex{};
};

const OpSupport& Support() {
  static const OpSupport* const support = [] {
    auto* s = new OpSupport();
    // Every declared elementwise op but the quantized conversions, which
    // passes lower to integer arithmetic before the plan; and the
    // elementwise ops with verifiers of their own.
    for (const ir::ElementwiseOp& op : ir::ElementwiseOps()) {
      if (op.id != OpId::kUniformQuantize && op.id != OpId::kUniformDequantize) {
        s->elementwise[static_cast<size_t>(op.id)] = true;
      }
    }
    for (OpId id : {OpId::kClamp, OpId::kCompare, OpId::kSelect, OpId::kReducePrecision}) {
      s->elementwise[static_cast<size_t>(id)] = true;
    }
    // The inverse trigonometric and hyperbolic functions, atan2 and the
    // special functions have no complex translation yet.
    for (OpId id : {OpId::kAbs, OpId::kAdd, OpId::kBitcastConvert, OpId::kCbrt, OpId::kClamp, OpId::kCompare,
                    OpId::kConvert, OpId::kCosine, OpId::kDivide, OpId::kExponential, OpId::kExponentialMinusOne,
                    OpId::kImag, OpId::kLog, OpId::kLogPlusOne, OpId::kLogistic, OpId::kMaximum, OpId::kMinimum,
                    OpId::kMultiply, OpId::kNegate, OpId::kPower, OpId::kReal, OpId::kRsqrt, OpId::kSelect,
                    OpId::kSign, OpId::kSine, OpId::kSqrt, OpId::kSubtract, OpId::kTan, OpId::kTanh,
                    OpId::kChloConj, OpId::kChloCosh, OpId::kChloSinh, OpId::kChloSquare, OpId::kChloTan}) {
      s->complex[static_cast<size_t>(id)] = true;
    }
    return s;
  }();
  return *support;
}

}  // namespace

bool IsElementwiseOp(ir::OpId id) {
  const auto i = static_cast<size_t>(id);
  return i < Support().elementwise.size() && Support().elementwise[i];
}

bool HasComplexTranslation(ir::OpId id) {
  const auto i = static_cast<size_t>(id);
  return i < Support().complex.size() && Support().complex[i];
}

bool IsElementwise(const ir::Operation& op) {
  const OpId id = op.id();
  if (!IsElementwiseOp(id)) return false;
  // Complex ops without a translation yet (asin, atan2, ...) are refused
  // when the program is planned, not when its kernels are emitted.
  if (op.num_operands() > 0 && op.operand(0)->type().IsTensor() && ir::IsComplex(op.operand(0)->type().element()) &&
      !HasComplexTranslation(id)) {
    return false;
  }
  if (id == OpId::kBitcastConvert) {
    if (op.num_operands() != 1 || op.num_results() != 1 || !op.operand(0)->type().IsTensor() ||
        !op.result(0)->type().IsTensor()) {
      return false;
    }
    return ir::BitWidth(op.operand(0)->type().element()) == ir::BitWidth(op.result(0)->type().element());
  }
  return true;
}

}  // namespace hlograph::gpu
