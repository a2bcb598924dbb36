// Each dialect's op table appends its declarations; op_registry.cpp collects them.
#pragma once

#include <vector>

#include "ir/op_def.h"

namespace hlograph::ir {

void AddBuiltinAndFuncOps(std::vector<OpDef>& ops);
void AddElementwiseOps(std::vector<OpDef>& ops);  // elementwise_ops.def, every dialect
void AddStablehloOps(std::vector<OpDef>& ops);
void AddChloOps(std::vector<OpDef>& ops);
void AddCheckOps(std::vector<OpDef>& ops);
void AddShardyOps(std::vector<OpDef>& ops);

}  // namespace hlograph::ir
