#include "ir/printer.h"

#include <algorithm>
#include <cctype>
#include <unordered_map>
#include <unordered_set>

#include "ir/attribute_printer.h"
#include "ir/op_def.h"
#include "ir/op_syntax.h"
#include "ir/printing_utils.h"

namespace hlograph::ir {
namespace {

// Attributes a custom piece prints itself (so `dict` leaves them out).
std::vector<std::string> CustomPieceAttrs(const std::string& piece) {
  if (piece == "precision_format") return {"exponent_bits", "mantissa_bits"};
  if (piece == "constant") return {"value"};
  if (piece == "slice_ranges") return {"start_indices", "limit_indices", "strides"};
  if (piece == "dot_dims") return {"dot_dimension_numbers"};
  if (piece == "conv_window") return {"window_strides", "padding", "lhs_dilation", "rhs_dilation", "window_reversal"};
  return {};
}

bool IsValidNameHint(const std::string& s) {
  if (s.empty()) return false;
  if (std::isdigit(static_cast<unsigned char>(s[0]))) {
    return std::all_of(s.begin(), s.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
  }
  return std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '.' || c == '-';
  });
}

std::string DimsOrEmpty(const Attribute& a) {
  const auto* arr = a.as<DenseArrayAttr>();
  return arr ? I64ListToString(arr->values) : "[]";
}

class Printer {
 public:
  explicit Printer(const PrintOptions& options) : options_(options) {}

  std::string Take() { return std::move(out_); }

  void PrintTopLevel(const Operation& op) {
    PushScope(/*isolated=*/true);
    PrintOp(op);
    PopScope();
  }

 private:
  // ---- naming -----------------------------------------------------------
  struct Scope {
    std::unordered_set<std::string> names;
    bool isolated = false;
    int next_number = 0;
    int next_arg = 0;
  };

  void PushScope(bool isolated) {
    Scope s;
    s.isolated = isolated;
    if (!isolated && !scopes_.empty()) {
      s.next_number = scopes_.back().next_number;
      s.next_arg = scopes_.back().next_arg;
    }
    scopes_.push_back(std::move(s));
  }
  void PopScope() {
    int n = scopes_.back().next_number, a = scopes_.back().next_arg;
    bool isolated = scopes_.back().isolated;
    scopes_.pop_back();
    if (!isolated && !scopes_.empty()) {
      scopes_.back().next_number = std::max(scopes_.back().next_number, n);
      scopes_.back().next_arg = std::max(scopes_.back().next_arg, a);
    }
  }
  bool InUse(const std::string& name) const {
    for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it) {
      if (it->names.count(name)) return true;
      if (it->isolated) break;
    }
    return false;
  }
  std::string Reserve(const std::string& hint, bool is_arg) {
    Scope& scope = scopes_.back();
    std::string name;
    if (IsValidNameHint(hint) && !InUse(hint)) {
      name = hint;
    } else if (IsValidNameHint(hint) && !std::isdigit(static_cast<unsigned char>(hint[0]))) {
      for (int k = 0;; ++k) {
        name = hint + "_" + std::to_string(k);
        if (!InUse(name)) break;
      }
    } else {
      do {
        name = is_arg ? "arg" + std::to_string(scope.next_arg++) : std::to_string(scope.next_number++);
      } while (InUse(name));
    }
    scope.names.insert(name);
    return name;
  }
  void NameResults(const Operation& op) {
    if (op.num_results() == 0) return;
    // Results that each came with a name of their own (`%state, %bits =`)
    // keep them; otherwise they form one group `%0:2` used as `%0#1`.
    bool separate = op.num_results() > 1;
    std::unordered_set<std::string> hints;
    for (const auto& r : op.results()) {
      separate = separate && IsValidNameHint(r->name_hint()) && hints.insert(r->name_hint()).second;
    }
    if (separate) {
      for (size_t i = 0; i < op.num_results(); ++i) {
        std::string name = "%" + Reserve(op.result(i)->name_hint(), false);
        names_[op.result(i)] = name;
        out_ += (i ? ", " : "") + name;
      }
      out_ += " = ";
      return;
    }
    std::string group = Reserve(op.result(0)->name_hint(), false);
    if (op.num_results() == 1) {
      names_[op.result(0)] = "%" + group;
    } else {
      for (size_t i = 0; i < op.num_results(); ++i) names_[op.result(i)] = "%" + group + "#" + std::to_string(i);
    }
    out_ += "%" + group;
    if (op.num_results() > 1) out_ += ":" + std::to_string(op.num_results());
    out_ += " = ";
  }
  std::string NameArg(const Value* v) {
    std::string n = "%" + Reserve(v->name_hint(), true);
    names_[v] = n;
    return n;
  }
  std::string Ref(const Value* v) const {
    auto it = names_.find(v);
    return it == names_.end() ? "%<<unknown>>" : it->second;
  }
  std::string Refs(const std::vector<Value*>& values) const {
    std::string s;
    for (size_t i = 0; i < values.size(); ++i) s += (i ? ", " : "") + Ref(values[i]);
    return s;
  }

