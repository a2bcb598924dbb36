#include "passes/spmd/partition.h"

#include <map>
#include <unordered_map>

#include "ir/attribute.h"
#include "ir/clone.h"
#include "ir/op_def.h"
#include "ir/verifier.h"
#include "passes/inline_calls.h"
#include "passes/sink_constants.h"
#include "passes/spmd/annotations.h"
#include "passes/spmd/emitter.h"
#include "passes/spmd/rules.h"

namespace hlograph::passes {
namespace {

using spmd::DeviceSharding;
using Uses = std::unordered_map<const ir::Value*, int>;

void CountUses(const ir::Block& block, Uses& uses, int by) {
  for (const auto& op : block.operations()) {
    for (const ir::Value* v : op->operands()) uses[v] += by;
    for (const auto& region : op->regions()) {
      for (const auto& b : region->blocks()) CountUses(*b, uses, by);
    }
  }
}

void CountUses(const ir::Operation& op, Uses& uses, int by) {
  for (const ir::Value* v : op.operands()) uses[v] += by;
  for (const auto& region : op.regions()) {
    for (const auto& b : region->blocks()) CountUses(*b, uses, by);
  }
}

// Drops ops whose results nothing reads (what resharding made redundant:
// a whole broadcast remade at its pieces' size).
void RemoveDeadOps(ir::Block& block) {
  Uses uses;
  CountUses(block, uses, 1);
  for (size_t i = block.operations().size(); i-- > 0;) {
    ir::Operation* op = block.operations()[i].get();
    if (op->def().Has(ir::kTerminator) || op->def().Has(ir::kHasSideEffect) || op->num_results() == 0) continue;
    bool used = false;
    for (const auto& r : op->results()) used = used || uses[r.get()] > 0;
    if (used || op->id() == ir::OpId::kCustomCall) continue;
    CountUses(*op, uses, -1);
    block.Remove(op);
  }
}

// The entry's arg_attrs or res_attrs without their shardings.
ir::Attribute WithoutShardings(const ir::Attribute& attrs) {
  const auto* list = attrs.as<ir::ArrayAttr>();
  if (list == nullptr) return attrs;
  ir::ArrayAttr out;
  for (const ir::Attribute& a : list->elements) {
    const auto* dict = a.as<ir::DictionaryAttr>();
    if (dict == nullptr) {
      out.elements.push_back(a);
      continue;
    }
    ir::DictionaryAttr kept;
    for (const auto& entry : dict->entries) {
      if (entry.first != "sdy.sharding" && entry.first != "mhlo.sharding") kept.entries.push_back(entry);
    }
    out.elements.push_back(ir::Attribute::Make(std::move(kept)));
  }
  return ir::Attribute::Make(std::move(out));
}

class Partitioner {
 public:
  Partitioner(const ir::Module& module, ir::Operation& entry, ir::Block& block, int64_t devices)
      : module_(module), entry_(entry), old_(entry.region(0).front()), e_(block, devices), block_(block),
        devices_(devices) {}

  Status Run(SpmdProgram& out) {
    const std::string name = "@" + ir::FunctionName(entry_);
    ir::FunctionType type;
    for (size_t i = 0; i < old_.num_arguments(); ++i) {
      const ir::Value* arg = old_.argument(i);
      const std::string where = "argument " + std::to_string(i) + " of " + name;
      HLOGRAPH_ASSIGN(const DeviceSharding s, Declared(false, i, where));
      auto shape = s.LocalShape(arg->type().shape());
      if (!shape.ok()) return Status::Error(where + ": " + shape.status().message());
      ir::Value* local = block_.AddArgument(arg->type().WithShape(*shape), arg->name_hint());
      block_.argument_locs().back() = old_.argument_locs()[i];
      e_.SetSharding(local, s);
      map_[arg] = local;
      type.inputs.push_back(local->type());
      out.input_shardings.push_back(s.ToHlo());
    }
    HLOGRAPH_TRY(FindWanted(name));
    for (const auto& op : old_.operations()) {
      e_.set_origin(*op);
      if (op->id() == ir::OpId::kFuncReturn) {
        HLOGRAPH_TRY(Return(*op, name, type, out));
        continue;
      }
      HLOGRAPH_TRY(Partition(*op));
    }
    entry_.SetAttr("function_type", ir::Attribute::Make(ir::FunctionTypeAttr{type}));
    if (entry_.attr("arg_attrs")) entry_.SetAttr("arg_attrs", WithoutShardings(entry_.attr("arg_attrs")));
    if (entry_.attr("res_attrs")) entry_.SetAttr("res_attrs", WithoutShardings(entry_.attr("res_attrs")));
    for (const auto& [op, n] : e_.counts()) out.summary += (out.summary.empty() ? "" : ", ") + std::to_string(n) + " " + op;
    if (out.summary.empty()) out.summary = "no collectives";
    std::string whole;
    for (const auto& [op, n] : e_.whole()) whole += (whole.empty() ? "" : ", ") + op + (n > 1 ? " x" + std::to_string(n) : "");
    if (!whole.empty()) out.summary += "; computed whole: " + whole;
    return Status::Ok();
  }

