#include "frontend/bytecode/vhlo_to_stablehlo.h"

#include <algorithm>
#include <cstring>

#include "frontend/bytecode/attr_conversion.h"
#include "frontend/bytecode/vhlo_ops.h"

namespace hlograph::frontend::bytecode {
namespace {

using Kind = DecodedAttr::Kind;

// The op's attributes by name, consumed as they are converted.
class AttrBag {
 public:
  explicit AttrBag(const std::vector<std::pair<std::string, AttrPtr>>& attrs) : attrs_(attrs) {}
  const DecodedAttr* Get(const std::string& name) const {
    for (const auto& [n, a] : attrs_) {
      if (n == name) return a.get();
    }
    return nullptr;
  }
  void Erase(const std::string& name) {
    std::erase_if(attrs_, [&](const auto& entry) { return entry.first == name; });
  }
  const std::vector<std::pair<std::string, AttrPtr>>& all() const { return attrs_; }

 private:
  std::vector<std::pair<std::string, AttrPtr>> attrs_;
};

bool IsBool(const DecodedAttr* a, bool value) { return a && a->kind == Kind::kBool && a->value == value; }
bool IsInteger(const DecodedAttr* a, int64_t value) { return a && a->kind == Kind::kInteger && a->integer == value; }
bool IsEmptyArray(const DecodedAttr* a) { return a && a->kind == Kind::kArray && a->elements.empty(); }
bool IsEmptyDict(const DecodedAttr* a) { return a && a->kind == Kind::kDict && a->elements.empty(); }
bool IsString(const DecodedAttr* a, const char* value) { return a && a->kind == Kind::kString && a->text == value; }
bool IsEmptyTensor(const DecodedAttr* a) { return a && a->kind == Kind::kTensor && a->bytes.empty(); }
bool IsEnum(const DecodedAttr* a, const char* value) { return a && a->kind == Kind::kEnum && a->text == value; }
bool IsNoneType(const DecodedAttr* a) {
  return a == nullptr || (a->kind == Kind::kType && a->type->kind == DecodedType::Kind::kNone);
}
// Every element is `value` (true for an empty array, as StableHLO's rule).
bool IsSplatEnumArray(const DecodedAttr* a, const char* value) {
  return a && a->kind == Kind::kArray &&
         std::all_of(a->elements.begin(), a->elements.end(), [&](const AttrPtr& e) { return IsEnum(e.get(), value); });
}
// A tensor stored as one repeated element equal to `value`.
bool IsSplatTensor(const DecodedAttr* a, int64_t value) {
  if (a == nullptr || a->kind != Kind::kTensor) return false;
  auto dense = ConvertDense(*a, "");
  if (!dense.ok() || !dense->splat) return false;
  auto ints = TensorInts(*a, "");
  return ints.ok() && !ints->empty() && (*ints)[0] == value;
}
bool IsDefaultAccuracy(const DecodedAttr* a) {
  return a && a->kind == Kind::kResultAccuracy && a->atol_bits == 0 && a->rtol_bits == 0 && a->integer == 0 &&
         a->text == "DEFAULT";
}

std::string BaseName(const std::string& vhlo_name) {
  std::string base = vhlo_name.substr(5);  // drop "vhlo."
  size_t v = base.rfind("_v");
  if (v != std::string::npos && v + 2 < base.size() &&
      std::all_of(base.begin() + static_cast<std::ptrdiff_t>(v) + 2, base.end(), ::isdigit)) {
    base.resize(v);
  }
  return base;
}

bool OneOf(const std::string& s, std::initializer_list<const char*> names) {
  return std::any_of(names.begin(), names.end(), [&](const char* n) { return s == n; });
}

// Drops the attributes whose value VHLO spells out only because it has no
// defaults, as StableHLO's VHLO-to-StableHLO conversion does.
void RemoveDefaults(const std::string& op, AttrBag& bag) {
  auto erase_if = [&](const char* name, bool is_default) {
    if (is_default) bag.Erase(name);
  };
  if (op == "func") {
    erase_if("sym_visibility", IsString(bag.Get("sym_visibility"), ""));
    erase_if("arg_attrs", IsEmptyArray(bag.Get("arg_attrs")));
    erase_if("res_attrs", IsEmptyArray(bag.Get("res_attrs")));
  }
  if (OneOf(op, {"all_gather", "all_reduce", "reduce_scatter"})) {
    erase_if("use_global_device_ids", IsBool(bag.Get("use_global_device_ids"), false));
  }
  if (OneOf(op, {"all_gather", "all_reduce", "reduce_scatter", "all_to_all", "collective_permute",
                 "collective_broadcast"})) {
    erase_if("channel_id", IsInteger(bag.Get("channel_id"), 0));
  }
  if (op == "cholesky") erase_if("lower", IsBool(bag.Get("lower"), false));
  if (op == "compare") erase_if("compare_type", IsEnum(bag.Get("compare_type"), "NOTYPE"));
  if (op == "composite") {
    erase_if("version", IsInteger(bag.Get("version"), 0));
    erase_if("composite_attributes", IsEmptyDict(bag.Get("composite_attributes")));
  }
  if (OneOf(op, {"convolution", "dynamic_conv"})) {
    erase_if("window_strides", IsSplatTensor(bag.Get("window_strides"), 1));
    erase_if("padding", IsSplatTensor(bag.Get("padding"), 0));
    erase_if("lhs_dilation", IsSplatTensor(bag.Get("lhs_dilation"), 1));
    erase_if("rhs_dilation", IsSplatTensor(bag.Get("rhs_dilation"), 1));
    erase_if("window_reversal", IsSplatTensor(bag.Get("window_reversal"), 0));
  }
  if (OneOf(op, {"convolution", "dynamic_conv", "dot_general", "dot"})) {
    erase_if("precision_config", IsSplatEnumArray(bag.Get("precision_config"), "DEFAULT"));
  }
  if (op == "custom_call") {
    erase_if("has_side_effect", IsBool(bag.Get("has_side_effect"), false));
    erase_if("backend_config", IsString(bag.Get("backend_config"), ""));
    erase_if("api_version", IsEnum(bag.Get("api_version"), "1"));
    for (const char* name : {"called_computations", "operand_layouts", "result_layouts", "output_operand_aliases",
                             "result_tilings"}) {
      erase_if(name, IsEmptyArray(bag.Get(name)));
    }
  }
  if (op == "dynamic_broadcast_in_dim") {
    erase_if("known_expanding_dimensions", IsEmptyTensor(bag.Get("known_expanding_dimensions")));
    erase_if("known_nonexpanding_dimensions", IsEmptyTensor(bag.Get("known_nonexpanding_dimensions")));
  }
  if (OneOf(op, {"gather", "dynamic_gather", "scatter"})) {
    erase_if("indices_are_sorted", IsBool(bag.Get("indices_are_sorted"), false));
  }
  if (op == "scatter") erase_if("unique_indices", IsBool(bag.Get("unique_indices"), false));
  if (op == "infeed") {
    erase_if("infeed_config", IsString(bag.Get("infeed_config"), ""));
    erase_if("layout", IsEmptyArray(bag.Get("layout")));
  }
  if (op == "outfeed") erase_if("outfeed_config", IsString(bag.Get("outfeed_config"), ""));
  if (OneOf(op, {"send", "recv"})) {
    erase_if("is_host_transfer", IsBool(bag.Get("is_host_transfer"), false));
    erase_if("source_target_pairs", IsEmptyTensor(bag.Get("source_target_pairs")));
  }
  if (op == "reduce_window") {
    erase_if("window_strides", IsSplatTensor(bag.Get("window_strides"), 1));
    erase_if("base_dilations", IsSplatTensor(bag.Get("base_dilations"), 1));
    erase_if("window_dilations", IsSplatTensor(bag.Get("window_dilations"), 1));
    erase_if("padding", IsSplatTensor(bag.Get("padding"), 0));
  }
  if (op == "select_and_scatter") {
    erase_if("window_strides", IsSplatTensor(bag.Get("window_strides"), 1));
    erase_if("padding", IsSplatTensor(bag.Get("padding"), 0));
  }
  if (op == "sort") {
    erase_if("dimension", IsInteger(bag.Get("dimension"), -1));
    erase_if("is_stable", IsBool(bag.Get("is_stable"), false));
  }
  erase_if("result_accuracy", IsDefaultAccuracy(bag.Get("result_accuracy")));
}

class Converter {
 public:
  Converter(std::string where, AttrBag& bag, ConvertedOp& out) : where_(std::move(where)), bag_(bag), out_(out) {}

