#include "backends/cpu/spmd_entry.h"

#include <optional>
#include <utility>

#include "backends/cpu/device_grid.h"
#include "backends/cpu/interpreter.h"
#include "backends/cpu/shard_exchange.h"
#include "ir/manual_layouts.h"

namespace hlograph::cpu {
namespace {

// A value's sharding: its own `sdy.sharding`, or, inferred, that of the
// manual computation it feeds or comes from (as XLA's propagation would
// find; when an inferred one does not fit, the value is left whole).
struct Sharding {
  ir::TensorSharding sharding;
  bool inferred = false;
};

// The `sdy.sharding` of entry i of a function's arg_attrs or res_attrs.
StatusOr<std::optional<Sharding>> Declared(const ir::Operation& func, const char* attrs, size_t i) {
  const auto* list = func.attr(attrs).as<ir::ArrayAttr>();
  if (list == nullptr || i >= list->elements.size()) return std::optional<Sharding>();
  const auto* dict = list->elements[i].as<ir::DictionaryAttr>();
  const ir::Attribute* a = dict ? ir::FindEntry(*dict, "sdy.sharding") : nullptr;
  const auto* text = a ? a->as<ir::OpaqueAttr>() : nullptr;
  if (text == nullptr) return std::optional<Sharding>();
  HLOGRAPH_ASSIGN(ir::TensorSharding sharding, ir::ParseTensorSharding(text->text));
  return std::optional<Sharding>(Sharding{std::move(sharding), false});
}

// Sharding `attr` (in_shardings, out_shardings) of a manual computation's
// value `i`.
std::optional<Sharding> OfManual(const ir::Operation& op, const char* attr, size_t i) {
  const auto* text = op.attr(attr).as<ir::OpaqueAttr>();
  auto shardings = text ? ir::ParseShardingPerValue(text->text) : StatusOr<std::vector<ir::TensorSharding>>(
                                                                      Status::Error("none"));
  if (!shardings.ok() || i >= shardings->size()) return std::nullopt;
  return Sharding{(*shardings)[i], true};
}

// The in_sharding of the manual computations that are the argument's only
// users, when they agree.
void UsesOf(const ir::Value* arg, const ir::Block& block, bool top, std::optional<Sharding>& found, bool& other) {
  for (const auto& op : block.operations()) {
    for (size_t k = 0; k < op->num_operands(); ++k) {
      if (op->operand(k) != arg) continue;
      std::optional<Sharding> s;
      if (top && op->id() == ir::OpId::kSdyManualComputation) s = OfManual(*op, "in_shardings", k);
      if (!s || (found && found->sharding.text != s->sharding.text)) other = true;
      if (s) found = s;
    }
    for (const auto& region : op->regions()) {
      for (const auto& b : region->blocks()) UsesOf(arg, *b, false, found, other);
    }
  }
}

std::optional<Sharding> Inferred(const ir::Operation& func, bool argument, size_t i) {
  if (func.num_regions() != 1 || func.region(0).empty()) return std::nullopt;
  const ir::Block& body = func.region(0).front();
  if (argument) {
    std::optional<Sharding> found;
    bool other = false;
    UsesOf(body.argument(i), body, true, found, other);
    return other ? std::nullopt : found;
  }
  const ir::Operation* ret = body.terminator();
  const ir::Value* v = ret && i < ret->num_operands() ? ret->operand(i) : nullptr;
  const ir::Operation* def = v ? v->defining_op() : nullptr;
  if (def == nullptr || def->id() != ir::OpId::kSdyManualComputation) return std::nullopt;
  return OfManual(*def, "out_shardings", v->index());
}

// The layouts and local types of the values `types` (arguments or results).
Status ReadLayouts(const ir::Module& module, const ir::Operation& func, bool arguments, int64_t devices,
                   const std::vector<ir::Type>& types, std::vector<ir::ShardLayout>& layouts,
                   std::vector<ir::Type>& local) {
  for (size_t i = 0; i < types.size(); ++i) {
    const std::string where =
        std::string(arguments ? "argument " : "result ") + std::to_string(i) + " of @" + ir::FunctionName(func);
    auto declared = Declared(func, arguments ? "arg_attrs" : "res_attrs", i);
    if (!declared.ok()) return Status::Error(where + ": " + declared.status().message());
    std::optional<Sharding> s = std::move(*declared);
    if (!s && types[i].IsTensor()) s = Inferred(func, arguments, i);
    auto layout = [&]() -> StatusOr<std::pair<ir::ShardLayout, ir::Type>> {
      HLOGRAPH_ASSIGN(const ir::Mesh mesh, ir::MeshOf(module, s->sharding));
      HLOGRAPH_ASSIGN(ir::ShardLayout l, ir::LayoutOf(mesh, s->sharding, types[i].shape().size()));
      if (!l.IsReplicated() && mesh.size() != devices) {
        return Status::Error("its mesh has " + std::to_string(mesh.size()) + " devices, the program runs on " +
                             std::to_string(devices));
      }
      HLOGRAPH_ASSIGN(const std::vector<int64_t> shape, l.LocalShape(types[i].shape()));
      return std::make_pair(std::move(l), types[i].WithShape(shape));
    };
    auto placed = s && types[i].IsTensor() ? layout() : StatusOr<std::pair<ir::ShardLayout, ir::Type>>(
                                                           Status::Error("whole"));
    if (!placed.ok() && s && !s->inferred) {
      return Status::Error(where + " (" + s->sharding.text + "): " + placed.status().message());
    }
    if (!placed.ok()) {
      layouts.push_back(ir::ShardLayout{ir::Mesh{}, std::vector<std::vector<ir::MeshFactor>>(types[i].shape().size())});
      local.push_back(types[i]);
      continue;
    }
    layouts.push_back(std::move(placed->first));
    local.push_back(std::move(placed->second));
  }
  return Status::Ok();
}

}  // namespace

StatusOr<SpmdSignature> ReadSpmdSignature(const ir::Module& module, int64_t devices) {
  const ir::Operation* entry = module.EntryFunction();
  if (entry == nullptr) return Status::Error("the program has no entry function");
  const ir::FunctionType signature = ir::FunctionSignature(*entry);
  SpmdSignature s;
  s.global_inputs = signature.inputs;
  s.global_results = signature.results;
  HLOGRAPH_TRY(ReadLayouts(module, *entry, true, devices, s.global_inputs, s.inputs, s.local_inputs));
  HLOGRAPH_TRY(ReadLayouts(module, *entry, false, devices, s.global_results, s.results, s.local_results));
  HLOGRAPH_TRY(ir::CheckManualComputations(module));
  return s;
}

StatusOr<std::vector<std::vector<Tensor>>> RunSpmd(const ir::Module& module, const SpmdSignature& signature,
                                                   int64_t replicas, int64_t partitions,
                                                   const std::vector<std::vector<Tensor>>& args,
                                                   const ProcessSpan* span) {
  const ir::Operation* entry = module.EntryFunction();
  if (entry == nullptr) return Status::Error("the program has no entry function");
  // The index in `args` of each logical id run here.
  std::vector<size_t> arg_of(static_cast<size_t>(replicas * partitions), args.size());
  if (span == nullptr) {
    for (size_t k = 0; k < arg_of.size(); ++k) arg_of[k] = k;
  } else {
    for (size_t i = 0; i < span->local.size(); ++i) {
      const int64_t id = span->local[i];
      if (id >= 0 && static_cast<size_t>(id) < arg_of.size()) arg_of[static_cast<size_t>(id)] = i;
    }
  }
  const size_t expected = span == nullptr ? arg_of.size() : span->local.size();
  if (args.size() != expected) return Status::Error("arguments per device");
  const DeviceWork work = [&](Interpreter& interpreter, size_t k) -> StatusOr<std::vector<Tensor>> {
    const DeviceContext& device = *interpreter.device();
    if (k >= arg_of.size() || arg_of[k] >= args.size()) return Status::Error("a device without arguments");
    HLOGRAPH_ASSIGN(std::vector<Tensor> inputs,
                    Assemble(device, signature.inputs, signature.global_inputs, args[arg_of[k]]));
    HLOGRAPH_ASSIGN(std::vector<Tensor> results, interpreter.Call(*entry, inputs));
    std::vector<Tensor> pieces;
    for (size_t i = 0; i < results.size() && i < signature.results.size(); ++i) {
      HLOGRAPH_ASSIGN(Tensor piece, LocalPiece(device, signature.results[i], results[i]));
      pieces.push_back(std::move(piece));
    }
    return pieces;
  };
  return RunOnGrid(module, replicas, partitions, work, {}, span);
}

}  // namespace hlograph::cpu