  // ---- layout ------------------------------------------------------------
  void Indent() { out_.append(static_cast<size_t>(indent_) * 2, ' '); }
  std::string Loc(const LocationPtr& loc) const {
    if (!options_.debug_info || !loc) return "";
    return " loc(" + loc->ToString() + ")";
  }
  // func ops drop their dialect prefix directly inside a func.func, as MLIR
  // prints them (`return`, `call`); elsewhere they keep it.
  static bool DirectlyInFunc(const Operation& op) {
    const Operation* p = op.ParentOp();
    return p && p->id() == OpId::kFuncFunc;
  }

  // ---- ops ---------------------------------------------------------------
  void PrintOp(const Operation& op) {
    Indent();
    const OpDef& def = op.def();
    if (def.syntax == "custom:module") return PrintModuleOp(op);
    if (def.syntax == "custom:func") return PrintFunc(op);
    NameResults(op);
    if (options_.generic || def.syntax.empty()) {
      PrintGeneric(op);
    } else if (def.syntax == "custom:reduce") {
      PrintReduce(op);
    } else if (def.syntax == "custom:while") {
      PrintWhile(op);
    } else if (def.syntax == "custom:manual_computation") {
      PrintManualComputation(op);
    } else if (def.syntax == "custom:scan") {
      PrintScan(op);
    } else {
      std::string name = def.name;
      if (def.dialect() == "func" && DirectlyInFunc(op)) name = std::string(def.short_name());
      out_ += name;
      PrintItems(op, ParseSyntaxSpec(def.syntax));
    }
    out_ += Loc(op.loc()) + "\n";
  }

  void PrintGeneric(const Operation& op) {
    out_ += QuoteString(op.name()) + "(" + Refs(op.operands()) + ")";
    std::vector<NamedAttribute> inherent, discardable;
    for (const auto& a : op.attributes()) (op.def().FindAttr(a.first) ? inherent : discardable).push_back(a);
    if (!inherent.empty()) {
      out_ += " <";
      PrintDictionary(out_, inherent);
      out_ += ">";
    }
    if (op.num_regions() > 0) {
      out_ += " (";
      for (size_t i = 0; i < op.num_regions(); ++i) {
        if (i) out_ += ", ";
        PrintRegion(op.region(i), /*print_entry_header=*/true);
      }
      out_ += ")";
    }
    if (!discardable.empty()) {
      out_ += " ";
      PrintDictionary(out_, discardable);
    }
    out_ += " : " + FunctionType{op.OperandTypes(), op.ResultTypes()}.ToString();
  }

