// sdy.manual_computation: its body runs on each device's pieces of the
// operands (cut along the manual axes by in_shardings), and the devices'
// pieces of its results make the global results (out_shardings). On one
// device (no grid) every piece is the whole value.
#include "backends/cpu/interpreter.h"
#include "backends/cpu/kernel_util.h"
#include "backends/cpu/shard_exchange.h"
#include "ir/sharding.h"

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

// The layouts of `shardings` (an attribute of the op) along `manual` axes,
// one per type.
StatusOr<std::vector<ir::ShardLayout>> Layouts(KernelContext& ctx, const char* attr,
                                               const std::vector<ir::Type>& types,
                                               const std::vector<std::string>& manual) {
  const auto* text = ctx.op.attr(attr).as<ir::OpaqueAttr>();
  if (text == nullptr) return ctx.Error(std::string("has no ") + attr);
  auto shardings = ir::ParseShardingPerValue(text->text);
  if (!shardings.ok()) return ctx.Error(shardings.status().message());
  if (shardings->size() != types.size()) {
    return ctx.Error(std::string("has ") + std::to_string(shardings->size()) + " " + attr + " for " +
                     std::to_string(types.size()) + " values");
  }
  std::vector<ir::ShardLayout> layouts;
  for (size_t i = 0; i < types.size(); ++i) {
    const ir::TensorSharding& s = (*shardings)[i];
    auto mesh = ir::MeshOf(ctx.interpreter.module(), s);
    if (!mesh.ok()) return ctx.Error(mesh.status().message());
    auto layout = ir::LayoutOf(*mesh, s, static_cast<size_t>(types[i].rank()), &manual);
    if (!layout.ok()) return ctx.Error(std::string(attr) + " " + layout.status().message());
    layouts.push_back(std::move(*layout));
  }
  return layouts;
}

Status ManualComputation(KernelContext& ctx) {
  const DeviceContext* device = ctx.interpreter.device();
  if (device == nullptr) return OnOneDevice(ctx);
  const auto* axes = ctx.op.attr("manual_axes").as<ir::OpaqueAttr>();
  auto manual = axes ? ir::ParseManualAxes(axes->text) : StatusOr<std::vector<std::string>>(std::vector<std::string>{});
  if (!manual.ok()) return ctx.Error(manual.status().message());
  const ir::Block& body = ctx.op.region(0).front();
  HLOGRAPH_ASSIGN(const std::vector<ir::ShardLayout> in, Layouts(ctx, "in_shardings", ctx.op.OperandTypes(), *manual));
  if (body.num_arguments() != ctx.operands.size()) return ctx.Error("expects a body argument per operand");
  std::vector<Tensor> args;
  for (size_t i = 0; i < ctx.operands.size(); ++i) {
    auto piece = LocalPiece(*device, in[i], ctx.operand(i));
    if (!piece.ok()) return ctx.Error("operand " + std::to_string(i) + ": " + piece.status().message());
    if (piece->type() != body.argument(i)->type()) {
      return ctx.Error("cuts operand " + std::to_string(i) + " into pieces of " + piece->type().ToString() +
                       ", its body takes " + body.argument(i)->type().ToString());
    }
    args.push_back(std::move(*piece));
  }
  HLOGRAPH_ASSIGN(std::vector<Tensor> pieces, ctx.interpreter.RunRegion(ctx.op.region(0), args));
  const std::vector<ir::Type> types = ctx.op.ResultTypes();
  HLOGRAPH_ASSIGN(const std::vector<ir::ShardLayout> out, Layouts(ctx, "out_shardings", types, *manual));
  if (pieces.size() != types.size()) return ctx.Error("expects its body to return a value per result");
  auto whole = Assemble(*device, out, types, std::move(pieces));
  if (!whole.ok()) return ctx.Error("results: " + whole.status().message());
  ctx.results = std::move(*whole);
  return Status::Ok();
}

}  // namespace

void RegisterManualComputationKernels(KernelRegistry& r) { r.Register("sdy.manual_computation", &ManualComputation); }

}  // namespace hlograph::cpu
