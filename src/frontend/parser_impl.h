// The recursive-descent parser behind frontend/parser.h. One class, split
// over files by what it parses: parse_types.cpp, parse_attributes.cpp,
// parse_locations.cpp, parse_ops.cpp (generic form and the syntax little
// language), parse_custom_ops.cpp (module, func, reduce, while, ...),
// parse_scan.cpp (chlo.scan).
#pragma once

#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "frontend/lexer.h"
#include "ir/attribute.h"
#include "ir/module.h"
#include "ir/op_def.h"
#include "ir/op_syntax.h"

namespace hlograph::frontend {

class Parser {
 public:
  explicit Parser(Lexer lexer);

  // Parses one module (explicit `module {...}` or bare top-level ops) and the
  // `#loc` aliases around it, up to the end of the text.
  bool ParseWholeModule(std::unique_ptr<ir::Module>* module);
  const std::string& error() const { return error_; }

  // ---- tokens -------------------------------------------------------------
  const Token& cur() const { return tok_; }
  void Advance();
  bool Consume(Tok kind);
  bool ConsumeKeyword(std::string_view kw);
  bool Expect(Tok kind, const char* what);
  bool ExpectKeyword(std::string_view kw);
  bool Error(const std::string& message);  // at the current token; returns false
  bool ErrorAt(const char* where, const std::string& message);
  ir::SourcePos Pos() const { return lexer_.PosOf(tok_.text.data()); }
  struct State {
    const char* lexer_pos;
    Token tok;
  };
  State Save() const { return {lexer_.position(), tok_}; }
  void Restore(const State& s) {
    lexer_.ResetTo(s.lexer_pos);
    tok_ = s.tok;
  }
  // Guards recursion depth against hostile nesting.
  class DepthGuard {
   public:
    explicit DepthGuard(Parser* p) : p_(p) { ++p_->depth_; }
    ~DepthGuard() { --p_->depth_; }
    bool ok() const { return p_->depth_ <= kMaxDepth; }

   private:
    Parser* p_;
  };
  bool CheckDepth(const DepthGuard& g);
  static constexpr int kMaxDepth = 200;

  // ---- types (parse_types.cpp) --------------------------------------------
  bool ParseType(ir::Type* type);
  bool ParseElementType(ir::ElementType* element);
  // `!quant.uniform<...>` (the current token is `!quant.uniform`).
  bool ParseQuantizedElement(ir::QuantParamsPtr* quant);
  bool ParseTypeList(std::vector<ir::Type>* types);  // a, b, c (at least one)
  bool ParseParenTypeList(std::vector<ir::Type>* types);  // ( a, b ) possibly empty
  bool ParseFunctionType(ir::FunctionType* fn);  // (a, b) -> r | (r1, r2)
  bool ParseResultTypes(std::vector<ir::Type>* types);  // r | (r1, r2)
  bool AtTypeStart() const;

  // ---- attributes (parse_attributes.cpp) ----------------------------------
  bool ParseAttribute(ir::Attribute* attr);
  bool ParseDictionary(std::vector<ir::NamedAttribute>* entries);  // { k = v, ... }
  // `attributes {...}` after a custom form: sets them on `op`; one the form
  // itself already set is an error naming `syntax` ("the function's").
  bool ParseExtraAttributes(ir::Operation* op, const std::string& syntax);
  bool ParseAttributeName(std::string* name);
  bool ParseShortAttribute(const ir::AttrSpec& spec, ir::Attribute* attr);
  bool ParseI64List(std::vector<int64_t>* values);  // [1, 2]
  bool ParseInteger(int64_t* value);                // optionally negative
  bool ParseDenseElements(ir::Attribute* attr);     // after `dense`
  bool ParseDenseArray(ir::Attribute* attr);        // after `array`
  bool ParseHashAttribute(ir::Attribute* attr);     // #stablehlo..., #sdy...
  bool ParseStablehloStruct(const std::string& name, ir::Attribute* attr);
  bool ParseConvDimsBody(ir::ConvDimsAttr* dims);   // [b, 0, 1, f]x[...]->[...]
  bool CaptureBalanced(std::string* text);          // <...>, [...], {...}, (...) verbatim, normalised
  bool ParseStringLiteral(std::string* value);

  // ---- locations (parse_locations.cpp) -------------------------------------
  bool ParseOptionalLocation(ir::LocationPtr* loc);  // loc(...)
  bool ParseLocationBody(ir::LocationPtr* loc);
  bool ParseLocationAliasDefinition();                // #loc3 = loc(...)
  bool ResolveLocationAliases();

  // ---- ops (parse_ops.cpp) --------------------------------------------------
  bool ParseBlockBody(ir::Block* block, Tok end);  // ops until `end` (not consumed)
  bool ParseOperation(ir::Block* block);
  bool ParseGenericOperation(ir::Operation* op, size_t num_results);
  bool ParseSyntaxItems(ir::Operation* op, const std::vector<ir::SyntaxItem>& items, size_t num_results);
  bool ParseOperandRef(ir::Value** value);
  bool ParseOperandList(std::vector<ir::Value*>* values);  // %a, %b (stops before `, keyword`)
  bool ParseRegion(ir::Region* region);
  bool ParseTypeSuffix(ir::Operation* op, const std::string& style, size_t num_results);
  bool CheckOperandTypes(const ir::Operation& op, const std::vector<ir::Type>& types, const char* where);
  // `: (operands) -> results` after an op: checks the operand types against
  // its operands and the result count against the names, adds the results.
  bool ParseTrailingFunctionType(ir::Operation* op, size_t num_results);
  bool ParseCustomPiece(ir::Operation* op, const std::string& piece);
  std::unique_ptr<ir::Operation> NewOp(const ir::OpDef* def, const ir::SourcePos& pos);

  // ---- whole-op custom forms (parse_custom_ops.cpp) -----------------------
  bool ParseModuleOp(ir::Operation* op);
  bool ParseFuncOp(ir::Operation* op);
  bool ParseReduceOp(ir::Operation* op, size_t num_results);
  bool ParseWhileOp(ir::Operation* op, size_t num_results);
  bool ParseManualComputationOp(ir::Operation* op, size_t num_results);
  bool ParseScanOp(ir::Operation* op, size_t num_results);  // chlo.scan
  bool ParseBlockArgument(ir::Block* block);  // %name: type loc(...)?

  // ---- values ---------------------------------------------------------------
  struct ValueScope {
    std::unordered_map<std::string, std::vector<ir::Value*>> values;  // group name -> results
    bool isolated = false;
  };
  void PushScope(bool isolated) { scopes_.push_back(ValueScope{{}, isolated}); }
  void PopScope() { scopes_.pop_back(); }
  bool DefineValues(const std::string& name, std::vector<ir::Value*> values, const char* where);
  ir::Value* LookupValue(const std::string& name, size_t index) const;

 private:
  friend class DepthGuard;
  Lexer lexer_;
  Token tok_;
  std::string error_;
  int depth_ = 0;
  std::vector<ValueScope> scopes_;
  // #loc aliases: definitions, and the places that referred to one.
  std::unordered_map<std::string, ir::LocationPtr> loc_aliases_;
  struct PendingAlias {
    std::shared_ptr<ir::Location> placeholder;
    std::string name;
    const char* where;
  };
  std::vector<PendingAlias> pending_aliases_;
  bool in_alias_definition_ = false;
};

}  // namespace hlograph::frontend