  // `{` newline, blocks, `}` at the current indentation.
  void PrintRegion(const Region& region, bool print_entry_header) {
    out_ += "{\n";
    PushScope(region.parent() && region.parent()->def().Has(kIsolatedFromAbove));
    for (size_t b = 0; b < region.blocks().size(); ++b) {
      const Block& block = *region.blocks()[b];
      if ((b > 0 || print_entry_header) && (block.num_arguments() > 0 || b > 0)) {
        Indent();
        out_ += "^bb" + std::to_string(b);
        if (block.num_arguments() > 0) {
          out_ += "(";
          for (size_t i = 0; i < block.num_arguments(); ++i) {
            if (i) out_ += ", ";
            out_ += NameArg(block.argument(i)) + ": " + block.argument(i)->type().ToString() +
                    Loc(block.argument_locs()[i]);
          }
          out_ += ")";
        }
        out_ += ":\n";
      }
      PrintBlockBody(block);
    }
    PopScope();
    Indent();
    out_ += "}";
  }

  void PrintBlockBody(const Block& block) {
    ++indent_;
    for (const auto& op : block.operations()) PrintOp(*op);
    --indent_;
  }

  // Names the entry block's arguments, then prints the body (used by custom
  // forms that show the arguments themselves).
  void PrintRegionWithNamedArgs(const Region& region) {
    out_ += "{\n";
    PrintBlockBody(region.front());
    Indent();
    out_ += "}";
  }

  // ---- the syntax little language ----------------------------------------
  struct Piece {
    std::string text;
    bool glue;
  };

  void PrintItems(const Operation& op, const std::vector<SyntaxItem>& items) {
    std::vector<Piece> pieces;
    std::unordered_set<std::string> printed;
    for (const SyntaxItem& item : items) {
      if (item.kind == SyntaxItem::Kind::kAttr || item.kind == SyntaxItem::Kind::kSymbol) printed.insert(item.text);
      if (item.kind == SyntaxItem::Kind::kCustom) {
        for (auto& a : CustomPieceAttrs(item.text)) printed.insert(a);
      }
    }
    bool skipping = false;
    for (size_t i = 0; i < items.size(); ++i) {
      const SyntaxItem& item = items[i];
      if (item.kind == SyntaxItem::Kind::kOptEnd) {
        skipping = false;
        continue;
      }
      if (skipping) continue;
      switch (item.kind) {
        case SyntaxItem::Kind::kOptBegin: skipping = !OptionalGroupPresent(op, items, i); break;
        case SyntaxItem::Kind::kOptEnd: break;
        case SyntaxItem::Kind::kOperands: {
          std::string refs = Refs(op.operands());
          if (!refs.empty()) pieces.push_back({refs, item.glue});
          break;
        }
        case SyntaxItem::Kind::kOperand0:
          if (op.num_operands() > 0) pieces.push_back({Ref(op.operand(0)), item.glue});
          break;
        case SyntaxItem::Kind::kAttr: {
          const AttrSpec* spec = op.def().FindAttr(item.text);
          Attribute a = op.attr(item.text);
          if (a) pieces.push_back({ShortAttr(a, spec), item.glue});
          break;
        }
        case SyntaxItem::Kind::kSymbol: {
          Attribute a = op.attr(item.text);
          if (const auto* s = a.as<StringAttr>()) pieces.push_back({"@" + SymbolName(s->value), item.glue});
          if (const auto* s = a.as<SymbolRefAttr>()) pieces.push_back({"@" + SymbolName(s->name), item.glue});
          break;
        }
        case SyntaxItem::Kind::kDict: {
          std::vector<NamedAttribute> rest;
          for (const auto& a : op.attributes()) {
            if (!printed.count(a.first)) rest.push_back(a);
          }
          if (!rest.empty()) {
            std::string d;
            PrintDictionary(d, rest);
            pieces.push_back({d, false});
          }
          break;
        }
        case SyntaxItem::Kind::kRegions: {
          if (op.num_regions() == 0) break;
          // Printed aside, then placed: the regions' text spans lines.
          std::string saved;
          std::swap(saved, out_);
          out_ += "(";
          for (size_t r = 0; r < op.num_regions(); ++r) {
            if (r) out_ += ", ";
            PrintRegion(op.region(r), /*print_entry_header=*/true);
          }
          out_ += ")";
          std::swap(saved, out_);
          pieces.push_back({saved, false});
          break;
        }
        case SyntaxItem::Kind::kCustom: {
          std::string s = CustomPiece(op, item.text);
          if (!s.empty()) pieces.push_back({s, s[0] == ','});
          break;
        }
        case SyntaxItem::Kind::kTypes: {
          std::string t = TypeSuffix(op, item.text);
          if (!t.empty()) pieces.push_back({": " + t, false});
          break;
        }
        case SyntaxItem::Kind::kLiteral: pieces.push_back({item.text, item.glue}); break;
      }
    }
    for (size_t i = 0; i < pieces.size(); ++i) {
      const std::string& t = pieces[i].text;
      bool no_space = pieces[i].glue || t == "," || t == ")" || t == "]";
      if (i > 0) {
        const std::string& prev = pieces[i - 1].text;
        if (prev == "(" || prev == "[") no_space = true;
      }
      if (!no_space) out_ += " ";
      out_ += t;
    }
  }