  std::string What(const std::string& name) const { return where_ + ", attribute '" + name + "'"; }
  Status Missing(const std::string& name) const {
    return Status::Error("bytecode: " + where_ + ": expected attribute '" + name + "'");
  }

  // The integers of a tensor attribute (absent: none, for attributes a
  // later VHLO version added).
  Status Ints(const std::string& name, std::vector<int64_t>& out, bool optional = false) {
    const DecodedAttr* a = bag_.Get(name);
    if (a == nullptr) return optional ? Status::Ok() : Missing(name);
    HLOGRAPH_ASSIGN(out, TensorInts(*a, What(name)));
    bag_.Erase(name);
    return Status::Ok();
  }
  Status Int(const std::string& name, int64_t& out) {
    const DecodedAttr* a = bag_.Get(name);
    if (a == nullptr) return Missing(name);
    if (a->kind != Kind::kInteger) return Status::Error("bytecode: " + What(name) + ": expected an integer");
    out = a->integer;
    bag_.Erase(name);
    return Status::Ok();
  }
  void Add(const std::string& name, ir::Attribute value) { out_.attrs.emplace_back(name, std::move(value)); }

  Status Implode(const std::string& op) {
    if (op == "dot_general") {
      ir::DotDimsAttr dims;
      HLOGRAPH_TRY(Ints("lhs_batching_dimensions", dims.lhs_batching));
      HLOGRAPH_TRY(Ints("rhs_batching_dimensions", dims.rhs_batching));
      HLOGRAPH_TRY(Ints("lhs_contracting_dimensions", dims.lhs_contracting));
      HLOGRAPH_TRY(Ints("rhs_contracting_dimensions", dims.rhs_contracting));
      Add("dot_dimension_numbers", ir::Attribute::Make(std::move(dims)));
      HLOGRAPH_TRY(DotAlgorithm());
    }
    if (op == "gather" || op == "dynamic_gather") {
      ir::GatherDimsAttr dims;
      HLOGRAPH_TRY(Ints("offset_dims", dims.offset_dims));
      HLOGRAPH_TRY(Ints("collapsed_slice_dims", dims.collapsed_slice_dims));
      HLOGRAPH_TRY(Ints("operand_batching_dims", dims.operand_batching_dims, true));
      HLOGRAPH_TRY(Ints("start_indices_batching_dims", dims.start_indices_batching_dims, true));
      HLOGRAPH_TRY(Ints("start_index_map", dims.start_index_map));
      HLOGRAPH_TRY(Int("index_vector_dim", dims.index_vector_dim));
      Add("dimension_numbers", ir::Attribute::Make(std::move(dims)));
    }
    if (op == "scatter") {
      ir::ScatterDimsAttr dims;
      HLOGRAPH_TRY(Ints("update_window_dims", dims.update_window_dims));
      HLOGRAPH_TRY(Ints("inserted_window_dims", dims.inserted_window_dims));
      HLOGRAPH_TRY(Ints("input_batching_dims", dims.input_batching_dims, true));
      HLOGRAPH_TRY(Ints("scatter_indices_batching_dims", dims.scatter_indices_batching_dims, true));
      HLOGRAPH_TRY(Ints("scatter_dims_to_operand_dims", dims.scatter_dims_to_operand_dims));
      HLOGRAPH_TRY(Int("index_vector_dim", dims.index_vector_dim));
      Add("scatter_dimension_numbers", ir::Attribute::Make(std::move(dims)));
    }
    if (op == "convolution" || op == "dynamic_conv") {
      ir::ConvDimsAttr dims;
      HLOGRAPH_TRY(Int("input_batch_dimension", dims.input_batch));
      HLOGRAPH_TRY(Int("input_feature_dimension", dims.input_feature));
      HLOGRAPH_TRY(Ints("input_spatial_dimensions", dims.input_spatial));
      HLOGRAPH_TRY(Int("kernel_input_feature_dimension", dims.kernel_input_feature));
      HLOGRAPH_TRY(Int("kernel_output_feature_dimension", dims.kernel_output_feature));
      HLOGRAPH_TRY(Ints("kernel_spatial_dimensions", dims.kernel_spatial));
      HLOGRAPH_TRY(Int("output_batch_dimension", dims.output_batch));
      HLOGRAPH_TRY(Int("output_feature_dimension", dims.output_feature));
      HLOGRAPH_TRY(Ints("output_spatial_dimensions", dims.output_spatial));
      Add("dimension_numbers", ir::Attribute::Make(std::move(dims)));
    }
    if (op == "send" || op == "recv") {
      ir::ChannelHandleAttr handle;
      HLOGRAPH_TRY(Int("channel_id", handle.handle));
      HLOGRAPH_TRY(Int("channel_type", handle.type));
      Add("channel_handle", ir::Attribute::Make(handle));
    }
    if (OneOf(op, {"all_gather", "all_reduce", "reduce_scatter", "all_to_all", "collective_permute",
                   "collective_broadcast"})) {
      if (bag_.Get("channel_id") != nullptr) {
        ir::ChannelHandleAttr handle;
        HLOGRAPH_TRY(Int("channel_id", handle.handle));
        Add("channel_handle", ir::Attribute::Make(handle));
      }
      if (const DecodedAttr* ids = bag_.Get("use_global_device_ids")) {
        if (ids->kind != Kind::kBool) return Status::Error("bytecode: " + What("use_global_device_ids") + ": expected a bool");
        if (ids->value) Add("use_global_device_ids", ir::Attribute::Make(ir::UnitAttr{}));
        bag_.Erase("use_global_device_ids");
      }
    }
    return Status::Ok();
  }

