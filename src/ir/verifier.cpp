#include "ir/verifier.h"

#include <algorithm>
#include <unordered_set>

#include "ir/op_def.h"
#include "ir/verify/verifiers.h"

namespace hlograph::ir {
namespace {

// Whether `a` has the shape an AttrSpec of `kind` demands; `expected` says
// what that is, for the message.
bool EnumMatches(const Attribute& a, const std::string& enum_name) {
  const auto* e = a.as<EnumAttr>();
  if (!e || e->enum_name != enum_name) return false;
  const auto& values = EnumValues(enum_name);
  return values.empty() || std::find(values.begin(), values.end(), e->value) != values.end();
}

bool AttrMatches(const Attribute& a, const AttrSpec& spec, const char** expected) {
  const AttrKind kind = spec.kind;
  auto dense_array_of = [&](ElementType t) {
    const auto* arr = a.as<DenseArrayAttr>();
    return arr && arr->type == t;
  };
  switch (kind) {
    case AttrKind::kAny: return true;
    case AttrKind::kUnit: *expected = "a unit attribute"; return a.as<UnitAttr>() != nullptr;
    case AttrKind::kBool: *expected = "a bool (true/false)"; return a.as<BoolAttr>() != nullptr;
    case AttrKind::kI32:
    case AttrKind::kI64: *expected = "an integer"; return a.as<IntegerAttr>() != nullptr;
    case AttrKind::kFloat: *expected = "a float"; return a.as<FloatAttr>() != nullptr;
    case AttrKind::kString: *expected = "a string"; return a.as<StringAttr>() != nullptr;
    case AttrKind::kSymbolRef: *expected = "a symbol reference (@name)"; return a.as<SymbolRefAttr>() != nullptr;
    case AttrKind::kType: *expected = "a function type"; return a.as<FunctionTypeAttr>() != nullptr;
    case AttrKind::kI64Array: *expected = "array<i64: ...>"; return dense_array_of(ElementType::kI64);
    case AttrKind::kBoolArray: *expected = "array<i1: ...>"; return dense_array_of(ElementType::kI1);
    case AttrKind::kI64Elements: {
      *expected = "dense<...> : tensor<...xi64>";
      const auto* d = a.as<DenseElementsAttr>();
      return d && d->type.element() == ElementType::kI64;
    }
    case AttrKind::kElements: *expected = "dense<...> : tensor<...>"; return a.as<DenseElementsAttr>() != nullptr;
    case AttrKind::kEnum: *expected = "a valid #stablehlo<...> enum of its kind"; return EnumMatches(a, spec.enum_name);
    case AttrKind::kEnumArray: {
      *expected = "an array of valid #stablehlo<...> enums of its kind";
      const auto* arr = a.as<ArrayAttr>();
      if (!arr) return false;
      for (const Attribute& e : arr->elements) {
        if (!EnumMatches(e, spec.enum_name)) return false;
      }
      return true;
    }
    case AttrKind::kArray: *expected = "an array [...]"; return a.as<ArrayAttr>() != nullptr;
    case AttrKind::kDict: *expected = "a dictionary {...}"; return a.as<DictionaryAttr>() != nullptr;
    case AttrKind::kDotDims: *expected = "#stablehlo.dot<...>"; return a.as<DotDimsAttr>() != nullptr;
    case AttrKind::kGatherDims: *expected = "#stablehlo.gather<...>"; return a.as<GatherDimsAttr>() != nullptr;
    case AttrKind::kScatterDims: *expected = "#stablehlo.scatter<...>"; return a.as<ScatterDimsAttr>() != nullptr;
    case AttrKind::kConvDims: *expected = "#stablehlo.conv<...>"; return a.as<ConvDimsAttr>() != nullptr;
    case AttrKind::kChannelHandle: *expected = "#stablehlo.channel_handle<...>"; return a.as<ChannelHandleAttr>() != nullptr;
    case AttrKind::kDialectBody: *expected = "a dialect attribute"; return a.as<OpaqueAttr>() != nullptr;
  }
  return true;
}

std::string Count(int n) { return n == kVariadic ? "any number of" : std::to_string(n); }

// The terminator a region of `parent` must end with.
const char* ExpectedTerminator(const Operation& parent) {
  if (parent.id() == OpId::kFuncFunc) return "func.return";
  if (parent.def().dialect() == "sdy") return "sdy.return";
  if (parent.id() == OpId::kModule) return nullptr;
  return "stablehlo.return";
}

Status GenericChecks(const Operation& op) {
  const OpDef& def = op.def();
  if (def.num_operands != kVariadic && static_cast<int>(op.num_operands()) != def.num_operands) {
    return Status::Error("expects " + Count(def.num_operands) + " operands, got " + std::to_string(op.num_operands()));
  }
  if (def.num_results != kVariadic && static_cast<int>(op.num_results()) != def.num_results) {
    return Status::Error("expects " + Count(def.num_results) + " results, got " + std::to_string(op.num_results()));
  }
  if (def.num_regions != kVariadic && static_cast<int>(op.num_regions()) != def.num_regions) {
    return Status::Error("expects " + Count(def.num_regions) + " regions, got " + std::to_string(op.num_regions()));
  }
  for (const AttrSpec& spec : def.attrs) {
    Attribute a = op.attr(spec.name);
    if (!a) {
      if (!spec.optional) return Status::Error("requires attribute '" + spec.name + "'");
      continue;
    }
    const char* expected = "";
    if (!AttrMatches(a, spec, &expected)) {
      return Status::Error("expects attribute '" + spec.name + "' to be " + expected);
    }
  }
  for (const auto& region : op.regions()) {
    if (region->empty()) return Status::Error("has an empty region");
    const char* term = ExpectedTerminator(op);
    for (const auto& block : region->blocks()) {
      const auto& ops = block->operations();
      for (size_t i = 0; i + 1 < ops.size(); ++i) {
        if (ops[i]->def().Has(kTerminator)) return Status::Error("has '" + ops[i]->name() + "' before the end of a block");
      }
      if (!term) continue;
      if (ops.empty() || ops.back()->name() != term) {
        return Status::Error(std::string("expects each region to end with '") + term + "'");
      }
    }
  }
  if (def.Has(kTerminator)) {
    const Operation* parent = op.ParentOp();
    const char* term = parent ? ExpectedTerminator(*parent) : nullptr;
    if (!term || op.name() != term) {
      return Status::Error(std::string("is not a valid terminator here") +
                           (term ? std::string(" (expected '") + term + "')" : std::string()));
    }
  }
  return Status::Ok();
}

class ModuleVerifier {
 public:
  explicit ModuleVerifier(size_t max_errors) : max_errors_(max_errors) {}