  static bool OptionalGroupPresent(const Operation& op, const std::vector<SyntaxItem>& items, size_t begin) {
    for (size_t j = begin + 1; j < items.size() && items[j].kind != SyntaxItem::Kind::kOptEnd; ++j) {
      if (items[j].kind == SyntaxItem::Kind::kAttr || items[j].kind == SyntaxItem::Kind::kSymbol) {
        return static_cast<bool>(op.attr(items[j].text));
      }
    }
    return false;
  }

  static std::string ShortAttr(const Attribute& a, const AttrSpec* spec) {
    switch (spec ? spec->kind : AttrKind::kAny) {
      case AttrKind::kI32:
      case AttrKind::kI64:
        if (const auto* i = a.as<IntegerAttr>()) return std::to_string(i->value);
        break;
      case AttrKind::kFloat:
        if (const auto* f = a.as<FloatAttr>()) return FormatFloatBits(f->bits, f->type);
        break;
      case AttrKind::kI64Array:
        if (const auto* arr = a.as<DenseArrayAttr>()) return I64ListToString(arr->values);
        break;
      case AttrKind::kEnum:
        if (const auto* e = a.as<EnumAttr>()) return e->value;
        break;
      case AttrKind::kEnumArray:
        if (const auto* arr = a.as<ArrayAttr>()) {
          std::string s = "[";
          for (size_t i = 0; i < arr->elements.size(); ++i) {
            const auto* e = arr->elements[i].as<EnumAttr>();
            if (!e) return AttributeToString(a);
            s += (i ? ", " : "") + e->value;
          }
          return s + "]";
        }
        break;
      case AttrKind::kConvDims:
        if (const auto* c = a.as<ConvDimsAttr>()) return ConvDimsToString(*c);
        break;
      case AttrKind::kDialectBody:
        if (const auto* o = a.as<OpaqueAttr>()) {
          const std::string prefix = spec->BodyPrefix(), suffix = spec->BodySuffix();
          const std::string& t = o->text;
          if (t.size() > prefix.size() + suffix.size() && t.compare(0, prefix.size(), prefix) == 0 &&
              t.compare(t.size() - suffix.size(), suffix.size(), suffix) == 0) {
            return t.substr(prefix.size(), t.size() - prefix.size() - suffix.size());
          }
        }
        break;
      default: break;
    }
    return AttributeToString(a);
  }

