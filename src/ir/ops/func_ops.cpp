// builtin.module and the func dialect.
#include "ir/ops/op_tables.h"
#include "ir/verify/verifiers.h"

namespace hlograph::ir {

void AddBuiltinAndFuncOps(std::vector<OpDef>& ops) {
  using K = AttrKind;
  ops.push_back(OpDefBuilder("builtin.module").Operands(0).Results(0).Regions(1)
                    .OptAttr("sym_name", K::kString).OptAttr("sym_visibility", K::kString)
                    .Traits(kIsolatedFromAbove | kSymbol).Syntax("custom:module").Build());
  ops.push_back(OpDefBuilder("func.func")
                    .Operands(0)
                    .Results(0)
                    .Regions(1)
                    .Attr("sym_name", K::kString)
                    .Attr("function_type", K::kType)
                    .OptAttr("sym_visibility", K::kString)
                    .OptAttr("arg_attrs", K::kArray)
                    .OptAttr("res_attrs", K::kArray)
                    .Syntax("custom:func")
                    .Traits(kIsolatedFromAbove | kSymbol)
                    .Verify(verify::Func)
                    .Build());
  ops.push_back(OpDefBuilder("func.return").Operands(kVariadic).Results(0).Syntax("ops dict :operands")
                    .Traits(kTerminator).Build());
  ops.push_back(OpDefBuilder("func.call").Operands(kVariadic).Results(kVariadic).Attr("callee", K::kSymbolRef)
                    .Syntax("@callee ^( ops ) dict :fn").Verify(verify::Call).Build());
}

}  // namespace hlograph::ir