  void Run(const Module& module) {
    std::unordered_set<std::string> symbols;
    for (const auto& op : module.body().operations()) {
      if (op->def().Has(kSymbol)) {
        const auto* name = op->attr("sym_name").as<StringAttr>();
        if (name && !symbols.insert(name->value).second) Report(*op, "redefines the symbol @" + name->value);
      }
    }
    visible_.clear();
    VisitOp(module.op());
  }

  Status Result() const {
    if (errors_.empty()) return Status::Ok();
    std::string msg;
    for (size_t i = 0; i < errors_.size(); ++i) msg += (i ? "\n" : "") + errors_[i];
    if (suppressed_ > 0) msg += "\n... and " + std::to_string(suppressed_) + " more errors";
    return Status::Error(msg);
  }

 private:
  void Report(const Operation& op, const std::string& message) {
    if (errors_.size() >= max_errors_) {
      ++suppressed_;
      return;
    }
    std::string line = op.pos().ToString() + ": error: '" + op.name() + "' op " + message;
    if (op.loc()) {
      std::string where = op.loc()->Describe();
      if (!where.empty()) line += "\n  note: the op comes from " + where;
    }
    errors_.push_back(std::move(line));
  }

  void VisitOp(const Operation& op) {
    for (size_t i = 0; i < op.num_operands(); ++i) {
      if (!visible_.count(op.operand(i))) {
        Report(op, "uses operand #" + std::to_string(i) + " before it is defined or outside its scope");
      }
    }
    Status s = VerifyOperation(op);
    if (!s.ok()) Report(op, s.message());
    // Values of enclosing regions stay visible inside nested ones, unless
    // the op is isolated from above (func.func, module).
    std::unordered_set<const Value*> saved;
    if (op.def().Has(kIsolatedFromAbove)) saved.swap(visible_);
    for (const auto& region : op.regions()) {
      std::unordered_set<const Value*> outer = visible_;
      for (const auto& block : region->blocks()) {
        for (const auto& arg : block->arguments()) visible_.insert(arg.get());
        for (const auto& inner : block->operations()) {
          VisitOp(*inner);
          for (const auto& r : inner->results()) visible_.insert(r.get());
        }
      }
      visible_ = std::move(outer);
    }
    if (op.def().Has(kIsolatedFromAbove)) visible_.swap(saved);
  }

  size_t max_errors_;
  size_t suppressed_ = 0;
  std::vector<std::string> errors_;
  std::unordered_set<const Value*> visible_;
};

}  // namespace

Status VerifyOperation(const Operation& op) {
  Status s = GenericChecks(op);
  if (!s.ok()) return s;
  HLOGRAPH_TRY(verify::QuantizedParameters(op));
  if (op.def().verify) HLOGRAPH_TRY(op.def().verify(op));
  return verify::QuantizedTypes(op);
}

Status VerifyModule(const Module& module, size_t max_errors) {
  ModuleVerifier v(max_errors);
  v.Run(module);
  return v.Result();
}

}  // namespace hlograph::ir