  std::string CustomPiece(const Operation& op, const std::string& piece) {
    if (piece == "constant") return AttributeToString(op.attr("value"));
    if (piece == "precision_format") {
      const auto* e = op.attr("exponent_bits").as<IntegerAttr>();
      const auto* m = op.attr("mantissa_bits").as<IntegerAttr>();
      return "e" + std::to_string(e ? e->value : 0) + "m" + std::to_string(m ? m->value : 0);
    }
    if (piece == "slice_ranges") {
      const auto* start = op.attr("start_indices").as<DenseArrayAttr>();
      const auto* limit = op.attr("limit_indices").as<DenseArrayAttr>();
      const auto* strides = op.attr("strides").as<DenseArrayAttr>();
      if (!start || !limit || !strides || start->values.size() != limit->values.size() ||
          start->values.size() != strides->values.size()) {
        return "[<<malformed>>]";
      }
      std::string s = "[";
      for (size_t i = 0; i < start->values.size(); ++i) {
        s += (i ? ", " : "") + std::to_string(start->values[i]) + ":" + std::to_string(limit->values[i]);
        if (strides->values[i] != 1) s += ":" + std::to_string(strides->values[i]);
      }
      return s + "]";
    }
    if (piece == "dot_dims") {
      const auto* d = op.attr("dot_dimension_numbers").as<DotDimsAttr>();
      if (!d) return "";
      std::string s;
      if (!d->lhs_batching.empty() || !d->rhs_batching.empty()) {
        s += "batching_dims = " + I64ListToString(d->lhs_batching) + " x " + I64ListToString(d->rhs_batching) + ", ";
      }
      return s + "contracting_dims = " + I64ListToString(d->lhs_contracting) + " x " +
             I64ListToString(d->rhs_contracting);
    }
    if (piece == "conv_window") {
      std::vector<std::string> fields;
      if (Attribute a = op.attr("window_strides")) fields.push_back("stride = " + DimsOrEmpty(a));
      if (Attribute a = op.attr("padding")) fields.push_back("pad = " + PaddingPairs(a));
      if (Attribute a = op.attr("lhs_dilation")) fields.push_back("lhs_dilate = " + DimsOrEmpty(a));
      if (Attribute a = op.attr("rhs_dilation")) fields.push_back("rhs_dilate = " + DimsOrEmpty(a));
      if (Attribute a = op.attr("window_reversal")) {
        const auto* arr = a.as<DenseArrayAttr>();
        std::string s = "[";
        for (size_t i = 0; arr && i < arr->values.size(); ++i) s += (i ? ", " : "") + std::string(arr->values[i] ? "true" : "false");
        fields.push_back("reverse = " + s + "]");
      }
      if (fields.empty()) return "";
      std::string s = ", window = {";
      for (size_t i = 0; i < fields.size(); ++i) s += (i ? ", " : "") + fields[i];
      return s + "}";
    }
    return "<<unknown piece " + piece + ">>";
  }

  // dense<[[0, 1], [2, 3]]> : tensor<2x2xi64> -> [[0, 1], [2, 3]]
  static std::string PaddingPairs(const Attribute& a) {
    const auto* d = a.as<DenseElementsAttr>();
    if (!d || d->type.rank() != 2 || d->type.dim(1) != 2) return AttributeToString(a);
    std::string s = "[";
    for (int64_t i = 0; i < d->type.dim(0); ++i) {
      s += (i ? ", [" : "[") + DenseElementToString(*d, 2 * i) + ", " + DenseElementToString(*d, 2 * i + 1) + "]";
    }
    return s + "]";
  }

  static std::string TypeSuffix(const Operation& op, const std::string& style) {
    std::vector<Type> operands = op.OperandTypes(), results = op.ResultTypes();
    FunctionType fn{operands, results};
    if (style == "fn") return fn.ToString();
    if (style == "result") return TypeListToString(results);
    if (style == "operands") return TypeListToString(operands);
    if (style == "same") {
      std::vector<Type> all = operands;
      all.insert(all.end(), results.begin(), results.end());
      if (!all.empty() && std::all_of(all.begin(), all.end(), [&](const Type& t) { return t == all[0]; })) {
        return all[0].ToString();
      }
      return fn.ToString();
    }
    if (style == "select") {
      if (operands.size() == 3 && results.size() == 1 && operands[1] == results[0] && operands[2] == results[0]) {
        return operands[0].ToString() + ", " + results[0].ToString();
      }
      return fn.ToString();
    }
    if (style == "arrow") {
      std::string s = TypeListToString(operands) + " -> ";
      return s + (results.size() == 1 ? results[0].ToString() : "(" + TypeListToString(results) + ")");
    }
    return fn.ToString();
  }

