// The op declarations of the elementwise ops, made from their lines in
// elementwise_ops.def: counts, pretty syntax (CHLO prints its types as
// `A -> R`; an op whose result type differs prints both) and the
// elementwise verifier, which reads the same lines for the type rule.
#include "ir/elementwise_ops.h"
#include "ir/ops/op_tables.h"
#include "ir/verify/verifiers.h"

namespace hlograph::ir {
namespace {

std::string SyntaxOf(const ElementwiseOp& op) {
  const std::string operands = op.arity == 1 ? "op0" : "ops";
  if (op.name.starts_with("chlo.")) return operands + " dict :arrow";
  if (op.result == ResultRule::kComplexOf) return "ops dict :result";
  if (op.result != ResultRule::kSame) return "op0 dict :same";
  return "ops dict :same";
}

}  // namespace

void AddElementwiseOps(std::vector<OpDef>& ops) {
  for (const ElementwiseOp& op : ElementwiseOps()) {
    ops.push_back(OpDefBuilder(std::string(op.name))
                      .Operands(op.arity)
                      .Syntax(SyntaxOf(op))
                      .Traits(kElementwise)
                      .Verify(verify::Elementwise)
                      .Build());
  }
}

}  // namespace hlograph::ir
