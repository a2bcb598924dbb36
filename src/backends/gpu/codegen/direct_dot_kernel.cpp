// stablehlo.dot_general that cuBLASLt does not take (integer products other
// than aligned i8 x i8 -> i32, mixed element types, 8-bit shapes off its
// alignment): each output element sums its contraction in a kernel of its
// own, typed as the interpreter sums (output_sum.h): integers exactly,
// wrapping as the result type does. Operands are computed inline, so a
// convert of an 8-bit weight is read as its 8-bit storage.
#include "backends/gpu/codegen/output_sum.h"
#include "ir/dot_dims.h"

namespace hlograph::gpu::emit {

StatusOr<KernelSource> EmitDirectDot(const Fusion& f, const EmitOptions& options) {
  const ir::Operation& op = *f.ops.back();
  const auto* dn = op.attr("dot_dimension_numbers").as<ir::DotDimsAttr>();
  if (dn == nullptr) return Status::Error("dot_general without dot_dimension_numbers");
  const ir::Value* lhs = op.operand(0);
  const ir::Value* rhs = op.operand(1);
  const ir::DotShape shape = ir::DotShapeOf(op);
  const std::vector<int64_t>& lhs_free = shape.lhs_free;
  const std::vector<int64_t>& rhs_free = shape.rhs_free;
  std::vector<int64_t> term_shape;
  int64_t terms = 1;
  for (int64_t d : dn->lhs_contracting) {
    term_shape.push_back(lhs->type().dim(d));
    terms *= lhs->type().dim(d);
  }

  OutputSum sum;
  sum.out_type = op.result(0)->type();
  sum.terms = terms;
  sum.operand_types = {lhs->type().element(), rhs->type().element()};
  sum.what = "direct product";
  return EmitOutputSums(f, sum, options, [&](BodyEmitter& e, const Index& out, const std::string& acc_type) -> Status {
    // The result's dims: batch, then lhs free, then rhs free.
    const Index term = e.Delinearize("r", term_shape);
    Index lhs_idx(static_cast<size_t>(lhs->type().rank()));
    Index rhs_idx(static_cast<size_t>(rhs->type().rank()));
    size_t o = 0;
    for (size_t i = 0; i < dn->lhs_batching.size(); ++i, ++o) {
      lhs_idx[static_cast<size_t>(dn->lhs_batching[i])] = out[o];
      rhs_idx[static_cast<size_t>(dn->rhs_batching[i])] = out[o];
    }
    for (int64_t d : lhs_free) lhs_idx[static_cast<size_t>(d)] = out[o++];
    for (int64_t d : rhs_free) rhs_idx[static_cast<size_t>(d)] = out[o++];
    for (size_t i = 0; i < dn->lhs_contracting.size(); ++i) {
      lhs_idx[static_cast<size_t>(dn->lhs_contracting[i])] = term[i];
      rhs_idx[static_cast<size_t>(dn->rhs_contracting[i])] = term[i];
    }
    HLOGRAPH_ASSIGN(std::string x, e.Emit(lhs, lhs_idx));
    HLOGRAPH_ASSIGN(std::string w, e.Emit(rhs, rhs_idx));
    e.Line("acc += " + ToAccumulator(lhs->type().element(), x, acc_type) + " * " +
           ToAccumulator(rhs->type().element(), w, acc_type) + ";");
    return Status::Ok();
  });
}

}  // namespace hlograph::gpu::emit
