#include "backends/gpu/plan/op_classes.h"

#include "backends/gpu/plan/scatter_plan.h"

#include <set>
#include <string>

#include "backends/cpu/kernels/custom_call_targets.h"
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
#include "ir/verify/verify_util.h"

namespace hlograph::gpu {
namespace {

// Index maps and producers the loop emitter computes per output element.
const std::set<std::string>& IndexMapOps() {
  static const std::set<std::string> ops = {
      "stablehlo.broadcast_in_dim", "stablehlo.reshape",       "stablehlo.transpose",
      "stablehlo.slice",            "stablehlo.iota",          "stablehlo.reverse",
      "stablehlo.concatenate",      "stablehlo.pad",           "stablehlo.dynamic_slice",
      "stablehlo.dynamic_update_slice", "stablehlo.constant",  "stablehlo.broadcast",
      "stablehlo.gather",
  };
  return ops;
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
  const std::string& name = op.name();
  if (name == "func.return" || name == "stablehlo.return") return OpClass::kReturn;
  if (name == "stablehlo.while") return OpClass::kWhile;
  if (name == "stablehlo.case" || name == "stablehlo.if") return OpClass::kCase;
  // On one device a sharding annotation is the identity.
  if (name == "stablehlo.optimization_barrier" || name == "sdy.sharding_constraint") return OpClass::kAlias;
  if (!ElementTypesSupported(op)) return OpClass::kUnsupported;
  if (IsCollective(op)) return OpClass::kCollective;
  if (name == "stablehlo.dot_general") {
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
  if (name == "stablehlo.reduce") {
    return op.num_regions() == 1 && IsScalarBody(op.region(0)) ? OpClass::kReduce : OpClass::kUnsupported;
  }
  if (name == "stablehlo.sort") {
    return op.num_regions() == 1 && IsScalarBody(op.region(0)) ? OpClass::kSort : OpClass::kUnsupported;
  }
  if (name == "stablehlo.rng_bit_generator") return OpClass::kRng;
  if (name == "stablehlo.custom_call") {
    // jaxlib's LAPACK targets and XLA's Qr ones: small factorisations the
    // CPU backend runs with the same LAPACK as XLA:CPU (same pivots and
    // sign conventions).
    const auto* target = op.attr("call_target_name").as<ir::StringAttr>();
    if (target && cpu::FindLinalgCustomCall(target->value) != nullptr) return OpClass::kHost;
  }
  if (name == "chlo.top_k") return ir::IsComplex(op.operand(0)->type().element()) ? OpClass::kUnsupported : OpClass::kSort;
  if (name == "stablehlo.scatter") {
    if (op.num_regions() != 1 || !IsScalarBody(op.region(0))) return OpClass::kUnsupported;
    return IsElementMapScatter(op) ? OpClass::kFusible : OpClass::kScatter;
  }
  if (name == "stablehlo.convolution") {
    return LowerConvolution(op).ok() ? OpClass::kCudnnConvolution : OpClass::kConvolution;
  }
  if (name == "stablehlo.fft") {
    const auto config = FftConfigOf(op);
    return config.ok() && ChooseFft(*config, DeviceLimits::H200()).library ? OpClass::kCufft : OpClass::kFft;
  }
  if (name == "chlo.scan" || name == "stablehlo.reduce_window") {
    if (MatchPrefixScan(op)) return OpClass::kScan;
    if (name == "chlo.scan") return OpClass::kUnsupported;
  }
  if (name == "stablehlo.reduce_window") {
    // Each output element folds its window inside the kernel.
    return op.num_operands() % 2 == 0 && op.num_regions() == 1 && IsScalarBody(op.region(0)) ? OpClass::kFusible
                                                                                       : OpClass::kUnsupported;
  }
  if (name == "stablehlo.select_and_scatter") {
    // Each output element gathers the windows that select it.
    return op.num_operands() == 3 && op.num_regions() == 2 && IsScalarBody(op.region(0)) &&
                   IsScalarBody(op.region(1))
               ? OpClass::kFusible
               : OpClass::kUnsupported;
  }
  if (IndexMapOps().count(name) || IsElementwise(op)) return OpClass::kFusible;
  // Between widths it maps indices too (an element splits or pieces join).
  if (name == "stablehlo.bitcast_convert") return OpClass::kFusible;
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
  static const std::set<std::string> cheap = {
      "stablehlo.add",      "stablehlo.subtract", "stablehlo.multiply", "stablehlo.negate",  "stablehlo.abs",
      "stablehlo.maximum",  "stablehlo.minimum",  "stablehlo.select",   "stablehlo.compare", "stablehlo.convert",
      "stablehlo.clamp",    "stablehlo.and",      "stablehlo.or",       "stablehlo.xor",     "stablehlo.not",
      "stablehlo.sign",     "stablehlo.floor",    "stablehlo.ceil",     "stablehlo.bitcast_convert",
      "stablehlo.shift_left", "stablehlo.shift_right_logical", "stablehlo.shift_right_arithmetic",
      "stablehlo.is_finite", "stablehlo.round_nearest_even", "stablehlo.round_nearest_afz",
      "stablehlo.real",     "stablehlo.imag",     "stablehlo.complex",  // moves of complex parts
  };
  if (op.id() == ir::OpId::kReduceWindow || op.id() == ir::OpId::kSelectAndScatter) return true;  // loops per element
  if (!IsElementwise(op)) return false;  // index maps move data, they compute nothing
  return cheap.count(op.name()) == 0;
}

}  // namespace hlograph::gpu
