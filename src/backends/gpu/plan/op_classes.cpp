#include "backends/gpu/plan/op_classes.h"

#include <algorithm>
#include <iterator>

#include "backends/gpu/plan/collective_plan.h"
#include "backends/gpu/plan/elementwise_support.h"
#include "backends/gpu/plan/convolution_lowering.h"
#include "backends/gpu/plan/dot_lowering.h"
#include "backends/gpu/plan/fft_config.h"
#include "backends/gpu/plan/generated_dot.h"
#include "backends/gpu/plan/plan_options.h"
#include "backends/gpu/plan/prefix_scan.h"
#include "backends/gpu/plan/step_cost.h"
#include "backends/gpu/plan/scatter_plan.h"
#include "ir/attribute.h"
#include "ir/linalg_targets.h"
#include "ir/verify/verify_util.h"

namespace hlograph::gpu {
namespace {

// Index maps and producers the loop emitter computes per output element.
bool IsIndexMapOp(ir::OpId id) {
  using ir::OpId;
  static constexpr OpId kOps[] = {
      OpId::kBroadcastInDim, OpId::kReshape, OpId::kTranspose,     OpId::kSlice,
      OpId::kIota,           OpId::kReverse, OpId::kConcatenate,   OpId::kPad,
      OpId::kDynamicSlice,   OpId::kDynamicUpdateSlice,            OpId::kConstant,
      OpId::kBroadcast,      OpId::kGather,
  };
  return std::find(std::begin(kOps), std::end(kOps), id) != std::end(kOps);
}

bool ElementTypesSupported(const ir::Operation& op) {
  for (const auto& r : op.results()) {
    if (!r->type().IsTensor() || !IsSupportedElementType(r->type().element())) return false;
  }
  for (const ir::Value* v : op.operands()) {
    if (!v->type().IsTensor() || !IsSupportedElementType(v->type().element())) return false;
  }
  return true;
}

// A body the kernel can inline (reduce, sort, scatter, reduce_window):
// scalar elementwise ops and a return, reading nothing from outside.
bool IsScalarBody(const ir::Region& region) {
  if (region.empty()) return false;
  const ir::Block& block = region.front();
  for (const auto& op : block.operations()) {
    for (const ir::Value* v : op->operands()) {
      const bool local = v->IsBlockArgument() ? v->owner_block() == &block
                                              : v->defining_op() && v->defining_op()->parent_block() == &block;
      if (!local) return false;
    }
    if (op->id() == ir::OpId::kReturn) continue;
    if (op->id() == ir::OpId::kConstant && IsSplatConstant(*op)) continue;
    if (!IsElementwise(*op) || !ElementTypesSupported(*op)) return false;
  }
  return true;
}

}  // namespace

bool IsSplatConstant(const ir::Operation& op) {
  if (op.id() != ir::OpId::kConstant) return false;
  const auto* value = op.attr("value").as<ir::DenseElementsAttr>();
  return value && (value->splat || value->type.NumElements() == 1);
}

OpClass ClassifyOp(const ir::Operation& op) {
  const ir::OpId name = op.id();
  if (name == ir::OpId::kFuncReturn || name == ir::OpId::kReturn) return OpClass::kReturn;
  if (name == ir::OpId::kWhile) return OpClass::kWhile;
  if (name == ir::OpId::kCase || name == ir::OpId::kIf) return OpClass::kCase;
  // On one device a sharding annotation is the identity.
  if (name == ir::OpId::kOptimizationBarrier || name == ir::OpId::kSdyShardingConstraint) return OpClass::kAlias;
  if (!ElementTypesSupported(op)) return OpClass::kUnsupported;
  if (IsCollective(op)) return OpClass::kCollective;
  if (name == ir::OpId::kDotGeneral) {
    if (IsOuterProduct(op)) return OpClass::kFusible;
    if (TakesGeneratedDot(op)) return OpClass::kGeneratedDot;
    if (LowerDot(op).ok()) return OpClass::kDot;
    // The direct kernel sums real products of any types; complex ones
    // cuBLASLt refuses keep LowerDot's error.
    const bool complex = ir::IsComplex(op.operand(0)->type().element()) ||
                         ir::IsComplex(op.operand(1)->type().element()) ||
                         ir::IsComplex(op.result(0)->type().element());
    return complex ? OpClass::kDot : OpClass::kDirectDot;
  }
  if (name == ir::OpId::kReduce) {
    return op.num_regions() == 1 && IsScalarBody(op.region(0)) ? OpClass::kReduce : OpClass::kUnsupported;
  }
  if (name == ir::OpId::kSort) {
    return op.num_regions() == 1 && IsScalarBody(op.region(0)) ? OpClass::kSort : OpClass::kUnsupported;
  }
  if (name == ir::OpId::kRngBitGenerator) return OpClass::kRng;
  if (name == ir::OpId::kCustomCall) {
    // jaxlib's LAPACK targets and XLA's Qr ones: small factorisations the
    // CPU backend runs with the same LAPACK as XLA:CPU (same pivots and
    // sign conventions).
    const auto* target = op.attr("call_target_name").as<ir::StringAttr>();
    if (target && ir::ParseLinalgTarget(target->value)) return OpClass::kHost;
  }
  if (name == ir::OpId::kChloTopK) return ir::IsComplex(op.operand(0)->type().element()) ? OpClass::kUnsupported : OpClass::kSort;
  if (name == ir::OpId::kScatter) {
    if (op.num_regions() != 1 || !IsScalarBody(op.region(0))) return OpClass::kUnsupported;
    return IsElementMapScatter(op) ? OpClass::kFusible : OpClass::kScatter;
  }
  if (name == ir::OpId::kConvolution) {
    return LowerConvolution(op).ok() ? OpClass::kCudnnConvolution : OpClass::kConvolution;
  }
  if (name == ir::OpId::kFft) {
    const auto config = FftConfigOf(op);
    return config.ok() && ChooseFft(*config, DeviceLimits::H200()).library ? OpClass::kCufft : OpClass::kFft;
  }
  if (name == ir::OpId::kChloScan || name == ir::OpId::kReduceWindow) {
    if (MatchPrefixScan(op)) return OpClass::kScan;
    if (name == ir::OpId::kChloScan) return OpClass::kUnsupported;
  }
  if (name == ir::OpId::kReduceWindow) {
    // Each output element folds its window inside the kernel.
    return op.num_operands() % 2 == 0 && op.num_regions() == 1 && IsScalarBody(op.region(0)) ? OpClass::kFusible
                                                                                       : OpClass::kUnsupported;
  }
  if (name == ir::OpId::kSelectAndScatter) {
    // Each output element gathers the windows that select it.
    return op.num_operands() == 3 && op.num_regions() == 2 && IsScalarBody(op.region(0)) &&
                   IsScalarBody(op.region(1))
               ? OpClass::kFusible
               : OpClass::kUnsupported;
  }
  if (IsIndexMapOp(name) || IsElementwise(op)) return OpClass::kFusible;
  // Between widths it maps indices too (an element splits or pieces join).
  if (name == ir::OpId::kBitcastConvert) return OpClass::kFusible;
  return OpClass::kUnsupported;
}

bool IsOuterProduct(const ir::Operation& op) {
  if (op.id() != ir::OpId::kDotGeneral || op.num_operands() != 2 || op.num_results() != 1 ||
      !PlanOptions::Current().outer_products) {
    return false;
  }
  const auto* dn = op.attr("dot_dimension_numbers").as<ir::DotDimsAttr>();
  if (dn == nullptr) return false;
  for (const ir::Value* v : {op.operand(0), op.operand(1), op.result(0)}) {
    const ir::ElementType t = v->type().element();
    if (!v->type().IsTensor() || v->type().IsQuantized() || !ir::IsFloat(t) || ir::IsComplex(t)) return false;
  }
  int64_t depth = 1;
  for (int64_t d : dn->lhs_contracting) depth *= op.operand(0)->type().dim(d);
  return depth == 1;
}

std::vector<int64_t> ComposedTransposes(const std::vector<const ir::Operation*>& moves) {
  std::vector<int64_t> perm;
  for (const ir::Operation* op : moves) {
    if (op->id() != ir::OpId::kTranspose) break;
    const std::vector<int64_t> p = ir::verify::I64ArrayAttr(*op, "permutation");
    if (perm.empty()) {
      perm = p;
      continue;
    }
    std::vector<int64_t> composed;
    for (int64_t d : p) composed.push_back(perm[static_cast<size_t>(d)]);
    perm = std::move(composed);
  }
  return perm;
}

bool IsExpensive(const ir::Operation& op) {
  using ir::OpId;
  static constexpr OpId kCheap[] = {
      OpId::kAdd,        OpId::kSubtract,        OpId::kMultiply,   OpId::kNegate,     OpId::kAbs,
      OpId::kMaximum,    OpId::kMinimum,         OpId::kSelect,     OpId::kCompare,    OpId::kConvert,
      OpId::kClamp,      OpId::kAnd,             OpId::kOr,         OpId::kXor,        OpId::kNot,
      OpId::kSign,       OpId::kFloor,           OpId::kCeil,       OpId::kBitcastConvert,
      OpId::kShiftLeft,  OpId::kShiftRightLogical, OpId::kShiftRightArithmetic,
      OpId::kIsFinite,   OpId::kRoundNearestEven, OpId::kRoundNearestAfz,
      OpId::kReal,       OpId::kImag,            OpId::kComplex,  // moves of complex parts
  };
  if (op.id() == ir::OpId::kReduceWindow || op.id() == ir::OpId::kSelectAndScatter) return true;  // loops per element
  if (!IsElementwise(op)) return false;  // index maps move data, they compute nothing
  return std::find(std::begin(kCheap), std::end(kCheap), op.id()) == std::end(kCheap);
}

}  // namespace hlograph::gpu
