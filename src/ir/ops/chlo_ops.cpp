// The CHLO ops JAX still emits. CHLO prints its types as `A -> R`.
#include "ir/ops/op_tables.h"
#include "ir/verify/verifiers.h"

namespace hlograph::ir {

void AddChloOps(std::vector<OpDef>& ops) {
  for (const char* name : {"erf", "erfc", "erf_inv", "lgamma", "digamma", "bessel_i1e", "asin", "acos", "atan",
                           "sinh", "cosh", "asinh", "acosh", "atanh", "square", "conj", "tan", "is_inf",
                           "is_neg_inf", "is_pos_inf"}) {
    ops.push_back(OpDefBuilder(std::string("chlo.") + name).Operands(1).Syntax("op0 dict :arrow")
                      .Traits(kElementwise).Verify(verify::Elementwise).Build());
  }
  for (const char* name : {"polygamma", "zeta", "next_after", "mulhi"}) {
    ops.push_back(OpDefBuilder(std::string("chlo.") + name).Operands(2).Syntax("ops dict :arrow")
                      .Traits(kElementwise).Verify(verify::Elementwise).Build());
  }
  ops.push_back(OpDefBuilder("chlo.top_k").Operands(1).Results(2).Attr("k", AttrKind::kI64)
                    .Syntax("^( op0 , k = $k ) dict :arrow").Verify(verify::TopK).Build());
}

}  // namespace hlograph::ir
