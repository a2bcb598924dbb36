// The CHLO ops JAX still emits. CHLO prints its types as `A -> R`.
#include "ir/ops/op_tables.h"
#include "ir/verify/verifiers.h"

namespace hlograph::ir {

void AddChloOps(std::vector<OpDef>& ops) {
  ops.push_back(OpDefBuilder("chlo.top_k").Operands(1).Results(2).Attr("k", AttrKind::kI64)
                    .Syntax("^( op0 , k = $k ) dict :arrow").Verify(verify::TopK).Build());
  // N inputs and M initial carries (operandSegmentSizes = [N, M]); N
  // outputs and M final carries (resultSegmentSizes). The body maps one
  // slice of each input along `dimension` and the carries to one slice of
  // each output and the next carries.
  ops.push_back(OpDefBuilder("chlo.scan")
                    .Operands(kVariadic)
                    .Results(kVariadic)
                    .Regions(1)
                    .Attr("dimension", AttrKind::kI64)
                    .OptAttr("scan_dim_size", AttrKind::kI64)
                    .OptAttr("is_reverse", AttrKind::kBool)
                    .OptAttr("is_associative", AttrKind::kBool)
                    .Attr("operandSegmentSizes", AttrKind::kAny)
                    .Attr("resultSegmentSizes", AttrKind::kAny)
                    .Syntax("custom:scan")
                    .Verify(verify::Scan)
                    .Build());
}

}  // namespace hlograph::ir
