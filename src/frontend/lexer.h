// Tokens of the MLIR textual format, as far as StableHLO programs use it.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "ir/location.h"

namespace hlograph::frontend {

enum class Tok : uint8_t {
  kEof,
  kError,
  kBareId,     // foo, stablehlo.add, f32, x4xf32
  kPercentId,  // %arg0, %0 (text keeps the '%')
  kAtId,       // @main, @"quoted" (text keeps the '@')
  kCaretId,    // ^bb0
  kHashId,     // #loc3, #stablehlo.gather, #stablehlo
  kExclId,     // !stablehlo.token
  kInteger,    // 12, 0x7FC00000
  kFloat,      // 1.5e+00
  kString,     // "..." (text keeps the quotes; use StringValue)
  kLParen, kRParen, kLSquare, kRSquare, kLBrace, kRBrace, kLess, kGreater,
  kComma, kColon, kEqual, kArrow, kMinus, kPlus, kQuestion, kStar, kPipe,
  kFileMetadataBegin,  // {-#
  kFileMetadataEnd,    // #-}
};

struct Token {
  Tok kind = Tok::kEof;
  std::string_view text;
  bool Is(Tok k) const { return kind == k; }
  bool IsKeyword(std::string_view kw) const { return kind == Tok::kBareId && text == kw; }
};

class Lexer {
 public:
  Lexer(std::string_view buffer, std::shared_ptr<const std::string> filename);
  // Lexes only [begin, end) of `buffer`, reporting positions in the whole
  // buffer (used for the `// -----` chunks of one file).
  Lexer(std::string_view buffer, size_t begin, size_t end, std::shared_ptr<const std::string> filename,
        std::shared_ptr<const std::vector<uint32_t>> line_starts);
  static std::shared_ptr<const std::vector<uint32_t>> LineStarts(std::string_view buffer);

  Token Next();
  // Re-positions the lexer at `pos` (a pointer into the buffer).
  void ResetTo(const char* pos) { cur_ = pos; }
  const char* position() const { return cur_; }
  const char* buffer_end() const { return end_; }
  void SkipWhitespace();

  ir::SourcePos PosOf(const char* p) const;
  std::string_view buffer() const { return buffer_; }
  // The message of the last kError token.
  const std::string& error() const { return error_; }

 private:
  Token Make(Tok kind, const char* begin) { return Token{kind, std::string_view(begin, cur_ - begin)}; }
  Token Error(const char* begin, std::string message);
  Token LexNumber(const char* begin);
  Token LexString(const char* begin);
  Token LexPrefixedId(const char* begin, Tok kind);

  std::string_view buffer_;
  const char* cur_;
  const char* end_;
  std::shared_ptr<const std::string> filename_;
  std::shared_ptr<const std::vector<uint32_t>> line_starts_;
  std::string error_;
};

// Decodes a kString token's escapes. Returns false on a malformed escape.
bool UnescapeString(std::string_view token_text, std::string* out);

}  // namespace hlograph::frontend