  // dot_general_v2's algorithm, spelled as StableHLO prints it; absent when
  // every part is VHLO's none.
  Status DotAlgorithm() {
    const char* parts[] = {"lhs_precision_type", "rhs_precision_type", "accumulation_type", "lhs_component_count",
                           "rhs_component_count", "num_primitive_operations", "allow_imprecise_accumulation"};
    bool any = false;
    for (const char* p : parts) any = any || !IsNoneType(bag_.Get(p));
    if (any) {
      std::string text = "#stablehlo.dot_algorithm<";
      for (size_t i = 0; i < 7; ++i) {
        const DecodedAttr* a = bag_.Get(parts[i]);
        if (a == nullptr) return Missing(parts[i]);
        std::string value;
        if (a->kind == Kind::kType) {
          if (a->type->kind != DecodedType::Kind::kElement) return Status::Error("bytecode: " + What(parts[i]) + ": expected an element type");
          value = std::string(ir::ElementTypeName(a->type->element));
        } else if (a->kind == Kind::kInteger) {
          value = std::to_string(a->integer);
        } else if (a->kind == Kind::kBool) {
          value = a->value ? "true" : "false";
        } else {
          return Status::Error("bytecode: " + What(parts[i]) + ": expected a type, integer or bool");
        }
        text += std::string(i ? ", " : "") + parts[i] + " = " + value;
      }
      Add("algorithm", ir::Attribute::Make(ir::OpaqueAttr{text + ">"}));
    }
    for (const char* p : parts) bag_.Erase(p);
    return Status::Ok();
  }

