#include "backends/gpu/plan/dot_lowering.h"

#include <algorithm>
#include <cstdlib>
#include <string>

#include "backends/gpu/plan/plan_options.h"
#include "ir/attribute.h"
#include "ir/dot_dims.h"

namespace hlograph::gpu {
namespace {

std::vector<int64_t> Concat(std::initializer_list<const std::vector<int64_t>*> parts) {
  std::vector<int64_t> out;
  for (const auto* p : parts) out.insert(out.end(), p->begin(), p->end());
  return out;
}

bool IsIdentity(const std::vector<int64_t>& perm) {
  for (size_t i = 0; i < perm.size(); ++i) {
    if (perm[i] != static_cast<int64_t>(i)) return false;
  }
  return true;
}

}  // namespace

GemmPrecision PrecisionOf(const ir::Operation& op) {
  if (!PlanOptions::Current().tf32) return GemmPrecision::kHighest;
  if (const auto* a = op.attr("precision_config").as<ir::ArrayAttr>()) {
    for (const auto& e : a->elements) {
      const auto* p = e.as<ir::EnumAttr>();
      if (p && p->value == "HIGHEST") return GemmPrecision::kHighest;
    }
  }
  if (const auto* algo = op.attr("algorithm").as<ir::OpaqueAttr>()) {
    if (algo->text.find("lhs_precision_type = f32") != std::string::npos) return GemmPrecision::kHighest;
  }
  return GemmPrecision::kDefault;
}

StatusOr<DotLowering> LowerDot(const ir::Operation& op) {
  const auto* dn = op.attr("dot_dimension_numbers").as<ir::DotDimsAttr>();
  if (!dn) return Status::Error("has no dot_dimension_numbers");
  const ir::Type& lhs = op.operand(0)->type();
  const ir::Type& rhs = op.operand(1)->type();
  const ir::Type& out = op.result(0)->type();
  const ir::DotShape shape = ir::DotShapeOf(op);
  const std::vector<int64_t>& lhs_free = shape.lhs_free;
  const std::vector<int64_t>& rhs_free = shape.rhs_free;

  DotLowering l;
  GemmConfig& c = l.config;
  c.lhs_type = lhs.element();
  c.rhs_type = rhs.element();
  c.out_type = out.element();
  c.batch = shape.batch;
  c.m = shape.m;
  c.k = shape.k;
  c.n = shape.n;
  c.precision = PrecisionOf(op);

  // lhs: [batch][m][k] as it is, [batch][k][m] as transposed, else permute.
  const auto lhs_mk = Concat({&dn->lhs_batching, &lhs_free, &dn->lhs_contracting});
  const auto lhs_km = Concat({&dn->lhs_batching, &dn->lhs_contracting, &lhs_free});
  if (IsIdentity(lhs_mk)) {
    c.lhs_transposed = false;
  } else if (IsIdentity(lhs_km)) {
    c.lhs_transposed = true;
  } else {
    l.lhs_permutation = lhs_mk;
  }
  const auto rhs_kn = Concat({&dn->rhs_batching, &dn->rhs_contracting, &rhs_free});
  const auto rhs_nk = Concat({&dn->rhs_batching, &rhs_free, &dn->rhs_contracting});
  if (IsIdentity(rhs_kn)) {
    c.rhs_transposed = false;
  } else if (IsIdentity(rhs_nk)) {
    c.rhs_transposed = true;
  } else {
    l.rhs_permutation = rhs_kn;
  }
  if (TakesKMajorOperands(c.lhs_type, c.rhs_type)) {
    // The 8-bit tensor-core kernels read both operands along k.
    if (c.lhs_transposed) l.lhs_permutation = lhs_mk;
    if (!c.rhs_transposed) l.rhs_permutation = rhs_nk;
    c.lhs_transposed = false;
    c.rhs_transposed = true;
  }
  if (c.batch * c.m * c.n != out.NumElements()) {
    return Status::Error("has a result " + out.ToString() + " that does not match its operands");
  }
  const bool empty = c.batch * c.m * c.n * c.k == 0;  // no GEMM runs
  if (!empty && !IsSupportedByCublasLt(c)) {
    return Status::Error("multiplies " + lhs.ToString() + " by " + rhs.ToString() + " into " + out.ToString() +
                         ", which cuBLASLt does not take (it takes f32, f64, complex, f16 and bf16; i8 x i8 -> i32 "
                         "and f8 -> f32/bf16/f16 with n and k multiples of 16)");
  }
  return l;
}

}  // namespace hlograph::gpu
