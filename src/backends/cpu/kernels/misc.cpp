// custom_call dispatch, tokens and Shardy's sharding annotations (the
// collectives and the device ids: collectives.cpp; manual computations:
// manual_computation.cpp).
#include "backends/cpu/interpreter.h"
#include "backends/cpu/kernel_util.h"
#include "backends/cpu/kernels/check.h"
#include "backends/cpu/kernels/custom_call_targets.h"

namespace hlograph::cpu {

Status OperandsAsResults(KernelContext& ctx) {
  for (size_t i = 0; i < ctx.op.num_results(); ++i) {
    if (ctx.operand(i).type() != ctx.result_type(i)) {
      return ctx.Error("on one device expects result " + std::to_string(i) + " to have its operand's type " +
                       ctx.operand(i).type().ToString() + ", got " + ctx.result_type(i).ToString() +
                       " (the program was exported for more devices)");
    }
    ctx.results.push_back(ctx.operand(i));
  }
  return Status::Ok();
}

namespace {

Status Token(KernelContext& ctx) {
  ctx.results.emplace_back(ir::Type::Token());
  return Status::Ok();
}

// Custom-call targets that only annotate placement or sharding.
bool IsAnnotation(std::string_view target) {
  return target == "Sharding" || target == "SPMDFullToShardShape" || target == "SPMDShardToFullShape" ||
         target == "annotate_device_placement" || target == "MoveToHost" || target == "MoveToDevice" ||
         target == "X64Combine" || target == "LayoutConstraint";
}

Status CustomCall(KernelContext& ctx) {
  const auto* target = ctx.op.attr("call_target_name").as<ir::StringAttr>();
  const std::string name = target ? target->value : "";
  if (KernelFn fn = FindCheckCustomCall(name)) {
    HLOGRAPH_TRY(fn(ctx));
    // `%ok = stablehlo.custom_call @check.eq(...) : (...) -> tensor<i1>`:
    // a check that passed yields true (a failed one is an error).
    if (ctx.op.num_results() == 1 && ctx.results.empty() && ctx.result_type(0).IsTensor() &&
        ctx.result_type(0).element() == ir::ElementType::kI1) {
      Tensor ok(ctx.result_type(0));
      for (int64_t i = 0; i < ok.num_elements(); ++i) ok.mutable_data<bool>()[i] = true;
      ctx.results.push_back(std::move(ok));
    }
    return Status::Ok();
  }
  if (KernelFn fn = FindLinalgCustomCall(name)) return fn(ctx);
  if (IsAnnotation(name)) return OperandsAsResults(ctx);
  return ctx.Error("calls '" + name + "', a custom-call target the CPU backend does not implement");
}

}  // namespace

void RegisterMiscKernels(KernelRegistry& r) {
  r.Register(ir::OpId::kCustomCall, &CustomCall);
  for (ir::OpId id : {ir::OpId::kSdyShardingConstraint, ir::OpId::kSdyReshard, ir::OpId::kSdyPropagationBarrier}) {
    r.Register(id, &OperandsAsResults);
  }
  r.Register(ir::OpId::kAfterAll, &Token);
  r.Register(ir::OpId::kCreateToken, &Token);
  r.Register(ir::OpId::kSdyShardingGroup, [](KernelContext&) { return Status::Ok(); });
}

}  // namespace hlograph::cpu