  // The remaining attributes, each as the op's declaration asks.
  Status ConvertRest() {
    for (const auto& [name, attr] : bag_.all()) {
      const ir::AttrSpec* spec = out_.def->FindAttr(name);
      ir::AttrKind kind = spec ? spec->kind : ir::AttrKind::kAny;
      ir::Attribute converted;
      if ((kind == ir::AttrKind::kI64Array || kind == ir::AttrKind::kBoolArray) && attr->kind == Kind::kTensor) {
        HLOGRAPH_ASSIGN(std::vector<int64_t> values, TensorInts(*attr, What(name)));
        ir::DenseArrayAttr array;
        array.type = kind == ir::AttrKind::kI64Array ? ir::ElementType::kI64 : ir::ElementType::kI1;
        array.values = std::move(values);
        converted = ir::Attribute::Make(std::move(array));
      } else if (kind == ir::AttrKind::kSymbolRef && attr->kind == Kind::kString) {
        converted = ir::Attribute::Make(ir::SymbolRefAttr{attr->text});
      } else if (name == "called_computations" && attr->kind == Kind::kArray) {
        ir::ArrayAttr refs;
        for (const AttrPtr& e : attr->elements) {
          if (e->kind != Kind::kString) return Status::Error("bytecode: " + What(name) + ": expected function names");
          refs.elements.push_back(ir::Attribute::Make(ir::SymbolRefAttr{e->text}));
        }
        converted = ir::Attribute::Make(std::move(refs));
      } else if (kind == ir::AttrKind::kUnit && attr->kind == Kind::kBool) {
        if (!attr->value) continue;
        converted = ir::Attribute::Make(ir::UnitAttr{});
      } else if ((name == "arg_attrs" || name == "res_attrs") && attr->kind == Kind::kArray &&
                 std::all_of(attr->elements.begin(), attr->elements.end(), [](const AttrPtr& e) { return IsEmptyDict(e.get()); })) {
        continue;  // as the text parser: no dictionary worth keeping
      } else {
        HLOGRAPH_ASSIGN(converted, ConvertGeneric(*attr, What(name)));
      }
      Add(name, std::move(converted));
    }
    return Status::Ok();
  }