  // ---- whole-op custom forms ----------------------------------------------
  void PrintModuleOp(const Operation& op) {
    out_ += "module";
    if (const auto* n = op.attr("sym_name").as<StringAttr>()) out_ += " @" + SymbolName(n->value);
    std::vector<NamedAttribute> rest;
    for (const auto& a : op.attributes()) {
      if (a.first != "sym_name") rest.push_back(a);
    }
    if (!rest.empty()) {
      out_ += " attributes ";
      PrintDictionary(out_, rest);
    }
    out_ += " {\n";
    PrintBlockBody(op.region(0).front());
    Indent();
    out_ += "}" + Loc(op.loc()) + "\n";
  }

  void PrintFunc(const Operation& op) {
    out_ += "func.func ";
    if (const auto* v = op.attr("sym_visibility").as<StringAttr>()) out_ += v->value + " ";
    const auto* name = op.attr("sym_name").as<StringAttr>();
    out_ += "@" + SymbolName(name ? name->value : "");
    const auto* arg_attrs = op.attr("arg_attrs").as<ArrayAttr>();
    const auto* res_attrs = op.attr("res_attrs").as<ArrayAttr>();
    auto attrs_at = [](const ArrayAttr* arr, size_t i) -> std::string {
      if (!arr || i >= arr->elements.size()) return "";
      const auto* d = arr->elements[i].as<DictionaryAttr>();
      if (!d || d->entries.empty()) return "";
      std::string s = " ";
      PrintDictionary(s, d->entries);
      return s;
    };
    PushScope(/*isolated=*/true);
    const Block& entry = op.region(0).front();
    out_ += "(";
    for (size_t i = 0; i < entry.num_arguments(); ++i) {
      if (i) out_ += ", ";
      out_ += NameArg(entry.argument(i)) + ": " + entry.argument(i)->type().ToString() + attrs_at(arg_attrs, i) +
              Loc(entry.argument_locs()[i]);
    }
    out_ += ")";
    FunctionType sig = FunctionSignature(op);
    if (!sig.results.empty()) {
      bool any_attrs = false;
      for (size_t i = 0; i < sig.results.size(); ++i) any_attrs |= !attrs_at(res_attrs, i).empty();
      out_ += " -> ";
      if (sig.results.size() == 1 && !any_attrs) {
        out_ += sig.results[0].ToString();
      } else {
        out_ += "(";
        for (size_t i = 0; i < sig.results.size(); ++i) {
          out_ += (i ? ", " : "") + sig.results[i].ToString() + attrs_at(res_attrs, i);
        }
        out_ += ")";
      }
    }
    std::vector<NamedAttribute> rest;
    for (const auto& a : op.attributes()) {
      if (a.first != "sym_name" && a.first != "sym_visibility" && a.first != "function_type" &&
          a.first != "arg_attrs" && a.first != "res_attrs") {
        rest.push_back(a);
      }
    }
    if (!rest.empty()) {
      out_ += " attributes ";
      PrintDictionary(out_, rest);
    }
    out_ += " ";
    PrintRegionWithNamedArgs(op.region(0));
    PopScope();
    out_ += Loc(op.loc()) + "\n";
  }

