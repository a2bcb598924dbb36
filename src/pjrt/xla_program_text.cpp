#include "pjrt/xla_program_text.h"

#include "ir/clone.h"
#include "ir/op_def.h"
#include "ir/printer.h"
#include "ir/sharding.h"
#include "passes/replace_uses.h"

namespace hlograph::pjrt {
namespace {

constexpr char kManual[] = "{manual}";

// `stablehlo.custom_call @target(%operand) {mhlo.sharding = sharding}`.
std::unique_ptr<ir::Operation> CustomCall(const ir::Operation& at, const char* target, ir::Value* operand,
                                          const ir::Type& type, const std::string& sharding) {
  auto op = std::make_unique<ir::Operation>(ir::LookupOp(ir::OpId::kCustomCall), at.pos());
  op->AddOperand(operand);
  op->AddResult(type);
  op->SetAttr("call_target_name", ir::MakeString(target));
  op->SetAttr("mhlo.sharding", ir::MakeString(sharding));
  return op;
}

// Each sharding of `attr` (a sharding per value) over all its mesh's axes,
// as XLA spells it.
StatusOr<std::vector<std::string>> HloShardings(const ir::Module& module, const ir::Operation& op, const char* attr,
                                                const std::vector<ir::Type>& types) {
  const auto* text = op.attr(attr).as<ir::OpaqueAttr>();
  if (text == nullptr) return Status::Error(op.name() + " has no " + attr);
  HLOGRAPH_ASSIGN(const std::vector<ir::TensorSharding> shardings, ir::ParseShardingPerValue(text->text));
  if (shardings.size() != types.size()) return Status::Error(op.name() + ": a sharding per value");
  std::vector<std::string> out;
  for (size_t i = 0; i < types.size(); ++i) {
    HLOGRAPH_ASSIGN(const ir::Mesh mesh, ir::MeshOf(module, shardings[i]));
    HLOGRAPH_ASSIGN(const ir::ShardLayout layout, ir::LayoutOf(mesh, shardings[i], types[i].shape().size()));
    out.push_back(ir::ToHloSharding(layout));
  }
  return out;
}

class Rewriter {
 public:
  Rewriter(const ir::Module& module, ir::Block& root) : module_(module), root_(root) {}

  // Rewrites the Shardy ops of `block` and of the regions within; the ops a
  // manual computation's body becomes are visited next.
  Status Run(ir::Block& block) {
    for (size_t i = 0; i < block.operations().size(); ++i) {
      ir::Operation* op = block.operations()[i].get();
      const ir::OpId name = op->id();
      if (name == ir::OpId::kSdyManualComputation) {
        HLOGRAPH_TRY(ExpandManual(block, i));
        --i;
      } else if (name == ir::OpId::kSdyShardingConstraint || name == ir::OpId::kSdyReshard) {
        HLOGRAPH_TRY(ToShardingCall(block, i));
      } else if (name == ir::OpId::kSdyShardingGroup || name == ir::OpId::kSdyPropagationBarrier) {
        if (op->num_results() == 1) passes::ReplaceUses(root_, op->result(0), op->operand(0));
        block.Remove(op);
        --i;
      } else {
        for (const auto& region : op->regions()) {
          for (const auto& b : region->blocks()) HLOGRAPH_TRY(Run(*b));
        }
      }
    }
    return Status::Ok();
  }

 private:
  void ReplaceAt(ir::Block& block, size_t& at, ir::Operation* op, std::vector<std::unique_ptr<ir::Operation>> ops) {
    for (auto& o : ops) block.Insert(at++, std::move(o));
    block.Remove(op);
  }

