#include "frontend/parser.h"

#include <filesystem>
#include <fstream>
#include <span>
#include <sstream>

#include "frontend/bytecode/bytecode_reader.h"
#include "frontend/parser_impl.h"

namespace hlograph::frontend {

Parser::Parser(Lexer lexer) : lexer_(std::move(lexer)) {
  Advance();
}

void Parser::Advance() {
  tok_ = lexer_.Next();
  if (tok_.kind == Tok::kError && error_.empty()) ErrorAt(tok_.text.data(), lexer_.error());
}

bool Parser::Consume(Tok kind) {
  if (tok_.kind != kind) return false;
  Advance();
  return true;
}

bool Parser::ConsumeKeyword(std::string_view kw) {
  if (!tok_.IsKeyword(kw)) return false;
  Advance();
  return true;
}

namespace {
std::string Describe(const Token& t) {
  switch (t.kind) {
    case Tok::kEof: return "end of input";
    case Tok::kError: return "an invalid token";
    default: {
      std::string quoted = "'";  // appended: GCC 12 -O3 warns falsely (-Wrestrict) on "literal" + a temporary string
      quoted += t.text.substr(0, 40);
      quoted += '\'';
      return quoted;
    }
  }
}
}  // namespace

bool Parser::Expect(Tok kind, const char* what) {
  if (Consume(kind)) return true;
  return Error(std::string("expected ") + what + ", found " + Describe(tok_));
}

bool Parser::ExpectKeyword(std::string_view kw) {
  if (ConsumeKeyword(kw)) return true;
  return Error("expected '" + std::string(kw) + "', found " + Describe(tok_));
}

bool Parser::Error(const std::string& message) { return ErrorAt(tok_.text.data(), message); }

bool Parser::ErrorAt(const char* where, const std::string& message) {
  if (error_.empty()) error_ = lexer_.PosOf(where).ToString() + ": error: " + message;
  return false;
}

bool Parser::CheckDepth(const DepthGuard& g) {
  if (g.ok()) return true;
  return Error("nesting deeper than " + std::to_string(kMaxDepth) + " levels");
}

bool Parser::DefineValues(const std::string& name, std::vector<ir::Value*> values, const char* where) {
  // A name may not be reused while an enclosing definition is visible.
  for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it) {
    if (it->values.count(name)) return ErrorAt(where, "redefinition of value %" + name);
    if (it->isolated) break;
  }
  auto& scope = scopes_.back();
  for (ir::Value* v : values) v->set_name_hint(name);
  // Only the group's first value keeps the name as printer hint.
  for (size_t i = 1; i < values.size(); ++i) values[i]->set_name_hint("");
  scope.values[name] = std::move(values);
  return true;
}

ir::Value* Parser::LookupValue(const std::string& name, size_t index) const {
  for (auto it = scopes_.rbegin(); it != scopes_.rend(); ++it) {
    auto found = it->values.find(name);
    if (found != it->values.end()) return index < found->second.size() ? found->second[index] : nullptr;
    if (it->isolated) break;
  }
  return nullptr;
}

namespace {

// Splits at lines that are exactly `// -----` (surrounding spaces allowed).
std::vector<std::pair<size_t, std::string_view>> SplitChunks(std::string_view text) {
  std::vector<std::pair<size_t, std::string_view>> chunks;
  size_t start = 0, line_begin = 0;
  while (line_begin <= text.size()) {
    size_t line_end = text.find('\n', line_begin);
    if (line_end == std::string_view::npos) line_end = text.size();
    std::string_view line = text.substr(line_begin, line_end - line_begin);
    size_t a = line.find_first_not_of(" \t\r");
    size_t b = line.find_last_not_of(" \t\r");
    if (a != std::string_view::npos && line.substr(a, b - a + 1) == "// -----") {
      chunks.push_back({start, text.substr(start, line_begin - start)});
      start = line_end + 1 > text.size() ? text.size() : line_end + 1;
    }
    line_begin = line_end + 1;
  }
  chunks.push_back({start, text.substr(start)});
  return chunks;
}

}  // namespace

StatusOr<ParsedFile> ParseText(std::string_view text, const std::string& filename) {
  auto name = std::make_shared<const std::string>(filename);
  auto line_starts = Lexer::LineStarts(text);
  ParsedFile file;
  for (const auto& [offset, chunk] : SplitChunks(text)) {
    Parser parser(Lexer(text, offset, offset + chunk.size(), name, line_starts));
    std::unique_ptr<ir::Module> module;
    if (!parser.ParseWholeModule(&module)) return Status::Error(parser.error());
    file.modules.push_back(std::move(module));
  }
  return file;
}

StatusOr<std::unique_ptr<ir::Module>> ParseModule(std::string_view text, const std::string& filename) {
  Parser parser(Lexer(text, std::make_shared<const std::string>(filename)));
  std::unique_ptr<ir::Module> module;
  if (!parser.ParseWholeModule(&module)) return Status::Error(parser.error());
  return module;
}

StatusOr<ParsedFile> ParseFile(const std::string& path) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    return Status::Error(path + ": error: " + (std::filesystem::exists(path, ec) ? "not a regular file" : "no such file"));
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::Error(path + ": error: cannot open file");
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) return Status::Error(path + ": error: cannot read file");
  return ParseFileContents(ss.str(), path);
}

StatusOr<ParsedFile> ParseFileContents(std::string_view contents, const std::string& filename) {
  const std::span<const uint8_t> bytes(reinterpret_cast<const uint8_t*>(contents.data()), contents.size());
  if (IsMlirBytecode(bytes)) {  // a portable artifact (VHLO bytecode), not text
    auto module = ReadBytecodeModule(bytes, filename);
    if (!module.ok()) return module.status();
    ParsedFile file;
    file.modules.push_back(std::move(*module));
    return file;
  }
  return ParseText(contents, filename);
}

}  // namespace hlograph::frontend
