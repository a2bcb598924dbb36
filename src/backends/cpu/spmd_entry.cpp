#include "backends/cpu/spmd_entry.h"

#include "backends/cpu/device_grid.h"
#include "backends/cpu/interpreter.h"
#include "backends/cpu/shard_exchange.h"

namespace hlograph::cpu {
namespace {

// The `sdy.sharding` of entry i of a function's arg_attrs or res_attrs.
const ir::OpaqueAttr* ShardingAttr(const ir::Operation& func, const char* attrs, size_t i) {
  const auto* list = func.attr(attrs).as<ir::ArrayAttr>();
  if (list == nullptr || i >= list->elements.size()) return nullptr;
  const auto* dict = list->elements[i].as<ir::DictionaryAttr>();
  const ir::Attribute* s = dict ? ir::FindEntry(*dict, "sdy.sharding") : nullptr;
  return s ? s->as<ir::OpaqueAttr>() : nullptr;
}

// The layouts and local types of the values `types` (what = "argument" or
// "result").
Status ReadLayouts(const ir::Module& module, const ir::Operation& func, const char* attrs, const char* what,
                   int64_t devices, const std::vector<ir::Type>& types, std::vector<ir::ShardLayout>& layouts,
                   std::vector<ir::Type>& local) {
  for (size_t i = 0; i < types.size(); ++i) {
    const std::string where = std::string(what) + " " + std::to_string(i) + " of @" + ir::FunctionName(func);
    const ir::OpaqueAttr* text = ShardingAttr(func, attrs, i);
    if (text == nullptr || !types[i].IsTensor()) {
      layouts.push_back(ir::ShardLayout{ir::Mesh{}, std::vector<std::vector<ir::MeshFactor>>(types[i].shape().size())});
      local.push_back(types[i]);
      continue;
    }
    auto fail = [&](const Status& s) { return Status::Error(where + " (" + text->text + "): " + s.message()); };
    auto sharding = ir::ParseTensorSharding(text->text);
    if (!sharding.ok()) return fail(sharding.status());
    auto mesh = ir::MeshOf(module, *sharding);
    if (!mesh.ok()) return fail(mesh.status());
    auto layout = ir::LayoutOf(*mesh, *sharding, types[i].shape().size());
    if (!layout.ok()) return fail(layout.status());
    if (!layout->IsReplicated() && mesh->size() != devices) {
      return fail(Status::Error("its mesh has " + std::to_string(mesh->size()) + " devices, the program runs on " +
                                std::to_string(devices)));
    }
    auto shape = layout->LocalShape(types[i].shape());
    if (!shape.ok()) return fail(shape.status());
    local.push_back(types[i].WithShape(*shape));
    layouts.push_back(std::move(*layout));
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
  HLOGRAPH_TRY(ReadLayouts(module, *entry, "arg_attrs", "argument", devices, s.global_inputs, s.inputs,
                           s.local_inputs));
  HLOGRAPH_TRY(ReadLayouts(module, *entry, "res_attrs", "result", devices, s.global_results, s.results,
                           s.local_results));
  return s;
}

StatusOr<std::vector<std::vector<Tensor>>> RunSpmd(const ir::Module& module, const SpmdSignature& signature,
                                                   int64_t replicas, int64_t partitions,
                                                   const std::vector<std::vector<Tensor>>& args) {
  const ir::Operation* entry = module.EntryFunction();
  if (entry == nullptr) return Status::Error("the program has no entry function");
  if (static_cast<int64_t>(args.size()) != replicas * partitions) return Status::Error("arguments per device");
  const DeviceWork work = [&](Interpreter& interpreter, size_t k) -> StatusOr<std::vector<Tensor>> {
    const DeviceContext& device = *interpreter.device();
    HLOGRAPH_ASSIGN(std::vector<Tensor> inputs, Assemble(device, signature.inputs, signature.global_inputs, args[k]));
    HLOGRAPH_ASSIGN(std::vector<Tensor> results, interpreter.Call(*entry, inputs));
    std::vector<Tensor> pieces;
    for (size_t i = 0; i < results.size() && i < signature.results.size(); ++i) {
      HLOGRAPH_ASSIGN(Tensor piece, LocalPiece(device, signature.results[i], results[i]));
      pieces.push_back(std::move(piece));
    }
    return pieces;
  };
  return RunOnGrid(module, replicas, partitions, work);
}

}  // namespace hlograph::cpu