 private:
  StatusOr<DeviceSharding> Declared(bool result, size_t i, const std::string& where) {
    auto declared = spmd::DeclaredSharding(module_, entry_, result, i, devices_);
    if (!declared.ok()) return Status::Error(where + ": " + declared.status().message());
    if (*declared) return (*declared)->sharding;
    const ir::FunctionType signature = ir::FunctionSignature(entry_);
    const auto& types = result ? signature.results : signature.inputs;
    if (i >= types.size() || !types[i].IsTensor()) return Status::Error(where + " is no tensor");
    return DeviceSharding::Replicated(types[i].shape().size(), devices_);
  }

  // The shardings that the only reader of a value asks for: a result's or a
  // constraint's (a dot's partial sums can be scattered straight into them).
  Status FindWanted(const std::string& name) {
    Uses uses;
    CountUses(old_, uses, 1);
    for (const auto& op : old_.operations()) {
      if (op->id() == ir::OpId::kFuncReturn) {
        for (size_t i = 0; i < op->num_operands(); ++i) {
          auto declared = spmd::DeclaredSharding(module_, entry_, true, i, devices_);
          if (!declared.ok()) {
            return Status::Error("result " + std::to_string(i) + " of " + name + ": " + declared.status().message());
          }
          if (*declared && uses[op->operand(i)] == 1) wanted_[op->operand(i)] = (*declared)->sharding;
        }
      } else if (spmd::IsShardingConstraint(*op) && uses[op->operand(0)] == 1) {
        auto s = spmd::OpSharding(module_, *op, devices_);
        if (s.ok() && *s) wanted_[op->operand(0)] = (*s)->sharding;
      }
    }
    return Status::Ok();
  }

  Status Return(const ir::Operation& op, const std::string& name, ir::FunctionType& type, SpmdProgram& out) {
    std::vector<ir::Value*> values;
    for (size_t i = 0; i < op.num_operands(); ++i) {
      ir::Value* v = map_.at(op.operand(i));
      auto declared = spmd::DeclaredSharding(module_, entry_, true, i, devices_);
      if (!declared.ok()) {
        return Status::Error("result " + std::to_string(i) + " of " + name + ": " + declared.status().message());
      }
      if (*declared) {
        auto moved = e_.Reshard(v, (*declared)->sharding);
        if (!moved.ok()) {
          return Status::Error("result " + std::to_string(i) + " of " + name + " (" + (*declared)->text +
                               "): " + moved.status().message());
        }
        v = *moved;
      }
      values.push_back(v);
      type.results.push_back(v->type());
      out.result_shardings.push_back(e_.ShardingOf(v).ToHlo());
    }
    e_.Copy(op, values, {});
    return Status::Ok();
  }

  Status Partition(const ir::Operation& op) {
    std::vector<ir::Value*> operands;
    for (const ir::Value* v : op.operands()) operands.push_back(map_.at(v));
    StatusOr<std::vector<ir::Value*>> results = Dispatch(op, operands);
    if (!results.ok()) {
      const std::string& m = results.status().message();
      if (m.rfind("cannot partition", 0) == 0) return results.status();
      return Status::Error("cannot partition " + spmd::Describe(e_, op, operands) + ": " + m);
    }
    if (results->size() != op.num_results()) return Status::Error("a rule lost results of '" + op.name() + "'");
    if (!spmd::IsShardingConstraint(op)) {
      auto asked = spmd::OpSharding(module_, op, devices_);
      if (!asked.ok()) return Status::Error("cannot partition " + spmd::Describe(e_, op, operands) + ": " + asked.status().message());
      if (*asked) {
        HLOGRAPH_ASSIGN((*results)[0], e_.Reshard((*results)[0], (*asked)->sharding));
      }
    }
    for (size_t k = 0; k < op.num_results(); ++k) map_[op.result(k)] = (*results)[k];
    return Status::Ok();
  }

