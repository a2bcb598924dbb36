#include "passes/spmd/annotations.h"

#include "ir/attribute.h"
#include "ir/hlo_sharding.h"
#include "ir/sharding.h"

namespace hlograph::passes::spmd {
namespace {

StatusOr<DeviceSharding> FromShardy(const ir::Module& module, const ir::TensorSharding& t, size_t rank,
                                    int64_t devices) {
  HLOGRAPH_ASSIGN(const ir::Mesh mesh, ir::MeshOf(module, t));
  HLOGRAPH_ASSIGN(const ir::ShardLayout layout, ir::LayoutOf(mesh, t, rank));
  return FromLayout(layout, devices);
}

}  // namespace

StatusOr<Annotation> ReadSharding(const ir::Module& module, const ir::Attribute& attr, size_t rank, int64_t devices) {
  if (const auto* opaque = attr.as<ir::OpaqueAttr>()) {
    auto read = [&]() -> StatusOr<DeviceSharding> {
      HLOGRAPH_ASSIGN(const ir::TensorSharding t, ir::ParseTensorSharding(opaque->text));
      return FromShardy(module, t, rank, devices);
    }();
    if (!read.ok()) return Status::Error(opaque->text + ": " + read.status().message());
    return Annotation{std::move(*read), opaque->text};
  }
  if (const auto* text = attr.as<ir::StringAttr>()) {
    auto read = [&]() -> StatusOr<DeviceSharding> {
      HLOGRAPH_ASSIGN(const ir::HloTileSharding hlo, ir::ParseHloSharding(text->value));
      return FromHlo(hlo, rank, devices);
    }();
    if (!read.ok()) return Status::Error(text->value + ": " + read.status().message());
    return Annotation{std::move(*read), text->value};
  }
  return Status::Error("a sharding attribute that is neither Shardy's nor GSPMD's");
}

StatusOr<std::optional<Annotation>> DeclaredSharding(const ir::Module& module, const ir::Operation& func, bool result,
                                                     size_t i, int64_t devices) {
  const auto* list = func.attr(result ? "res_attrs" : "arg_attrs").as<ir::ArrayAttr>();
  if (list == nullptr || i >= list->elements.size()) return std::optional<Annotation>();
  const auto* dict = list->elements[i].as<ir::DictionaryAttr>();
  if (dict == nullptr) return std::optional<Annotation>();
  const ir::Attribute* a = ir::FindEntry(*dict, "sdy.sharding");
  if (a == nullptr) a = ir::FindEntry(*dict, "mhlo.sharding");
  if (a == nullptr) return std::optional<Annotation>();
  const ir::FunctionType signature = ir::FunctionSignature(func);
  const auto& types = result ? signature.results : signature.inputs;
  if (i >= types.size() || !types[i].IsTensor()) return Status::Error("a sharding on a value that is no tensor");
  HLOGRAPH_ASSIGN(Annotation annotation, ReadSharding(module, *a, types[i].shape().size(), devices));
  return std::optional<Annotation>(std::move(annotation));
}

bool IsShardingConstraint(const ir::Operation& op) {
  if (op.id() == ir::OpId::kSdyShardingConstraint || op.id() == ir::OpId::kSdyReshard) return true;
  if (op.id() != ir::OpId::kCustomCall) return false;
  const auto* target = op.attr("call_target_name").as<ir::StringAttr>();
  return target != nullptr && target->value == "Sharding";
}

StatusOr<std::optional<Annotation>> OpSharding(const ir::Module& module, const ir::Operation& op, int64_t devices) {
  if (op.num_results() != 1 || !op.result(0)->type().IsTensor()) return std::optional<Annotation>();
  const size_t rank = op.result(0)->type().shape().size();
  ir::Attribute attr = op.attr("sharding");
  if (!attr || !IsShardingConstraint(op)) attr = op.attr("mhlo.sharding");
  if (!attr) {
    // `#sdy.sharding_per_value<[<@mesh, [...]>]>` of its one result.
    const auto* per_value = op.attr("sdy.sharding").as<ir::OpaqueAttr>();
    if (per_value == nullptr) return std::optional<Annotation>();
    HLOGRAPH_ASSIGN(const std::vector<ir::TensorSharding> all, ir::ParseShardingPerValue(per_value->text));
    if (all.size() != 1) return Status::Error(per_value->text + ": a sharding per result");
    auto read = FromShardy(module, all[0], rank, devices);
    if (!read.ok()) return Status::Error(all[0].text + ": " + read.status().message());
    return std::optional<Annotation>(Annotation{std::move(*read), all[0].text});
  }
  HLOGRAPH_ASSIGN(Annotation annotation, ReadSharding(module, attr, rank, devices));
  return std::optional<Annotation>(std::move(annotation));
}

}  // namespace hlograph::passes::spmd
