// loc(...) and #loc aliases. JAX prints the aliases after the module, so an
// op's reference may come before the definition: it gets a placeholder that
// is filled in once the whole text is read.
#include "frontend/parser_impl.h"

namespace hlograph::frontend {

bool Parser::ParseOptionalLocation(ir::LocationPtr* loc) {
  if (!tok_.IsKeyword("loc")) return true;
  Advance();
  if (!Expect(Tok::kLParen, "'(' after loc")) return false;
  if (!ParseLocationBody(loc)) return false;
  return Expect(Tok::kRParen, "')' to close loc(...)");
}

bool Parser::ParseLocationBody(ir::LocationPtr* loc) {
  DepthGuard guard(this);
  if (!CheckDepth(guard)) return false;
  auto result = std::make_shared<ir::Location>();
  if (tok_.Is(Tok::kHashId)) {
    std::string name(tok_.text.substr(1));
    const char* where = tok_.text.data();
    Advance();
    auto it = loc_aliases_.find(name);
    if (it != loc_aliases_.end()) {
      *loc = it->second;
      return true;
    }
    // Alias definitions refer only to earlier ones (as MLIR prints them),
    // which also rules out cycles; ops may refer ahead.
    if (in_alias_definition_) return ErrorAt(where, "location alias #" + name + " is used before its definition");
    auto placeholder = std::make_shared<ir::Location>();
    pending_aliases_.push_back({placeholder, name, where});
    *loc = placeholder;
    return true;
  }
  if (ConsumeKeyword("unknown")) {
    *loc = result;
    return true;
  }
  if (ConsumeKeyword("callsite")) {
    ir::LocationPtr callee, caller;
    if (!Expect(Tok::kLParen, "'(' after callsite") || !ParseLocationBody(&callee) || !ExpectKeyword("at") ||
        !ParseLocationBody(&caller) || !Expect(Tok::kRParen, "')' to close callsite(...)")) {
      return false;
    }
    result->kind = ir::Location::Kind::kCallSite;
    result->children = {callee, caller};
    *loc = result;
    return true;
  }
  if (ConsumeKeyword("fused")) {
    result->kind = ir::Location::Kind::kFused;
    if (tok_.Is(Tok::kLess)) {
      std::string text;
      if (!CaptureBalanced(&text)) return false;
      result->fused_metadata = text.substr(1, text.size() - 2);
    }
    if (!Expect(Tok::kLSquare, "'[' after fused")) return false;
    if (!tok_.Is(Tok::kRSquare)) {
      do {
        ir::LocationPtr child;
        if (!ParseLocationBody(&child)) return false;
        result->children.push_back(child);
      } while (Consume(Tok::kComma));
    }
    if (!Expect(Tok::kRSquare, "']' to close fused[...]")) return false;
    *loc = result;
    return true;
  }
  if (!tok_.Is(Tok::kString)) return Error("expected a location (a string, callsite, fused, unknown or #loc alias)");
  if (!ParseStringLiteral(&result->name)) return false;
  if (Consume(Tok::kColon)) {
    int64_t line, col = 0;
    if (!ParseInteger(&line)) return false;
    if (Consume(Tok::kColon) && !ParseInteger(&col)) return false;
    // Newer MLIR prints ranges: "f":1:2 to 3:4 / to :4.
    if (ConsumeKeyword("to")) {
      int64_t ignored;
      if (tok_.Is(Tok::kColon)) {
        Advance();
        if (!ParseInteger(&ignored)) return false;
      } else {
        if (!ParseInteger(&ignored)) return false;
        if (Consume(Tok::kColon) && !ParseInteger(&ignored)) return false;
      }
    }
    if (line < 0 || col < 0 || line > UINT32_MAX || col > UINT32_MAX) return Error("location line/column out of range");
    result->kind = ir::Location::Kind::kFile;
    result->line = static_cast<uint32_t>(line);
    result->col = static_cast<uint32_t>(col);
    *loc = result;
    return true;
  }
  result->kind = ir::Location::Kind::kName;
  if (Consume(Tok::kLParen)) {
    ir::LocationPtr child;
    if (!ParseLocationBody(&child) || !Expect(Tok::kRParen, "')' after the child location")) return false;
    result->children.push_back(child);
  }
  *loc = result;
  return true;
}

bool Parser::ParseLocationAliasDefinition() {
  std::string name(tok_.text.substr(1));
  const char* where = tok_.text.data();
  Advance();
  if (!Expect(Tok::kEqual, "'=' in a location alias definition")) return false;
  if (!tok_.IsKeyword("loc")) return Error("expected loc(...) in the definition of #" + name);
  ir::LocationPtr loc;
  in_alias_definition_ = true;
  bool ok = ParseOptionalLocation(&loc);
  in_alias_definition_ = false;
  if (!ok) return false;
  if (loc_aliases_.count(name)) return ErrorAt(where, "redefinition of #" + name);
  loc_aliases_[name] = loc;
  return true;
}

bool Parser::ResolveLocationAliases() {
  for (const auto& p : pending_aliases_) {
    auto it = loc_aliases_.find(p.name);
    if (it == loc_aliases_.end()) return ErrorAt(p.where, "undefined location alias #" + p.name);
    *p.placeholder = *it->second;
  }
  return true;
}

}  // namespace hlograph::frontend