  StatusOr<std::vector<ir::Value*>> Dispatch(const ir::Operation& op, const spmd::Operands& operands) {
    const ir::OpId n = op.id();
    if (spmd::IsShardingConstraint(op)) {
      HLOGRAPH_ASSIGN(const auto asked, spmd::OpSharding(module_, op, devices_));
      if (!asked) return std::vector<ir::Value*>{operands[0]};
      HLOGRAPH_ASSIGN(ir::Value * v, e_.Reshard(operands[0], asked->sharding));
      return std::vector<ir::Value*>{v};
    }
    if (n == ir::OpId::kSdyShardingGroup) return std::vector<ir::Value*>{};
    if (n == ir::OpId::kSdyPropagationBarrier) return std::vector<ir::Value*>{operands[0]};
    if (op.def().Has(ir::kElementwise) || n == ir::OpId::kSelect || n == ir::OpId::kClamp) {
      return spmd::Elementwise(e_, op, operands);
    }
    if (n == ir::OpId::kBroadcastInDim) return spmd::BroadcastInDim(e_, op, operands);
    if (n == ir::OpId::kTranspose) return spmd::Transpose(e_, op, operands);
    if (n == ir::OpId::kReshape) return spmd::Reshape(e_, op, operands);
    if (n == ir::OpId::kReduce) return spmd::Reduce(e_, op, operands);
    if (n == ir::OpId::kSlice) return spmd::Slice(e_, op, operands);
    if (n == ir::OpId::kDynamicSlice) return spmd::DynamicSlice(e_, op, operands);
    if (n == ir::OpId::kDynamicUpdateSlice) return spmd::DynamicUpdateSlice(e_, op, operands);
    if (n == ir::OpId::kConcatenate) return spmd::Concatenate(e_, op, operands);
    if (n == ir::OpId::kPad) return spmd::Pad(e_, op, operands);
    if (n == ir::OpId::kReverse) return spmd::Reverse(e_, op, operands);
    if (n == ir::OpId::kSort) return spmd::Sort(e_, op, operands);
    if (n == ir::OpId::kReduceWindow) return spmd::ReduceWindow(e_, op, operands);
    if (n == ir::OpId::kGather) return spmd::Gather(e_, op, operands);
    if (n == ir::OpId::kScatter) return spmd::Scatter(e_, op, operands);
    if (n == ir::OpId::kConvolution) return spmd::Convolution(e_, op, operands);
    if (n == ir::OpId::kWhile) return While(op, operands);
    if (n == ir::OpId::kFft) {
      const auto* lengths = op.attr("fft_length").as<ir::DenseArrayAttr>();
      if (lengths != nullptr) return spmd::AlongTrailingDims(e_, op, operands, lengths->values.size());
    }
    if (n == ir::OpId::kCholesky || n == ir::OpId::kTriangularSolve) {
      return spmd::AlongTrailingDims(e_, op, operands, 2);
    }
    if (n == ir::OpId::kDotGeneral) {
      auto it = wanted_.find(op.result(0));
      return spmd::DotGeneral(e_, op, operands, it != wanted_.end() ? &it->second : nullptr);
    }
    return spmd::ComputeWhole(e_, op, operands);
  }

