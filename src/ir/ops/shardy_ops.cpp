// Shardy (sdy) ops that JAX emits for sharded programs. Their sharding
// attributes are kept verbatim; their meaning comes with multi-device work.
#include "ir/ops/op_tables.h"

namespace hlograph::ir {

void AddShardyOps(std::vector<OpDef>& ops) {
  using K = AttrKind;
  auto sdy = [](const char* name) { return OpDefBuilder(std::string("sdy.") + name); };
  ops.push_back(sdy("mesh").Operands(0).Results(0).Attr("sym_name", K::kString).Attr("mesh", K::kDialectBody, "#sdy.mesh|")
                    .Traits(kSymbol).Syntax("@sym_name = $mesh dict").Build());
  ops.push_back(sdy("sharding_constraint").Operands(1).Attr("sharding", K::kDialectBody, "#sdy.sharding|")
                    .Syntax("op0 $sharding dict :same").Build());
  ops.push_back(sdy("reshard").Operands(1).Attr("sharding", K::kDialectBody, "#sdy.sharding|")
                    .Syntax("op0 $sharding dict :same").Build());
  ops.push_back(sdy("sharding_group").Operands(1).Results(0).Attr("group_id", K::kI64)
                    .Syntax("op0 group_id = $group_id dict :operands").Build());
  ops.push_back(sdy("propagation_barrier").Operands(1).Attr("allowed_direction", K::kAny).Build());
  ops.push_back(sdy("manual_computation").Operands(kVariadic).Results(kVariadic).Regions(1)
                    .Attr("in_shardings", K::kDialectBody, "#sdy.sharding_per_value<|>")
                    .Attr("out_shardings", K::kDialectBody, "#sdy.sharding_per_value<|>")
                    .Attr("manual_axes", K::kDialectBody, "#sdy<manual_axes|>")
                    .Syntax("custom:manual_computation").Build());
  ops.push_back(sdy("named_computation").Operands(kVariadic).Results(kVariadic).Regions(1)
                    .Attr("name", K::kString).OptAttr("in_shardings", K::kAny).OptAttr("out_shardings", K::kAny).Build());
  ops.push_back(sdy("return").Operands(kVariadic).Results(0).Syntax("ops dict :operands").Traits(kTerminator).Build());
}

}  // namespace hlograph::ir
