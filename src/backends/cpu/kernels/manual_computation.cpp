// sdy.manual_computation: its body runs on each device's pieces of the
// operands (cut along the manual axes by in_shardings), and the devices'
// pieces of its results make the global results (out_shardings). On one
// device (no grid) every piece is the whole value.
#include "backends/cpu/interpreter.h"
#include "backends/cpu/kernel_util.h"
#include "backends/cpu/shard_exchange.h"
#include "ir/manual_layouts.h"

namespace hlograph::cpu {
namespace {

Status OnOneDevice(KernelContext& ctx) {
  const ir::Block& body = ctx.op.region(0).front();
  for (size_t i = 0; i < ctx.operands.size(); ++i) {
    if (i >= body.num_arguments() || body.argument(i)->type() != ctx.operand(i).type()) {
      return ctx.Error("splits its operands over several devices; the program runs on one device");
    }
  }
  std::vector<Tensor> args;
  for (const Tensor* t : ctx.operands) args.push_back(*t);
  HLOGRAPH_ASSIGN(ctx.results, ctx.interpreter.RunRegion(ctx.op.region(0), args));
  return Status::Ok();
}

Status ManualComputation(KernelContext& ctx) {
  const DeviceContext* device = ctx.interpreter.device();
  if (device == nullptr) return OnOneDevice(ctx);
  HLOGRAPH_ASSIGN(const ir::ManualLayouts layouts, ir::ManualComputationLayouts(ctx.interpreter.module(), ctx.op));
  std::vector<Tensor> args;
  for (size_t i = 0; i < ctx.operands.size(); ++i) {
    auto piece = LocalPiece(*device, layouts.operands[i], ctx.operand(i));
    if (!piece.ok()) return ctx.Error("operand " + std::to_string(i) + ": " + piece.status().message());
    args.push_back(std::move(*piece));
  }
  HLOGRAPH_ASSIGN(std::vector<Tensor> pieces, ctx.interpreter.RunRegion(ctx.op.region(0), args));
  auto whole = Assemble(*device, layouts.results, ctx.op.ResultTypes(), std::move(pieces));
  if (!whole.ok()) return ctx.Error("results: " + whole.status().message());
  ctx.results = std::move(*whole);
  return Status::Ok();
}

}  // namespace

void RegisterManualComputationKernels(KernelRegistry& r) { r.Register(ir::OpId::kSdyManualComputation, &ManualComputation); }

}  // namespace hlograph::cpu