 private:
  std::string where_;
  AttrBag& bag_;
  ConvertedOp& out_;
};

}  // namespace

std::string StablehloName(const std::string& vhlo_name, const std::string& parent) {
  if (!vhlo_name.starts_with("vhlo.")) return vhlo_name;
  std::string base = BaseName(vhlo_name);
  if (base == "func") return "func.func";
  if (base == "call") return "func.call";
  if (base == "return") return parent == "func.func" ? "func.return" : "stablehlo.return";
  return "stablehlo." + base;
}

StatusOr<ConvertedOp> ConvertVhloOp(const VhloOp& op, const std::string& where) {
  ConvertedOp out;
  const std::string name = StablehloName(op.name, op.parent);
  out.def = ir::LookupOp(name);
  // An op version hlograph does not know may mean something else: refuse it.
  bool known_version = !op.name.starts_with("vhlo.") || VhloOpAttributeNames(op.name) != nullptr;
  if (out.def == nullptr || !known_version) {
    return Status::Error("bytecode: " + where + ": expected an op hlograph supports, found " + op.name +
                         (name != op.name ? " (" + name + ")" : ""));
  }
  AttrBag bag(op.attrs);
  // What the text grammar guarantees, bytecode must be checked for.
  if (const DecodedAttr* visibility = bag.Get("sym_visibility")) {
    if (visibility->kind != Kind::kString ||
        !(visibility->text.empty() || OneOf(visibility->text, {"public", "private", "nested"}))) {
      return Status::Error("bytecode: " + where + ": expected sym_visibility public, private or nested");
    }
  }
  const std::string base = op.name.starts_with("vhlo.") ? BaseName(op.name) : "";
  if (!base.empty()) RemoveDefaults(base, bag);
  Converter converter(where, bag, out);
  if (!base.empty()) HLOGRAPH_TRY(converter.Implode(base));
  HLOGRAPH_TRY(converter.ConvertRest());
  std::stable_sort(out.attrs.begin(), out.attrs.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  return out;
}

}  // namespace hlograph::frontend::bytecode
