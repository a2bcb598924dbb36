// The CPU backend's kernel table, keyed by op id: every elementwise op
// declared has a kernel, and the ops without one are the structural ones
// the interpreter handles itself (functions, returns, the module) and two
// it refuses.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "backends/cpu/kernel.h"
#include "ir/elementwise_ops.h"

namespace hlograph::cpu {
namespace {

TEST(CpuKernelTable, EveryElementwiseOpHasAKernel) {
  for (const ir::ElementwiseOp& op : ir::ElementwiseOps()) {
    EXPECT_NE(CpuKernels().Find(op.id), nullptr) << op.name;
  }
}

TEST(CpuKernelTable, OnlyStructuralOpsHaveNone) {
  std::set<std::string> without;
  for (int i = 0; i < ir::kNumOpIds; ++i) {
    const auto id = static_cast<ir::OpId>(i);
    if (CpuKernels().Find(id) == nullptr) without.insert(std::string(ir::OpIdName(id)));
  }
  // Terminators and declarations run as part of their parent; named
  // computations are inlined before the interpreter runs; einsum and
  // unary_einsum (removed from StableHLO) are parsed and refused.
  const std::set<std::string> structural = {"builtin.module", "func.func", "func.return", "sdy.mesh",
                                            "sdy.named_computation", "sdy.return", "stablehlo.return",
                                            "stablehlo.einsum", "stablehlo.unary_einsum"};
  EXPECT_EQ(without, structural) << "ops without a CPU kernel";
  EXPECT_EQ(CpuKernels().Find(ir::OpId::kNumOps), nullptr);
}

}  // namespace
}  // namespace hlograph::cpu