  // A loop partitioned as it is: its carried values keep the shardings
  // their initial values have, its condition and body are partitioned op
  // by op, and the body's next values are laid out as the carried ones
  // (what it cannot keep is resharded once an iteration). Values the
  // regions read from outside are read as partitioned before the loop.
  StatusOr<std::vector<ir::Value*>> While(const ir::Operation& op, const spmd::Operands& operands) {
    if (op.num_regions() != 2) return spmd::ComputeWhole(e_, op, operands);
    std::vector<DeviceSharding> carried;
    for (ir::Value* v : operands) carried.push_back(e_.ShardingOf(v));
    auto loop = std::make_unique<ir::Operation>(&op.def(), op.pos());
    loop->set_loc(op.loc());
    for (ir::Value* v : operands) loop->AddOperand(v);
    for (ir::Value* v : operands) loop->AddResult(v->type());
    for (size_t r = 0; r < 2; ++r) {
      const ir::Block& old_block = op.region(r).front();
      ir::Block* block = loop->AddRegion()->AddBlock();
      for (size_t i = 0; i < old_block.num_arguments(); ++i) {
        ir::Value* arg = block->AddArgument(operands[i]->type(), old_block.argument(i)->name_hint());
        block->argument_locs().back() = old_block.argument_locs()[i];
        e_.SetSharding(arg, carried[i]);
        map_[old_block.argument(i)] = arg;
      }
      const spmd::Emitter::Scope scope(e_, *block);
      for (const auto& inner : old_block.operations()) {
        e_.set_origin(*inner);
        if (inner->id() != ir::OpId::kReturn) {
          HLOGRAPH_TRY(Partition(*inner));
          continue;
        }
        std::vector<ir::Value*> values;
        for (size_t i = 0; i < inner->num_operands(); ++i) {
          ir::Value* v = map_.at(inner->operand(i));
          const DeviceSharding want =
              r == 1 ? carried[i] : DeviceSharding::Replicated(v->type().shape().size(), devices_);
          HLOGRAPH_ASSIGN(v, e_.Reshard(v, want));
          values.push_back(v);
        }
        e_.Copy(*inner, values, {});
      }
    }
    e_.set_origin(op);
    ir::Operation* partitioned = e_.Append(std::move(loop));
    std::vector<ir::Value*> results;
    for (size_t i = 0; i < partitioned->num_results(); ++i) {
      e_.SetSharding(partitioned->result(i), carried[i]);
      results.push_back(partitioned->result(i));
    }
    return results;
  }

  const ir::Module& module_;
  ir::Operation& entry_;
  const ir::Block& old_;
  spmd::Emitter e_;
  ir::Block& block_;
  const int64_t devices_;
  ir::ValueMap map_;
  std::unordered_map<const ir::Value*, DeviceSharding> wanted_;
};

bool HasManual(const ir::Block& block) {
  for (const auto& op : block.operations()) {
    if (op->id() == ir::OpId::kSdyManualComputation) return true;
    if (op->id() == ir::OpId::kCustomCall) {
      const auto* target = op->attr("call_target_name").as<ir::StringAttr>();
      if (target && (target->value == "SPMDFullToShardShape" || target->value == "SPMDShardToFullShape")) return true;
    }
    for (const auto& region : op->regions()) {
      for (const auto& b : region->blocks()) {
        if (HasManual(*b)) return true;
      }
    }
  }
  return false;
}

}  // namespace

bool HasManualComputations(const ir::Module& module) {
  for (const ir::Operation* f : module.Functions()) {
    if (f->num_regions() == 1 && !f->region(0).empty() && HasManual(f->region(0).front())) return true;
  }
  return false;
}

StatusOr<SpmdProgram> PartitionSpmd(const ir::Module& module, int64_t devices) {
  SpmdProgram out;
  out.module = ir::CloneModule(module);
  HLOGRAPH_TRY(InlineCalls(*out.module));
  // Serialized programs read their comparators' and bodies' constants from
  // the enclosing function; copied back in, the bodies can be copied into
  // the per-device program as they are.
  SinkConstantsIntoBodies(*out.module);
  ir::Operation* entry = out.module->EntryFunction();
  if (entry == nullptr || entry->num_regions() != 1 || entry->region(0).blocks().size() != 1) {
    return Status::Error("the program has no entry function of one block");
  }
  ir::Region& body = entry->region(0);
  ir::Block* block = body.AddBlock();
  HLOGRAPH_TRY(Partitioner(*out.module, *entry, *block, devices).Run(out));
  body.blocks().erase(body.blocks().begin());  // the global program's block
  RemoveDeadOps(*block);
  // Only the entry was partitioned: other functions (inlined now) would
  // still speak of global shapes.
  for (ir::Operation* f : out.module->Functions()) {
    if (f != entry) out.module->body().Remove(f);
  }
  HLOGRAPH_TRY(ir::VerifyModule(*out.module));
  return out;
}

}  // namespace hlograph::passes
