// Operations: result names, the generic form, and the pretty forms declared
// by each OpDef's syntax string (interpreted here, printed by ir/printer.cpp).
#include <algorithm>
#include <cstring>

#include "frontend/parser_impl.h"
#include "ir/printing_utils.h"

namespace hlograph::frontend {
namespace {

constexpr size_t kMaxResults = 1 << 16;


}  // namespace

std::unique_ptr<ir::Operation> Parser::NewOp(const ir::OpDef* def, const ir::SourcePos& pos) {
  return std::make_unique<ir::Operation>(def, pos);
}

bool Parser::ParseBlockBody(ir::Block* block, Tok end) {
  while (!tok_.Is(end) && !tok_.Is(Tok::kEof) && !tok_.Is(Tok::kCaretId)) {
    if (!ParseOperation(block)) return false;
  }
  return true;
}

bool Parser::ParseOperandRef(ir::Value** value) {
  if (!tok_.Is(Tok::kPercentId)) return Error("expected an SSA value (%name)");
  const char* where = tok_.text.data();
  std::string name(tok_.text.substr(1));
  Advance();
  size_t index = 0;
  bool has_index = false;
  if (tok_.Is(Tok::kHashId) && tok_.text.data() == where + name.size() + 1) {
    std::string digits(tok_.text.substr(1));
    if (digits.empty() || digits.size() > 6 || !std::all_of(digits.begin(), digits.end(), ::isdigit)) {
      return Error("expected a result number after '#'");
    }
    index = std::stoul(digits);
    has_index = true;
    Advance();
  }
  ir::Value* v = LookupValue(name, index);
  if (!v) {
    if (LookupValue(name, 0)) return ErrorAt(where, "%" + name + " has no result #" + std::to_string(index));
    return ErrorAt(where, "use of undefined value %" + name);
  }
  if (!has_index && LookupValue(name, 1)) {
    return ErrorAt(where, "%" + name + " names several results; use %" + name + "#N");
  }
  *value = v;
  return true;
}

bool Parser::ParseOperandList(std::vector<ir::Value*>* values) {
  if (!tok_.Is(Tok::kPercentId)) return true;
  while (true) {
    ir::Value* v;
    if (!ParseOperandRef(&v)) return false;
    values->push_back(v);
    if (!tok_.Is(Tok::kComma)) return true;
    State s = Save();
    Advance();
    if (!tok_.Is(Tok::kPercentId)) {
      Restore(s);
      return true;
    }
  }
}

bool Parser::ParseOperation(ir::Block* block) {
  DepthGuard guard(this);
  if (!CheckDepth(guard)) return false;
  const ir::SourcePos pos = Pos();
  const char* op_start = tok_.text.data();
  // Result groups: `%a, %b:2 = `.
  std::vector<std::pair<std::string, size_t>> groups;
  std::vector<const char*> group_where;
  size_t num_results = 0;
  if (tok_.Is(Tok::kPercentId)) {
    while (true) {
      if (!tok_.Is(Tok::kPercentId)) return Error("expected a result name");
      group_where.push_back(tok_.text.data());
      std::string name(tok_.text.substr(1));
      Advance();
      int64_t count = 1;
      if (Consume(Tok::kColon)) {
        if (!ParseInteger(&count)) return false;
        if (count < 1 || static_cast<size_t>(count) > kMaxResults) return Error("invalid result count");
      }
      groups.emplace_back(std::move(name), static_cast<size_t>(count));
      num_results += static_cast<size_t>(count);
      if (num_results > kMaxResults) return Error("too many results");
      if (!Consume(Tok::kComma)) break;
    }
    if (!Expect(Tok::kEqual, "'=' after the result names")) return false;
  }
  // The op name: "dialect.op" (generic form) or dialect.op / bare func op.
  const char* name_where = tok_.text.data();
  bool generic = false;
  std::string op_name;
  if (tok_.Is(Tok::kString)) {
    if (!ParseStringLiteral(&op_name)) return false;
    generic = true;
  } else if (tok_.Is(Tok::kBareId)) {
    op_name = std::string(tok_.text);
    // Bare names: `module` is builtin's, `return`/`call`/`func` are func's.
    if (op_name.find('.') == std::string::npos) op_name = (op_name == "module" ? "builtin." : "func.") + op_name;
    Advance();
  } else {
    return Error("expected an operation, found '" + std::string(tok_.text.substr(0, 40)) + "'");
  }
  const ir::OpDef* def = ir::LookupOp(op_name);
  if (!def) return ErrorAt(name_where, "unknown operation '" + op_name + "'");
  std::unique_ptr<ir::Operation> op = NewOp(def, pos);
  // Attach first so that nested regions can see their ancestors (symbol
  // lookups, default dialects); results are named after parsing.
  ir::Operation* raw = block->Append(std::move(op));
  bool ok;
  if (generic || def->syntax.empty()) {
    if (!generic) return ErrorAt(name_where, "'" + op_name + "' has no pretty form; write it as \"" + op_name + "\"(...)");
    ok = ParseGenericOperation(raw, num_results);
  } else if (def->syntax == "custom:module") {
    ok = ParseModuleOp(raw);
  } else if (def->syntax == "custom:func") {
    ok = ParseFuncOp(raw);
  } else if (def->syntax == "custom:reduce") {
    ok = ParseReduceOp(raw, num_results);
  } else if (def->syntax == "custom:while") {
    ok = ParseWhileOp(raw, num_results);
  } else if (def->syntax == "custom:manual_computation") {
    ok = ParseManualComputationOp(raw, num_results);
  } else if (def->syntax == "custom:scan") {
    ok = ParseScanOp(raw, num_results);
  } else {
    ok = ParseSyntaxItems(raw, ir::ParseSyntaxSpec(def->syntax), num_results);
  }
  if (!ok) return false;
  ir::LocationPtr loc;
  if (!ParseOptionalLocation(&loc)) return false;
  raw->set_loc(loc);
  if (raw->num_results() != num_results) {
    return ErrorAt(op_start, "'" + op_name + "' produces " + std::to_string(raw->num_results()) + " results but " +
                                 std::to_string(num_results) + " are named");
  }
  size_t next = 0;
  for (size_t g = 0; g < groups.size(); ++g) {
    std::vector<ir::Value*> values;
    for (size_t i = 0; i < groups[g].second; ++i) values.push_back(raw->result(next++));
    if (!DefineValues(groups[g].first, std::move(values), group_where[g])) return false;
  }
  return true;
}

bool Parser::ParseGenericOperation(ir::Operation* op, size_t num_results) {
  if (!Expect(Tok::kLParen, "'(' before the operands")) return false;
  std::vector<ir::Value*> operands;
  if (!ParseOperandList(&operands)) return false;
  if (!Expect(Tok::kRParen, "')' after the operands")) return false;
  for (ir::Value* v : operands) op->AddOperand(v);
  if (tok_.Is(Tok::kLSquare)) return Error("successor blocks are not supported");
  std::vector<ir::NamedAttribute> attrs;
  if (Consume(Tok::kLess)) {
    if (!ParseDictionary(&attrs)) return false;
    if (!Expect(Tok::kGreater, "'>' to close the properties")) return false;
  }
  if (Consume(Tok::kLParen)) {
    do {
      if (!ParseRegion(op->AddRegion())) return false;
    } while (Consume(Tok::kComma));
    if (!Expect(Tok::kRParen, "')' after the regions")) return false;
  }
  if (tok_.Is(Tok::kLBrace)) {
    const char* where = tok_.text.data();
    std::vector<ir::NamedAttribute> more;
    if (!ParseDictionary(&more)) return false;
    for (auto& a : more) {
      for (const auto& b : attrs) {
        if (a.first == b.first) return ErrorAt(where, "attribute '" + a.first + "' given twice");
      }
      attrs.push_back(std::move(a));
    }
  }
  for (auto& a : attrs) op->SetAttr(a.first, std::move(a.second));
  if (!Expect(Tok::kColon, "':' and the op's function type")) return false;
  return ParseTrailingFunctionType(op, num_results);
}

bool Parser::ParseTrailingFunctionType(ir::Operation* op, size_t num_results) {
  const char* where = tok_.text.data();
  ir::FunctionType fn;
  if (!ParseFunctionType(&fn)) return false;
  if (!CheckOperandTypes(*op, fn.inputs, where)) return false;
  if (fn.results.size() != num_results) {
    return ErrorAt(where, "the type lists " + std::to_string(fn.results.size()) + " results but " +
                              std::to_string(num_results) + " are named");
  }
  for (auto& t : fn.results) op->AddResult(t);
  return true;
}

bool Parser::ParseRegion(ir::Region* region) {
  DepthGuard guard(this);
  if (!CheckDepth(guard)) return false;
  if (!Expect(Tok::kLBrace, "'{' to open a region")) return false;
  PushScope(region->parent()->def().Has(ir::kIsolatedFromAbove));
  do {
    ir::Block* block = region->AddBlock();
    if (tok_.Is(Tok::kCaretId)) {
      Advance();  // labels are positional; the printer renumbers them
      if (Consume(Tok::kLParen)) {
        if (!tok_.Is(Tok::kRParen)) {
          do {
            if (!ParseBlockArgument(block)) return false;
          } while (Consume(Tok::kComma));
        }
        if (!Expect(Tok::kRParen, "')' after the block arguments")) return false;
      }
      if (!Expect(Tok::kColon, "':' after the block label")) return false;
    } else if (region->blocks().size() > 1) {
      return Error("expected a block label (^bbN)");
    }
    if (!ParseBlockBody(block, Tok::kRBrace)) return false;
  } while (tok_.Is(Tok::kCaretId));
  PopScope();
  return Expect(Tok::kRBrace, "'}' to close the region");
}

bool Parser::ParseBlockArgument(ir::Block* block) {
  if (!tok_.Is(Tok::kPercentId)) return Error("expected a block argument (%name: type)");
  const char* where = tok_.text.data();
  std::string name(tok_.text.substr(1));
  Advance();
  if (!Expect(Tok::kColon, "':' after the argument name")) return false;
  ir::Type type;
  if (!ParseType(&type)) return false;
  ir::Value* arg = block->AddArgument(type, name);
  if (!ParseOptionalLocation(&block->argument_locs().back())) return false;
  return DefineValues(name, {arg}, where);
}

bool Parser::CheckOperandTypes(const ir::Operation& op, const std::vector<ir::Type>& types, const char* where) {
  if (types.size() != op.num_operands()) {
    return ErrorAt(where, "the type lists " + std::to_string(types.size()) + " operands but the op has " +
                              std::to_string(op.num_operands()));
  }
  for (size_t i = 0; i < types.size(); ++i) {
    if (types[i] != op.operand(i)->type()) {
      return ErrorAt(where, "operand #" + std::to_string(i) + " has type " + op.operand(i)->type().ToString() +
                                " but the op's type says " + types[i].ToString());
    }
  }
  return true;
}

bool Parser::ParseTypeSuffix(ir::Operation* op, const std::string& style, size_t num_results) {
  if (!tok_.Is(Tok::kColon)) {
    if ((style == "operands" && op->num_operands() == 0 && num_results == 0) ||
        (style == "result" && num_results == 0)) {
      return true;
    }
    return Error("expected ':' and the op's types");
  }
  Advance();
  const char* where = tok_.text.data();
  std::vector<ir::Type> results;
  if (tok_.Is(Tok::kLParen)) {
    ir::FunctionType fn;
    if (!ParseFunctionType(&fn) || !CheckOperandTypes(*op, fn.inputs, where)) return false;
    results = std::move(fn.results);
  } else {
    std::vector<ir::Type> list;
    if (!ParseTypeList(&list)) return false;
    if (Consume(Tok::kArrow)) {
      if (!CheckOperandTypes(*op, list, where) || !ParseResultTypes(&results)) return false;
    } else if (style == "same") {
      if (list.size() != 1) return ErrorAt(where, "expected one type shared by the operands and results");
      for (size_t i = 0; i < op->num_operands(); ++i) {
        if (op->operand(i)->type() != list[0]) {
          return ErrorAt(where, "operand #" + std::to_string(i) + " has type " + op->operand(i)->type().ToString() +
                                    " but the op's type says " + list[0].ToString());
        }
      }
      results.assign(num_results, list[0]);
    } else if (style == "select") {
      if (list.size() != 2) return ErrorAt(where, "expected the predicate type and the result type");
      if (op->num_operands() != 3) return ErrorAt(where, "select takes three operands");
      if (!CheckOperandTypes(*op, {list[0], list[1], list[1]}, where)) return false;
      results = {list[1]};
    } else if (style == "result") {
      results = std::move(list);
    } else if (style == "operands") {
      if (!CheckOperandTypes(*op, list, where)) return false;
      if (num_results > 0) results = std::move(list);
    } else {
      return ErrorAt(where, style == "arrow" ? "expected '->' and the result types" : "expected a function type (A, B) -> R");
    }
  }
  if (results.size() != num_results) {
    return ErrorAt(where, "the type lists " + std::to_string(results.size()) + " results but " +
                              std::to_string(num_results) + " are named");
  }
  for (auto& t : results) op->AddResult(t);
  return true;
}

bool Parser::ParseSyntaxItems(ir::Operation* op, const std::vector<ir::SyntaxItem>& items, size_t num_results) {
  using Kind = ir::SyntaxItem::Kind;
  for (size_t i = 0; i < items.size(); ++i) {
    const ir::SyntaxItem& item = items[i];
    switch (item.kind) {
      case Kind::kOptBegin: {
        // Present when its leading literals are all there.
        State s = Save();
        bool present = true;
        size_t j = i + 1;
        for (; j < items.size() && items[j].kind == Kind::kLiteral; ++j) {
          if (tok_.text != items[j].text) {
            present = false;
            break;
          }
          Advance();
        }
        Restore(s);
        if (!present) {
          while (i < items.size() && items[i].kind != Kind::kOptEnd) ++i;
        }
        break;
      }
      case Kind::kOptEnd: break;
      case Kind::kOperands: {
        std::vector<ir::Value*> values;
        if (!ParseOperandList(&values)) return false;
        for (ir::Value* v : values) op->AddOperand(v);
        break;
      }
      case Kind::kOperand0: {
        ir::Value* v;
        if (!ParseOperandRef(&v)) return false;
        op->AddOperand(v);
        break;
      }
      case Kind::kAttr: {
        const ir::AttrSpec* spec = op->def().FindAttr(item.text);
        ir::Attribute a;
        if (spec ? !ParseShortAttribute(*spec, &a) : !ParseAttribute(&a)) return false;
        op->SetAttr(item.text, std::move(a));
        break;
      }
      case Kind::kSymbol: {
        if (!tok_.Is(Tok::kAtId)) return Error("expected a symbol (@name)");
        std::string name(tok_.text.substr(1));
        if (!name.empty() && name[0] == '"' && !UnescapeString(name, &name)) return Error("malformed symbol name");
        Advance();
        const ir::AttrSpec* spec = op->def().FindAttr(item.text);
        if (spec && spec->kind == ir::AttrKind::kString) {
          op->SetAttr(item.text, ir::MakeString(std::move(name)));
        } else {
          op->SetAttr(item.text, ir::Attribute::Make(ir::SymbolRefAttr{std::move(name)}));
        }
        break;
      }
      case Kind::kDict: {
        if (!tok_.Is(Tok::kLBrace)) break;
        const char* where = tok_.text.data();
        std::vector<ir::NamedAttribute> attrs;
        if (!ParseDictionary(&attrs)) return false;
        for (auto& a : attrs) {
          if (op->attr(a.first)) return ErrorAt(where, "attribute '" + a.first + "' given twice");
          op->SetAttr(a.first, std::move(a.second));
        }
        break;
      }
      case Kind::kRegions:
        // ({...}, {...}) when present: a region opens right after the '('.
        if (tok_.Is(Tok::kLParen)) {
          State s = Save();
          Advance();
          const bool regions = tok_.Is(Tok::kLBrace);
          Restore(s);
          if (regions) {
            Advance();
            do {
              if (!ParseRegion(op->AddRegion())) return false;
            } while (Consume(Tok::kComma));
            if (!Expect(Tok::kRParen, "')' after the regions")) return false;
          }
        }
        break;
      case Kind::kCustom:
        if (!ParseCustomPiece(op, item.text)) return false;
        break;
      case Kind::kTypes:
        if (!ParseTypeSuffix(op, item.text, num_results)) return false;
        break;
      case Kind::kLiteral:
        if (tok_.text != item.text || tok_.Is(Tok::kString)) {
          return Error("expected '" + item.text + "' in '" + op->name() + "', found '" +
                       std::string(tok_.text.substr(0, 40)) + "'");
        }
        Advance();
        break;
    }
  }
  return true;
}

bool Parser::ParseCustomPiece(ir::Operation* op, const std::string& piece) {
  if (piece == "constant") {
    const char* where = tok_.text.data();
    ir::Attribute value;
    if (!ParseAttribute(&value)) return false;
    const auto* dense = value.as<ir::DenseElementsAttr>();
    if (!dense) return ErrorAt(where, "expected dense<...> : tensor<...> as the constant's value");
    op->AddResult(dense->type);
    op->SetAttr("value", std::move(value));
    return true;
  }
  if (piece == "precision_format") {
    // e5m10: exponent and mantissa bits.
    std::string_view t = tok_.text;
    size_t m = t.find('m');
    auto digits = [](std::string_view s) {
      return !s.empty() && s.size() < 6 && std::all_of(s.begin(), s.end(), ::isdigit);
    };
    if (!tok_.Is(Tok::kBareId) || t.empty() || t[0] != 'e' || m == std::string_view::npos ||
        !digits(t.substr(1, m - 1)) || !digits(t.substr(m + 1))) {
      return Error("expected a format like e5m10");
    }
    op->SetAttr("exponent_bits", ir::Attribute::Make(ir::IntegerAttr{std::stoi(std::string(t.substr(1, m - 1))), ir::ElementType::kI32}));
    op->SetAttr("mantissa_bits", ir::Attribute::Make(ir::IntegerAttr{std::stoi(std::string(t.substr(m + 1))), ir::ElementType::kI32}));
    Advance();
    return true;
  }
  if (piece == "slice_ranges") {
    std::vector<int64_t> start, limit, strides;
    if (!Expect(Tok::kLSquare, "'[' to start the slice ranges")) return false;
    if (!tok_.Is(Tok::kRSquare)) {
      do {
        int64_t a, b, c = 1;
        if (!ParseInteger(&a) || !Expect(Tok::kColon, "':' in a slice range") || !ParseInteger(&b)) return false;
        if (Consume(Tok::kColon) && !ParseInteger(&c)) return false;
        start.push_back(a);
        limit.push_back(b);
        strides.push_back(c);
      } while (Consume(Tok::kComma));
    }
    if (!Expect(Tok::kRSquare, "']' to close the slice ranges")) return false;
    op->SetAttr("start_indices", ir::MakeI64Array(std::move(start)));
    op->SetAttr("limit_indices", ir::MakeI64Array(std::move(limit)));
    op->SetAttr("strides", ir::MakeI64Array(std::move(strides)));
    return true;
  }
  if (piece == "dot_dims") {
    ir::DotDimsAttr dims;
    auto pair = [&](std::vector<int64_t>* lhs, std::vector<int64_t>* rhs) {
      return Expect(Tok::kEqual, "'='") && ParseI64List(lhs) && ExpectKeyword("x") && ParseI64List(rhs);
    };
    if (ConsumeKeyword("batching_dims")) {
      if (!pair(&dims.lhs_batching, &dims.rhs_batching) || !Expect(Tok::kComma, "','")) return false;
    }
    if (!ExpectKeyword("contracting_dims") || !pair(&dims.lhs_contracting, &dims.rhs_contracting)) return false;
    op->SetAttr("dot_dimension_numbers", ir::Attribute::Make(std::move(dims)));
    return true;
  }
  if (piece == "conv_window") {
    if (!tok_.Is(Tok::kComma)) return true;
    State s = Save();
    Advance();
    if (!tok_.IsKeyword("window")) {
      Restore(s);
      return true;
    }
    Advance();
    if (!Expect(Tok::kEqual, "'=' after window") || !Expect(Tok::kLBrace, "'{' to open the window")) return false;
    if (!tok_.Is(Tok::kRBrace)) {
      do {
        const char* where = tok_.text.data();
        std::string field;
        if (!ParseAttributeName(&field) || !Expect(Tok::kEqual, "'='")) return false;
        if (field == "stride" || field == "lhs_dilate" || field == "rhs_dilate") {
          std::vector<int64_t> v;
          if (!ParseI64List(&v)) return false;
          const char* attr = field == "stride" ? "window_strides" : field == "lhs_dilate" ? "lhs_dilation" : "rhs_dilation";
          op->SetAttr(attr, ir::MakeI64Array(std::move(v)));
        } else if (field == "pad") {
          std::vector<int64_t> flat;
          int64_t rows = 0;
          if (!Expect(Tok::kLSquare, "'['")) return false;
          if (!tok_.Is(Tok::kRSquare)) {
            do {
              std::vector<int64_t> row;
              if (!ParseI64List(&row)) return false;
              if (row.size() != 2) return Error("each padding entry is [low, high]");
              flat.insert(flat.end(), row.begin(), row.end());
              ++rows;
            } while (Consume(Tok::kComma));
          }
          if (!Expect(Tok::kRSquare, "']'")) return false;
          ir::DenseElementsAttr d;
          d.type = ir::Type::Tensor(ir::ElementType::kI64, {rows, 2});
          d.bytes.resize(flat.size() * 8);
          std::memcpy(d.bytes.data(), flat.data(), d.bytes.size());
          op->SetAttr("padding", ir::Attribute::Make(std::move(d)));
        } else if (field == "reverse") {
          ir::DenseArrayAttr arr{ir::ElementType::kI1, {}};
          if (!Expect(Tok::kLSquare, "'['")) return false;
          if (!tok_.Is(Tok::kRSquare)) {
            do {
              if (!tok_.IsKeyword("true") && !tok_.IsKeyword("false") && !tok_.Is(Tok::kInteger)) {
                return Error("expected true or false");
              }
              arr.values.push_back(tok_.IsKeyword("true") || tok_.text == "1");
              Advance();
            } while (Consume(Tok::kComma));
          }
          if (!Expect(Tok::kRSquare, "']'")) return false;
          op->SetAttr("window_reversal", ir::Attribute::Make(std::move(arr)));
        } else {
          return ErrorAt(where, "unknown window field '" + field + "' (expected stride, pad, lhs_dilate, rhs_dilate, reverse)");
        }
      } while (Consume(Tok::kComma));
    }
    return Expect(Tok::kRBrace, "'}' to close the window");
  }
  return Error("internal: unknown syntax piece '" + piece + "'");
}

}  // namespace hlograph::frontend
