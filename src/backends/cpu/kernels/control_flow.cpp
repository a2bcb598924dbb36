// while, case, if, func.call and composite: they run regions or functions
// through the interpreter.
#include "backends/cpu/interpreter.h"
#include "backends/cpu/kernel_util.h"
#include "ir/module.h"

namespace hlograph::cpu {
namespace {

std::vector<Tensor> OperandValues(const KernelContext& ctx) {
  std::vector<Tensor> values;
  values.reserve(ctx.operands.size());
  for (const Tensor* t : ctx.operands) values.push_back(*t);
  return values;
}

StatusOr<bool> ReadPredicate(const std::vector<Tensor>& values, const char* what) {
  if (values.size() != 1 || !values[0].type().IsTensor() || values[0].element() != ir::ElementType::kI1 ||
      values[0].num_elements() != 1) {
    return Status::Error(std::string(what) + " must produce one tensor<i1>");
  }
  return values[0].data<uint8_t>()[0] != 0;
}

Status While(KernelContext& ctx) {
  std::vector<Tensor> state = OperandValues(ctx);
  while (true) {
    HLOGRAPH_ASSIGN(std::vector<Tensor> cond, ctx.interpreter.RunRegion(ctx.op.region(0), state));
    HLOGRAPH_ASSIGN(bool keep_going, ReadPredicate(cond, "the loop condition"));
    if (!keep_going) break;
    HLOGRAPH_ASSIGN(state, ctx.interpreter.RunRegion(ctx.op.region(1), state));
  }
  ctx.results = std::move(state);
  return Status::Ok();
}

Status RunBranch(KernelContext& ctx, size_t branch) {
  HLOGRAPH_ASSIGN(ctx.results, ctx.interpreter.RunRegion(ctx.op.region(branch), {}));
  return Status::Ok();
}

Status Case(KernelContext& ctx) {
  // An index out of range selects the last branch (the spec's rule).
  const int64_t n = static_cast<int64_t>(ctx.op.num_regions());
  int64_t index = ReadInt(ctx.operand(0), 0);
  if (index < 0 || index >= n) index = n - 1;
  return RunBranch(ctx, static_cast<size_t>(index));
}

Status If(KernelContext& ctx) { return RunBranch(ctx, ReadInt(ctx.operand(0), 0) != 0 ? 0 : 1); }

Status CallSymbol(KernelContext& ctx, const std::string& attr_name) {
  const auto* callee = ctx.op.attr(attr_name).as<ir::SymbolRefAttr>();
  const ir::Operation* func = callee ? ir::LookupFunction(ctx.op, callee->name) : nullptr;
  if (!func) return ctx.Error("cannot find the function it calls");
  HLOGRAPH_ASSIGN(ctx.results, ctx.interpreter.Call(*func, OperandValues(ctx)));
  return Status::Ok();
}

Status Call(KernelContext& ctx) { return CallSymbol(ctx, "callee"); }
// A composite means what its decomposition computes.
Status Composite(KernelContext& ctx) { return CallSymbol(ctx, "decomposition"); }

}  // namespace

void RegisterControlFlowKernels(KernelRegistry& r) {
  r.Register(ir::OpId::kWhile, &While);
  r.Register(ir::OpId::kCase, &Case);
  r.Register(ir::OpId::kIf, &If);
  r.Register(ir::OpId::kFuncCall, &Call);
  r.Register(ir::OpId::kComposite, &Composite);
}

}  // namespace hlograph::cpu