  Status ToShardingCall(ir::Block& block, size_t at) {
    ir::Operation* op = block.operations()[at].get();
    const auto* text = op->attr("sharding").as<ir::OpaqueAttr>();
    if (text == nullptr) return Status::Error(op->name() + " has no sharding");
    HLOGRAPH_ASSIGN(const ir::TensorSharding sharding, ir::ParseTensorSharding(text->text));
    HLOGRAPH_ASSIGN(const ir::Mesh mesh, ir::MeshOf(module_, sharding));
    const ir::Type& type = op->result(0)->type();
    HLOGRAPH_ASSIGN(const ir::ShardLayout layout, ir::LayoutOf(mesh, sharding, type.shape().size()));
    auto call = CustomCall(*op, "Sharding", op->operand(0), type, ir::ToHloSharding(layout));
    passes::ReplaceUses(root_, op->result(0), call->result(0));
    std::vector<std::unique_ptr<ir::Operation>> ops;
    ops.push_back(std::move(call));
    ReplaceAt(block, at, op, std::move(ops));
    return Status::Ok();
  }

  // The operands cut into pieces, the body inlined on them, and its values
  // put together into the results, as XLA's custom calls say it.
  Status ExpandManual(ir::Block& block, size_t at) {
    ir::Operation* op = block.operations()[at].get();
    const ir::Block& body = op->region(0).front();
    const ir::Operation* ret = body.terminator();
    if (ret == nullptr || ret->num_operands() != op->num_results() || body.num_arguments() != op->num_operands()) {
      return Status::Error("sdy.manual_computation: a body argument per operand and a value per result");
    }
    HLOGRAPH_ASSIGN(const std::vector<std::string> in, HloShardings(module_, *op, "in_shardings", op->OperandTypes()));
    HLOGRAPH_ASSIGN(const std::vector<std::string> out, HloShardings(module_, *op, "out_shardings", op->ResultTypes()));
    std::vector<std::unique_ptr<ir::Operation>> ops;
    ir::ValueMap map;
    for (size_t i = 0; i < op->num_operands(); ++i) {
      ir::Value* operand = op->operand(i);
      ops.push_back(CustomCall(*op, "Sharding", operand, operand->type(), in[i]));
      ops.push_back(CustomCall(*op, "SPMDFullToShardShape", ops.back()->result(0), body.argument(i)->type(), kManual));
      map[body.argument(i)] = ops.back()->result(0);
    }
    for (const auto& inner : body.operations()) {
      if (inner.get() != ret) ops.push_back(ir::CloneOperation(*inner, map));
    }
    for (size_t j = 0; j < op->num_results(); ++j) {
      const ir::Value* v = ret->operand(j);
      auto it = map.find(v);
      ir::Value* piece = it != map.end() ? it->second : const_cast<ir::Value*>(v);
      ops.push_back(CustomCall(*op, "Sharding", piece, piece->type(), kManual));
      ops.push_back(CustomCall(*op, "SPMDShardToFullShape", ops.back()->result(0), op->result(j)->type(), out[j]));
      passes::ReplaceUses(root_, op->result(j), ops.back()->result(0));
    }
    ReplaceAt(block, at, op, std::move(ops));
    return Status::Ok();
  }

  const ir::Module& module_;
  ir::Block& root_;
};

}  // namespace

StatusOr<std::string> XlaProgramText(const ir::Module& module, const GridRunner::Signature& signature) {
  std::unique_ptr<ir::Module> copy = ir::CloneModule(module);
  for (ir::Operation* func : copy->Functions()) {
    if (func->num_regions() != 1 || func->region(0).empty()) continue;
    ir::Block& body = func->region(0).front();
    HLOGRAPH_TRY(Rewriter(*copy, body).Run(body));
  }
  std::vector<ir::Attribute> inputs;
  for (const std::string& s : signature.input_shardings) inputs.push_back(ir::MakeString(s));
  copy->op().SetAttr("mhlo.spmd_parameters_shardings", ir::Attribute::Make(ir::ArrayAttr{std::move(inputs)}));
  const std::vector<std::string>& results = signature.result_shardings;
  if (results.size() == 1) {
    copy->op().SetAttr("mhlo.spmd_output_sharding", ir::MakeString(results[0]));
  } else if (!results.empty()) {  // a tuple's sharding: its elements'
    std::string tuple = "{";
    for (size_t i = 0; i < results.size(); ++i) tuple += (i ? ", " : "") + results[i];
    copy->op().SetAttr("mhlo.spmd_output_sharding", ir::MakeString(tuple + "}"));
  }
  return ir::PrintModule(*copy);
}

}  // namespace hlograph::pjrt
