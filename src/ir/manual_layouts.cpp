#include "ir/manual_layouts.h"

namespace hlograph::ir {
namespace {

// The layouts of the op's `attr` (one sharding per value of `types`), each
// checked to cut its value into a piece of type pieces[i].
StatusOr<std::vector<ShardLayout>> Layouts(const Module& module, const Operation& op, const char* attr,
                                           const std::vector<Type>& types, const std::vector<Type>& pieces,
                                           const char* what, const std::vector<std::string>& manual) {
  const auto* text = op.attr(attr).as<OpaqueAttr>();
  if (text == nullptr) return Status::Error(std::string("has no ") + attr);
  HLOGRAPH_ASSIGN(const std::vector<TensorSharding> shardings, ParseShardingPerValue(text->text));
  if (shardings.size() != types.size() || pieces.size() != types.size()) {
    return Status::Error("has " + std::to_string(shardings.size()) + " " + attr + " for " +
                         std::to_string(types.size()) + " " + what + "s and " + std::to_string(pieces.size()) +
                         " pieces of them");
  }
  std::vector<ShardLayout> layouts;
  for (size_t i = 0; i < types.size(); ++i) {
    const std::string where = std::string(what) + " " + std::to_string(i) + " (" + shardings[i].text + "): ";
    auto mesh = MeshOf(module, shardings[i]);
    if (!mesh.ok()) return Status::Error(where + mesh.status().message());
    auto layout = LayoutOf(*mesh, shardings[i], types[i].shape().size(), &manual);
    if (!layout.ok()) return Status::Error(where + layout.status().message());
    auto local = layout->LocalShape(types[i].shape());
    if (!local.ok()) return Status::Error(where + local.status().message());
    if (types[i].WithShape(*local) != pieces[i]) {
      return Status::Error(where + "cuts a " + types[i].ToString() + " into pieces of " +
                           types[i].WithShape(*local).ToString() + ", the body's is a " + pieces[i].ToString());
    }
    layouts.push_back(std::move(*layout));
  }
  return layouts;
}

Status Check(const Module& module, const Block& block) {
  for (const auto& op : block.operations()) {
    if (op->id() == OpId::kSdyManualComputation) HLOGRAPH_TRY(ManualComputationLayouts(module, *op).status());
    for (const auto& region : op->regions()) {
      for (const auto& b : region->blocks()) HLOGRAPH_TRY(Check(module, *b));
    }
  }
  return Status::Ok();
}

}  // namespace

StatusOr<ManualLayouts> ManualComputationLayouts(const Module& module, const Operation& op) {
  auto fail = [&](const Status& s) {
    return Status::Error(op.pos().ToString() + ": error: 'sdy.manual_computation' op " + s.message());
  };
  std::vector<std::string> manual;
  if (const auto* axes = op.attr("manual_axes").as<OpaqueAttr>()) {
    auto names = ParseManualAxes(axes->text);
    if (!names.ok()) return fail(names.status());
    manual = std::move(*names);
  }
  if (op.num_regions() != 1 || op.region(0).empty()) return fail(Status::Error("has no body"));
  const Block& body = op.region(0).front();
  std::vector<Type> takes, returns;
  for (const auto& a : body.arguments()) takes.push_back(a->type());
  if (const Operation* ret = body.terminator()) returns = ret->OperandTypes();
  ManualLayouts layouts;
  auto operands = Layouts(module, op, "in_shardings", op.OperandTypes(), takes, "operand", manual);
  if (!operands.ok()) return fail(operands.status());
  auto results = Layouts(module, op, "out_shardings", op.ResultTypes(), returns, "result", manual);
  if (!results.ok()) return fail(results.status());
  return ManualLayouts{std::move(*operands), std::move(*results)};
}

Status CheckManualComputations(const Module& module) { return Check(module, module.body()); }

}  // namespace hlograph::ir