  // Compact `applies` form when the body is one binary op on the two block
  // arguments; otherwise the general form with a `reducer` region.
  static const Operation* CompactReducer(const Operation& op) {
    if (op.num_operands() != 2 || op.num_regions() != 1 || op.region(0).blocks().size() != 1) return nullptr;
    const Block& b = op.region(0).front();
    if (b.num_arguments() != 2 || b.operations().size() != 2) return nullptr;
    const Operation& inner = *b.operations()[0];
    const Operation& ret = *b.operations()[1];
    if (inner.num_operands() != 2 || inner.num_results() != 1 || inner.num_regions() != 0 ||
        !inner.attributes().empty() || inner.def().syntax != "ops dict :same" ||
        inner.operand(0) != b.argument(0) || inner.operand(1) != b.argument(1)) {
      return nullptr;
    }
    if (ret.num_operands() != 1 || ret.operand(0) != inner.result(0)) return nullptr;
    const Type& t = b.argument(0)->type();
    if (!t.IsTensor() || t.rank() != 0 || b.argument(1)->type() != t || inner.result(0)->type() != t) return nullptr;
    if (op.operand(1)->type() != t) return nullptr;
    return &inner;
  }

  void PrintReduce(const Operation& op) {
    out_ += "stablehlo.reduce";
    const size_t n = op.num_operands() / 2;
    for (size_t i = 0; i < n; ++i) {
      out_ += (i ? ", (" : "(") + Ref(op.operand(i)) + " init: " + Ref(op.operand(n + i)) + ")";
    }
    const Operation* compact = CompactReducer(op);
    if (compact) out_ += " applies " + compact->name();
    std::string dims = "[]";
    if (const auto* d = op.attr("dimensions").as<DenseArrayAttr>()) dims = I64ListToString(d->values);
    out_ += " across dimensions = " + dims;
    std::vector<NamedAttribute> rest;
    for (const auto& a : op.attributes()) {
      if (a.first != "dimensions") rest.push_back(a);
    }
    if (!rest.empty()) {
      out_ += " ";
      PrintDictionary(out_, rest);
    }
    out_ += " : " + FunctionType{op.OperandTypes(), op.ResultTypes()}.ToString();
    if (compact) return;
    // MLIR's layout: the reducer's arguments on their own line, one space
    // further in, and two spaces before the body.
    out_ += "\n";
    Indent();
    PushScope(false);
    const Block& b = op.region(0).front();
    std::vector<std::string> names;
    for (size_t i = 0; i < b.num_arguments(); ++i) names.push_back(NameArg(b.argument(i)));
    out_ += " reducer";
    for (size_t i = 0; i < n && 2 * n == b.num_arguments(); ++i) {
      out_ += "(" + names[i] + ": " + b.argument(i)->type().ToString() + Loc(b.argument_locs()[i]) + ", " +
              names[n + i] + ": " + b.argument(n + i)->type().ToString() + Loc(b.argument_locs()[n + i]) + ")";
      if (i + 1 < n) out_ += " ";
    }
    out_ += "  ";
    PrintRegionWithNamedArgs(op.region(0));
    PopScope();
  }

  void PrintWhile(const Operation& op) {
    out_ += "stablehlo.while(";
    const Block& cond = op.region(0).front();
    const Block& body = op.region(1).front();
    // Both regions take the loop-carried values; the header names them once
    // (as MLIR does) and the body's arguments reuse the same names.
    PushScope(false);
    for (size_t i = 0; i < op.num_operands(); ++i) {
      if (i) out_ += ", ";
      std::string n = i < cond.num_arguments() ? NameArg(cond.argument(i)) : "%<<missing>>";
      if (i < body.num_arguments()) names_[body.argument(i)] = n;
      out_ += n + " = " + Ref(op.operand(i));
    }
    out_ += ")";
    std::vector<NamedAttribute> rest = op.attributes();
    if (!rest.empty()) {
      out_ += " ";
      PrintDictionary(out_, rest);
    }
    out_ += " : " + TypeListToString(op.ResultTypes()) + "\n";
    Indent();
    out_ += "cond ";
    PushScope(false);
    PrintRegionWithNamedArgs(op.region(0));
    PopScope();
    out_ += " do ";
    PushScope(false);
    PrintRegionWithNamedArgs(op.region(1));
    PopScope();
    PopScope();
  }

