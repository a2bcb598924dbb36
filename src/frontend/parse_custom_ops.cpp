// Ops with hand-written pretty forms: module, func.func, stablehlo.reduce,
// stablehlo.while and sdy.manual_computation; and the file's top level.
#include "frontend/parser_impl.h"

namespace hlograph::frontend {
namespace {

struct ArgSpec {
  std::string name;
  const char* where;
  ir::Type type;
  ir::LocationPtr loc;
};

}  // namespace

// `{ body }` for a region whose entry arguments were written outside it.
static bool ParseBodyWithArgs(Parser& p, ir::Region* region, const std::vector<ArgSpec>& args) {
  ir::Block* block = region->AddBlock();
  if (!p.Expect(Tok::kLBrace, "'{' to open the region")) return false;
  p.PushScope(region->parent()->def().Has(ir::kIsolatedFromAbove));
  for (const ArgSpec& a : args) {
    ir::Value* v = block->AddArgument(a.type, a.name);
    block->argument_locs().back() = a.loc;
    if (!p.DefineValues(a.name, {v}, a.where)) return false;
  }
  if (!p.ParseBlockBody(block, Tok::kRBrace)) return false;
  if (p.cur().Is(Tok::kCaretId)) return p.Error("this region takes a single block");
  p.PopScope();
  return p.Expect(Tok::kRBrace, "'}' to close the region");
}

static bool ParseArgSpec(Parser& p, ArgSpec* arg, bool with_loc) {
  if (!p.cur().Is(Tok::kPercentId)) return p.Error("expected an argument (%name: type)");
  arg->where = p.cur().text.data();
  arg->name = std::string(p.cur().text.substr(1));
  p.Advance();
  if (!p.Expect(Tok::kColon, "':' after the argument name") || !p.ParseType(&arg->type)) return false;
  return !with_loc || p.ParseOptionalLocation(&arg->loc);
}

bool Parser::ParseModuleOp(ir::Operation* op) {
  if (tok_.Is(Tok::kAtId)) {
    std::string name(tok_.text.substr(1));
    if (!name.empty() && name[0] == '"' && !UnescapeString(name, &name)) return Error("malformed module name");
    op->SetAttr("sym_name", ir::MakeString(std::move(name)));
    Advance();
  }
  if (ConsumeKeyword("attributes")) {
    std::vector<ir::NamedAttribute> attrs;
    if (!ParseDictionary(&attrs)) return false;
    for (auto& a : attrs) {
      if (a.first == "sym_name") return Error("sym_name is given by the module's @name");
      op->SetAttr(a.first, std::move(a.second));
    }
  }
  return ParseBodyWithArgs(*this, op->AddRegion(), {});
}

bool Parser::ParseFuncOp(ir::Operation* op) {
  if (tok_.IsKeyword("public") || tok_.IsKeyword("private") || tok_.IsKeyword("nested")) {
    op->SetAttr("sym_visibility", ir::MakeString(std::string(tok_.text)));
    Advance();
  }
  if (!tok_.Is(Tok::kAtId)) return Error("expected the function name (@name)");
  std::string name(tok_.text.substr(1));
  if (!name.empty() && name[0] == '"' && !UnescapeString(name, &name)) return Error("malformed function name");
  op->SetAttr("sym_name", ir::MakeString(std::move(name)));
  Advance();
  // Arguments: %name: type {attrs}? loc(...)?
  std::vector<ArgSpec> args;
  std::vector<ir::Attribute> arg_attrs;
  bool any_arg_attrs = false;
  ir::FunctionType sig;
  if (!Expect(Tok::kLParen, "'(' to open the arguments")) return false;
  if (!tok_.Is(Tok::kRParen)) {
    do {
      ArgSpec a;
      if (!ParseArgSpec(*this, &a, false)) return false;
      ir::DictionaryAttr dict;
      if (tok_.Is(Tok::kLBrace) && !ParseDictionary(&dict.entries)) return false;
      any_arg_attrs |= !dict.entries.empty();
      arg_attrs.push_back(ir::Attribute::Make(std::move(dict)));
      if (!ParseOptionalLocation(&a.loc)) return false;
      sig.inputs.push_back(a.type);
      args.push_back(std::move(a));
    } while (Consume(Tok::kComma));
  }
  if (!Expect(Tok::kRParen, "')' to close the arguments")) return false;
  // Results: type | (type {attrs}?, ...)
  std::vector<ir::Attribute> res_attrs;
  bool any_res_attrs = false;
  if (Consume(Tok::kArrow)) {
    // Result attributes exist only in the parenthesised form: after a bare
    // result type, '{' opens the body.
    auto parse_result = [&](bool with_attrs) {
      ir::Type t;
      if (!ParseType(&t)) return false;
      ir::DictionaryAttr dict;
      if (with_attrs && tok_.Is(Tok::kLBrace) && !ParseDictionary(&dict.entries)) return false;
      any_res_attrs |= !dict.entries.empty();
      res_attrs.push_back(ir::Attribute::Make(std::move(dict)));
      sig.results.push_back(std::move(t));
      return true;
    };
    if (Consume(Tok::kLParen)) {
      if (!tok_.Is(Tok::kRParen)) {
        do {
          if (!parse_result(true)) return false;
        } while (Consume(Tok::kComma));
      }
      if (!Expect(Tok::kRParen, "')' to close the results")) return false;
    } else if (!parse_result(false)) {
      return false;
    }
  }
  if (any_arg_attrs) op->SetAttr("arg_attrs", ir::Attribute::Make(ir::ArrayAttr{std::move(arg_attrs)}));
  if (any_res_attrs) op->SetAttr("res_attrs", ir::Attribute::Make(ir::ArrayAttr{std::move(res_attrs)}));
  op->SetAttr("function_type", ir::Attribute::Make(ir::FunctionTypeAttr{std::move(sig)}));
  if (!ParseExtraAttributes(op, "the function's")) return false;
  if (!tok_.Is(Tok::kLBrace)) return Error("expected the function body '{' (declarations without a body are not supported)");
  return ParseBodyWithArgs(*this, op->AddRegion(), args);
}

bool Parser::ParseReduceOp(ir::Operation* op, size_t num_results) {
  // (%in init: %init), (...)
  std::vector<ir::Value*> inputs, inits;
  do {
    if (!Expect(Tok::kLParen, "'(' before a reduce input")) return false;
    ir::Value *in, *init;
    if (!ParseOperandRef(&in) || !ExpectKeyword("init") || !Expect(Tok::kColon, "':' after init") ||
        !ParseOperandRef(&init) || !Expect(Tok::kRParen, "')' after the init value")) {
      return false;
    }
    inputs.push_back(in);
    inits.push_back(init);
  } while (Consume(Tok::kComma));
  for (ir::Value* v : inputs) op->AddOperand(v);
  for (ir::Value* v : inits) op->AddOperand(v);
  std::string applies;
  const char* applies_where = nullptr;
  if (ConsumeKeyword("applies")) {
    applies_where = tok_.text.data();
    if (!tok_.Is(Tok::kBareId)) return Error("expected the reducer op name after 'applies'");
    applies = std::string(tok_.text);
    Advance();
  }
  if (!ExpectKeyword("across") || !ExpectKeyword("dimensions") || !Expect(Tok::kEqual, "'='")) return false;
  std::vector<int64_t> dims;
  if (!ParseI64List(&dims)) return false;
  op->SetAttr("dimensions", ir::MakeI64Array(std::move(dims)));
  if (tok_.Is(Tok::kLBrace)) {
    std::vector<ir::NamedAttribute> attrs;
    if (!ParseDictionary(&attrs)) return false;
    for (auto& a : attrs) op->SetAttr(a.first, std::move(a.second));
  }
  if (!Expect(Tok::kColon, "':' and the reduce's function type")) return false;
  if (!ParseTrailingFunctionType(op, num_results)) return false;
  ir::Region* region = op->AddRegion();
  if (!applies.empty()) {
    // The compact form: the body is `applies`'s op on the two accumulators.
    const ir::OpDef* def = ir::LookupOp(applies);
    if (!def || def->num_operands != 2 || def->syntax != "ops dict :same") {
      return ErrorAt(applies_where, "'" + applies + "' is not a binary elementwise op usable with 'applies'");
    }
    if (inputs.size() != 1) return ErrorAt(applies_where, "'applies' takes exactly one input");
    const ir::Type& t = inits[0]->type();
    ir::Block* block = region->AddBlock();
    ir::Value* a = block->AddArgument(t);
    ir::Value* b = block->AddArgument(t);
    auto inner = NewOp(def, op->pos());
    inner->AddOperand(a);
    inner->AddOperand(b);
    ir::Value* r = inner->AddResult(t);
    block->Append(std::move(inner));
    auto ret = NewOp(ir::LookupOp(ir::OpId::kReturn), op->pos());
    ret->AddOperand(r);
    block->Append(std::move(ret));
    return true;
  }
  // reducer(%acc: T, %val: T) (...) { body }
  if (!ExpectKeyword("reducer")) return false;
  std::vector<ArgSpec> accs, vals;
  while (Consume(Tok::kLParen)) {
    ArgSpec acc, val;
    if (!ParseArgSpec(*this, &acc, true) || !Expect(Tok::kComma, "','") || !ParseArgSpec(*this, &val, true) ||
        !Expect(Tok::kRParen, "')'")) {
      return false;
    }
    accs.push_back(std::move(acc));
    vals.push_back(std::move(val));
  }
  accs.insert(accs.end(), vals.begin(), vals.end());
  return ParseBodyWithArgs(*this, region, accs);
}

bool Parser::ParseWhileOp(ir::Operation* op, size_t num_results) {
  // (%iterArg = %init, ...) : types cond { } do { }
  std::vector<ArgSpec> args;
  if (!Expect(Tok::kLParen, "'(' after stablehlo.while")) return false;
  if (!tok_.Is(Tok::kRParen)) {
    do {
      ArgSpec a;
      if (!tok_.Is(Tok::kPercentId)) return Error("expected a loop variable (%name = %init)");
      a.where = tok_.text.data();
      a.name = std::string(tok_.text.substr(1));
      Advance();
      ir::Value* init;
      if (!Expect(Tok::kEqual, "'=' after the loop variable") || !ParseOperandRef(&init)) return false;
      op->AddOperand(init);
      args.push_back(std::move(a));
    } while (Consume(Tok::kComma));
  }
  if (!Expect(Tok::kRParen, "')'")) return false;
  if (tok_.Is(Tok::kLBrace)) {
    std::vector<ir::NamedAttribute> attrs;
    if (!ParseDictionary(&attrs)) return false;
    for (auto& a : attrs) op->SetAttr(a.first, std::move(a.second));
  }
  std::vector<ir::Type> types;
  if (!args.empty()) {
    if (!Expect(Tok::kColon, "':' and the loop types")) return false;
    const char* where = tok_.text.data();
    if (!ParseTypeList(&types) || !CheckOperandTypes(*op, types, where)) return false;
    if (types.size() != num_results) {
      return ErrorAt(where, "the loop carries " + std::to_string(types.size()) + " values but " +
                                std::to_string(num_results) + " results are named");
    }
  }
  for (size_t i = 0; i < args.size(); ++i) args[i].type = types[i];
  for (auto& t : types) op->AddResult(t);
  if (!ExpectKeyword("cond") || !ParseBodyWithArgs(*this, op->AddRegion(), args)) return false;
  return ExpectKeyword("do") && ParseBodyWithArgs(*this, op->AddRegion(), args);
}

bool Parser::ParseManualComputationOp(ir::Operation* op, size_t num_results) {
  if (!Expect(Tok::kLParen, "'('")) return false;
  std::vector<ir::Value*> operands;
  if (!ParseOperandList(&operands) || !Expect(Tok::kRParen, "')'")) return false;
  for (ir::Value* v : operands) op->AddOperand(v);
  for (const char* name : {"in_shardings", "out_shardings", "manual_axes"}) {
    ir::Attribute a;
    if (!ExpectKeyword(name) || !Expect(Tok::kEqual, "'='") || !ParseShortAttribute(*op->def().FindAttr(name), &a)) {
      return false;
    }
    op->SetAttr(name, std::move(a));
  }
  if (tok_.Is(Tok::kLBrace)) {
    std::vector<ir::NamedAttribute> attrs;
    if (!ParseDictionary(&attrs)) return false;
    for (auto& a : attrs) op->SetAttr(a.first, std::move(a.second));
  }
  std::vector<ArgSpec> args;
  if (!Expect(Tok::kLParen, "'(' before the region arguments")) return false;
  if (!tok_.Is(Tok::kRParen)) {
    do {
      ArgSpec a;
      if (!ParseArgSpec(*this, &a, true)) return false;
      args.push_back(std::move(a));
    } while (Consume(Tok::kComma));
  }
  if (!Expect(Tok::kRParen, "')'")) return false;
  if (!ParseBodyWithArgs(*this, op->AddRegion(), args)) return false;
  if (!Expect(Tok::kColon, "':' and the function type")) return false;
  const char* where = tok_.text.data();
  ir::FunctionType fn;
  if (!ParseFunctionType(&fn) || !CheckOperandTypes(*op, fn.inputs, where)) return false;
  if (fn.results.size() != num_results) return ErrorAt(where, "result count does not match the named results");
  for (auto& t : fn.results) op->AddResult(t);
  return true;
}

bool Parser::ParseWholeModule(std::unique_ptr<ir::Module>* module) {
  auto module_op = ir::NewModuleOp(Pos());
  ir::Block* implicit_body = &module_op->region(0).front();
  std::unique_ptr<ir::Operation> explicit_module;
  PushScope(true);
  while (!tok_.Is(Tok::kEof)) {
    if (!error_.empty()) return false;
    if (tok_.Is(Tok::kHashId)) {
      if (!ParseLocationAliasDefinition()) return false;
      continue;
    }
    if (tok_.Is(Tok::kFileMetadataBegin)) return Error("file metadata {-# ... #-} (dialect resources) is not supported");
    if (explicit_module) return Error("expected the end of the input after the module (use '// -----' between modules)");
    if (tok_.IsKeyword("module") || tok_.IsKeyword("builtin.module")) {
      if (!implicit_body->operations().empty()) return Error("a module cannot follow top-level operations");
      ir::Block holder(nullptr);
      if (!ParseOperation(&holder)) return false;
      // ParseOperation appended the module to `holder`; take it back out.
      explicit_module = holder.Remove(holder.operations().front().get());
      continue;
    }
    if (!ParseOperation(implicit_body)) return false;
  }
  PopScope();
  if (!error_.empty()) return false;
  if (explicit_module) module_op = std::move(explicit_module);
  if (!ResolveLocationAliases()) return false;
  *module = std::make_unique<ir::Module>(std::move(module_op));
  return true;
}

}  // namespace hlograph::frontend
