// The dialects of test programs (`hlograph check`): `check`, assertions,
// and `interpreter.run_parallel`, which runs functions as the devices of a
// replicas x partitions grid.
#include "ir/ops/op_tables.h"
#include "ir/verify/verifiers.h"

namespace hlograph::ir {

void AddCheckOps(std::vector<OpDef>& ops) {
  using K = AttrKind;
  auto check = [](const char* name) { return OpDefBuilder(std::string("check.") + name).Results(0); };
  ops.push_back(check("expect_eq").Operands(2).Syntax("ops dict :same").Verify(verify::CheckCompare).Build());
  ops.push_back(check("expect_eq_const").Operands(1).Attr("value", K::kElements)
                    .Syntax("op0 , $value dict").Verify(verify::CheckCompareConst).Build());
  ops.push_back(check("expect_almost_eq").Operands(2).OptAttr("tolerance", K::kFloat)
                    .Syntax("ops ?[ , tolerance = $tolerance ]? dict :same").Verify(verify::CheckCompare).Build());
  ops.push_back(check("expect_almost_eq_const").Operands(1).Attr("value", K::kElements)
                    .OptAttr("tolerance", K::kFloat)
                    .Syntax("op0 , $value ?[ , tolerance = $tolerance ]? dict").Verify(verify::CheckCompareConst).Build());
  ops.push_back(check("expect_close").Operands(2).Attr("max_ulp_difference", K::kI64)
                    .OptAttr("min_ulp_difference", K::kI64)
                    .Syntax("ops , max_ulp_difference = $max_ulp_difference ?[ , min_ulp_difference = "
                            "$min_ulp_difference ]? dict :same")
                    .Verify(verify::CheckCompare).Build());
  ops.push_back(check("expect_serialized_eq").Operands(1).Attr("probe_id", K::kString).OptAttr("iteration", K::kI64)
                    .Syntax("op0 , probe_id = $probe_id ?[ , iter = $iteration ]? dict :same").Build());
  // programs = [[@f, ...], ...]: a row per replica, a function per partition;
  // the operands are each device's arguments in that order, and so are the
  // results.
  ops.push_back(OpDefBuilder("interpreter.run_parallel").Operands(kVariadic).Results(kVariadic)
                    .Attr("programs", K::kArray).OptAttr("infeed", K::kArray).Build());
}

}  // namespace hlograph::ir