  // chlo.scan(%in) inits (%init) dimension=N  attributes {...} {body} : (A) -> R
  // (the two spaces are MLIR's: the attribute dictionary's own leading one).
  void PrintScan(const Operation& op) {
    const auto* split = op.attr("operandSegmentSizes").as<DenseArrayAttr>();
    size_t inputs = op.num_operands();
    if (split && split->values.size() == 2 && split->values[0] >= 0 &&
        static_cast<size_t>(split->values[0]) <= op.num_operands()) {
      inputs = static_cast<size_t>(split->values[0]);
    }
    const std::vector<Value*>& operands = op.operands();
    out_ += "chlo.scan(" + Refs({operands.begin(), operands.begin() + static_cast<std::ptrdiff_t>(inputs)}) +
            ") inits (" + Refs({operands.begin() + static_cast<std::ptrdiff_t>(inputs), operands.end()}) + ")";
    const auto* dimension = op.attr("dimension").as<IntegerAttr>();
    out_ += " dimension=" + std::to_string(dimension ? dimension->value : 0) + " ";
    std::vector<NamedAttribute> rest;
    for (const auto& a : op.attributes()) {
      if (a.first != "dimension" && a.first != "operandSegmentSizes" && a.first != "resultSegmentSizes") {
        rest.push_back(a);
      }
    }
    if (!rest.empty()) {
      out_ += " attributes ";
      PrintDictionary(out_, rest);
    }
    out_ += " ";
    PrintRegion(op.region(0), /*print_entry_header=*/true);
    out_ += " : " + FunctionType{op.OperandTypes(), op.ResultTypes()}.ToString();
  }

  void PrintManualComputation(const Operation& op) {
    out_ += "sdy.manual_computation(" + Refs(op.operands()) + ")";
    for (const char* name : {"in_shardings", "out_shardings", "manual_axes"}) {
      out_ += std::string(" ") + name + "=" + ShortAttr(op.attr(name), op.def().FindAttr(name));
    }
    std::vector<NamedAttribute> rest;
    for (const auto& a : op.attributes()) {
      if (a.first != "in_shardings" && a.first != "out_shardings" && a.first != "manual_axes") rest.push_back(a);
    }
    if (!rest.empty()) {
      out_ += " ";
      PrintDictionary(out_, rest);
    }
    PushScope(false);
    const Block& b = op.region(0).front();
    out_ += " (";
    for (size_t i = 0; i < b.num_arguments(); ++i) {
      out_ += (i ? ", " : "") + NameArg(b.argument(i)) + ": " + b.argument(i)->type().ToString() +
              Loc(b.argument_locs()[i]);
    }
    out_ += ") ";
    PrintRegionWithNamedArgs(op.region(0));
    PopScope();
    out_ += " : " + FunctionType{op.OperandTypes(), op.ResultTypes()}.ToString();
  }

  const PrintOptions& options_;
  std::string out_;
  int indent_ = 0;
  std::vector<Scope> scopes_;
  std::unordered_map<const Value*, std::string> names_;
};

}  // namespace

std::string PrintOperation(const Operation& op, const PrintOptions& options) {
  Printer p(options);
  p.PrintTopLevel(op);
  return p.Take();
}

std::string PrintModule(const Module& module, const PrintOptions& options) {
  return PrintOperation(module.op(), options);
}

std::string PrintModules(const std::vector<std::unique_ptr<Module>>& modules, const PrintOptions& options) {
  std::string out;
  for (size_t i = 0; i < modules.size(); ++i) {
    if (i) out += "// -----\n";
    out += PrintModule(*modules[i], options);
  }
  return out;
}

}  // namespace hlograph::ir
