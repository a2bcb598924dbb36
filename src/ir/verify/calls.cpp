// Functions, calls and extension points: func.func, func.call,
// stablehlo.composite and stablehlo.custom_call.
#include <string_view>

#include "ir/module.h"
#include "ir/verify/verifiers.h"
#include "ir/verify/verify_util.h"

namespace hlograph::ir::verify {
namespace {

// arg_attrs / res_attrs: when present, one dictionary per input / result.
Status ExpectAttrDicts(const Operation& op, const std::string& name, size_t count, std::string_view of_what) {
  const Attribute attr = op.attr(name);
  if (!attr) return Status::Ok();
  const auto* array = attr.as<ArrayAttr>();
  if (array == nullptr) return Err("expects ", name, " to be an array of dictionaries");
  if (array->elements.size() != count) {
    return Err("expects ", name, " to have ", count, " entries (one per ", of_what, "), got ", array->elements.size());
  }
  for (size_t i = 0; i < array->elements.size(); ++i) {
    if (array->elements[i].as<DictionaryAttr>() == nullptr) {
      return Err("expects entry ", i, " of ", name, " to be a dictionary");
    }
  }
  return Status::Ok();
}

// The func.func a symbol attribute names, with its signature checked
// against `op`'s operands and results.
Status ExpectCallee(const Operation& op, const std::string& attr_name) {
  const SymbolRefAttr* symbol = nullptr;
  HLOGRAPH_TRY(RequireAttr(op, attr_name, symbol));
  const std::string callee = "@" + symbol->name;
  const Operation* func = LookupFunction(op, symbol->name);
  if (func == nullptr) return Err("expects ", attr_name, " ", callee, " to name a func.func in the enclosing module");
  return ExpectCallTypes(op, FunctionSignature(*func), callee);
}

// Follows tuple indices into `t`; null when an index is out of range.
const Type* FollowTupleIndices(const Type& t, const std::vector<int64_t>& path) {
  const Type* cur = &t;
  for (int64_t i : path) {
    if (!cur->IsTuple() || i < 0 || i >= static_cast<int64_t>(cur->tuple_elements().size())) return nullptr;
    cur = &cur->tuple_elements()[static_cast<size_t>(i)];
  }
  return cur;
}

// output_operand_aliases: each alias names an operand (part) and a result
// (part) of the same type.
Status CheckOutputOperandAliases(const Operation& op) {
  const Attribute attr = op.attr("output_operand_aliases");
  if (!attr) return Status::Ok();
  const auto* array = attr.as<ArrayAttr>();
  if (array == nullptr) return Err("expects output_operand_aliases to be an array");
  const std::vector<Type> results = op.ResultTypes();
  const Type output = results.size() == 1 ? results[0] : Type::Tuple(results);
  for (size_t i = 0; i < array->elements.size(); ++i) {
    const auto* alias = array->elements[i].as<OutputOperandAliasAttr>();
    if (alias == nullptr)
      return Err("expects entry ", i, " of output_operand_aliases to be #stablehlo.output_operand_alias");
    HLOGRAPH_TRY(ExpectIndexInRange(alias->operand_index, 0, static_cast<int64_t>(op.num_operands()),
                                  Str("operand_index of output_operand_aliases entry ", i)));
    const Type* operand =
        FollowTupleIndices(OperandType(op, static_cast<size_t>(alias->operand_index)), alias->operand_tuple_indices);
    if (operand == nullptr) {
      return Err("expects operand_tuple_indices ", alias->operand_tuple_indices, " of output_operand_aliases entry ", i,
                 " to index into operand ", alias->operand_index);
    }
    const Type* out = FollowTupleIndices(output, alias->output_tuple_indices);
    if (out == nullptr) {
      return Err("expects output_tuple_indices ", alias->output_tuple_indices, " of output_operand_aliases entry ", i,
                 " to index into the results");
    }
    if (*out != *operand) {
      return Err("expects output_operand_aliases entry ", i, " to alias values of one type, got ", *out, " and ",
                 *operand);
    }
  }
  return Status::Ok();
}

// operand_layouts / result_layouts: one layout per value; a tensor's layout
// is a permutation of its dimensions.
Status CheckLayouts(const Attribute& attr, const std::vector<Type>& types, std::string_view name) {
  const auto* array = attr.as<ArrayAttr>();
  if (array == nullptr) return Err("expects ", name, " to be an array");
  if (array->elements.size() != types.size()) {
    return Err("expects ", name, " to have ", types.size(), " entries, got ", array->elements.size());
  }
  for (size_t i = 0; i < types.size(); ++i) {
    const auto* layout = array->elements[i].as<DenseElementsAttr>();
    std::optional<std::vector<int64_t>> dims = layout ? IntElements(*layout) : std::nullopt;
    if (!dims) return Err("expects entry ", i, " of ", name, " to be a dense integer tensor");
    if (types[i].IsTensor() && (static_cast<int64_t>(dims->size()) != types[i].rank() || !IsPermutation(*dims))) {
      return Err("expects entry ", i, " of ", name, " to be a permutation of the dimensions of ", types[i], ", got ",
                 *dims);
    }
  }
  return Status::Ok();
}

}  // namespace

Status Func(const Operation& op) {
  const FunctionTypeAttr* type = nullptr;
  HLOGRAPH_TRY(RequireAttr(op, "function_type", type));
  const FunctionType& sig = type->type;
  HLOGRAPH_TRY(ExpectAttrDicts(op, "arg_attrs", sig.inputs.size(), "input"));
  HLOGRAPH_TRY(ExpectAttrDicts(op, "res_attrs", sig.results.size(), "result"));
  if (op.num_regions() == 0 || op.region(0).empty()) {
    const auto* visibility = AttrAs<StringAttr>(op, "sym_visibility");
    if (visibility == nullptr || visibility->value == "public") {
      return Err("expects a function without a body not to be public");
    }
    return Status::Ok();
  }
  return ExpectRegionSignature(op, 0, sig.inputs, sig.results, "the body", "func.return");
}

Status Call(const Operation& op) { return ExpectCallee(op, "callee"); }

Status Composite(const Operation& op) {
  const auto* name = AttrAs<StringAttr>(op, "name");
  if (name == nullptr || name->value.empty()) return Err("expects a non-empty name");
  const std::optional<int64_t> version = IntAttr(op, "version");
  if (version && *version < 0) return Err("expects version to be non-negative, got ", *version);
  return ExpectCallee(op, "decomposition");
}

Status CustomCall(const Operation& op) {
  const std::optional<int64_t> api_version = IntAttr(op, "api_version");
  if (api_version && (*api_version < 0 || *api_version > 4)) {
    return Err("expects api_version to be in [0, 4], got ", *api_version);
  }
  if (const Attribute config = op.attr("backend_config")) {
    const bool is_dict = config.as<DictionaryAttr>() != nullptr;
    if (!is_dict && config.as<StringAttr>() == nullptr) {
      return Err("expects backend_config to be a string or a dictionary");
    }
    if (is_dict && api_version.value_or(0) != 4) {
      return Err("expects api_version 4 (typed FFI) with a dictionary backend_config, got api_version ",
                 api_version.value_or(0));
    }
  }
  if (const auto* called = AttrAs<ArrayAttr>(op, "called_computations")) {
    for (size_t i = 0; i < called->elements.size(); ++i) {
      if (called->elements[i].as<SymbolRefAttr>() == nullptr) {
        return Err("expects entry ", i, " of called_computations to be a symbol reference");
      }
    }
  }
  const Attribute operand_layouts = op.attr("operand_layouts");
  const Attribute result_layouts = op.attr("result_layouts");
  if (static_cast<bool>(operand_layouts) != static_cast<bool>(result_layouts)) {
    return Err("expects operand_layouts and result_layouts to be both present or both absent");
  }
  if (operand_layouts) {
    HLOGRAPH_TRY(CheckLayouts(operand_layouts, op.OperandTypes(), "operand_layouts"));
    HLOGRAPH_TRY(CheckLayouts(result_layouts, op.ResultTypes(), "result_layouts"));
  }
  return CheckOutputOperandAliases(op);
}

}  // namespace hlograph::ir::verify
