#include "frontend/lexer.h"

#include <algorithm>
#include <cctype>

namespace hlograph::frontend {
namespace {

bool IsIdStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool IsIdChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '.';
}
bool IsSuffixIdChar(char c) { return IsIdChar(c) || c == '-'; }
int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

Lexer::Lexer(std::string_view buffer, std::shared_ptr<const std::string> filename)
    : Lexer(buffer, 0, buffer.size(), std::move(filename), LineStarts(buffer)) {}

Lexer::Lexer(std::string_view buffer, size_t begin, size_t end, std::shared_ptr<const std::string> filename,
             std::shared_ptr<const std::vector<uint32_t>> line_starts)
    : buffer_(buffer),
      cur_(buffer.data() + begin),
      end_(buffer.data() + end),
      filename_(std::move(filename)),
      line_starts_(std::move(line_starts)) {}

std::shared_ptr<const std::vector<uint32_t>> Lexer::LineStarts(std::string_view buffer) {
  auto starts = std::make_shared<std::vector<uint32_t>>();
  starts->push_back(0);
  for (size_t i = 0; i < buffer.size(); ++i) {
    if (buffer[i] == '\n') starts->push_back(static_cast<uint32_t>(i + 1));
  }
  return starts;
}

ir::SourcePos Lexer::PosOf(const char* p) const {
  size_t offset = static_cast<size_t>(std::clamp<std::ptrdiff_t>(p - buffer_.data(), 0,
                                                                  static_cast<std::ptrdiff_t>(buffer_.size())));
  const auto& starts = *line_starts_;
  auto it = std::upper_bound(starts.begin(), starts.end(), offset);
  size_t line = static_cast<size_t>(it - starts.begin());
  ir::SourcePos pos;
  pos.file = filename_;
  pos.line = static_cast<uint32_t>(line);
  pos.col = static_cast<uint32_t>(offset - starts[line - 1] + 1);
  return pos;
}

void Lexer::SkipWhitespace() {
  const char* end = buffer_end();
  while (cur_ < end) {
    char c = *cur_;
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      ++cur_;
    } else if (c == '/' && cur_ + 1 < end && cur_[1] == '/') {
      while (cur_ < end && *cur_ != '\n') ++cur_;
    } else {
      break;
    }
  }
}

Token Lexer::Error(const char* begin, std::string message) {
  error_ = std::move(message);
  if (cur_ == begin && cur_ < buffer_end()) ++cur_;
  return Token{Tok::kError, std::string_view(begin, cur_ - begin)};
}

Token Lexer::Next() {
  SkipWhitespace();
  const char* begin = cur_;
  if (cur_ >= buffer_end()) return Token{Tok::kEof, std::string_view(begin, 0)};
  char c = *cur_++;
  const char* end = buffer_end();
  switch (c) {
    case '(': return Make(Tok::kLParen, begin);
    case ')': return Make(Tok::kRParen, begin);
    case '[': return Make(Tok::kLSquare, begin);
    case ']': return Make(Tok::kRSquare, begin);
    case '{':
      if (cur_ + 1 < end && cur_[0] == '-' && cur_[1] == '#') {
        cur_ += 2;
        return Make(Tok::kFileMetadataBegin, begin);
      }
      return Make(Tok::kLBrace, begin);
    case '}': return Make(Tok::kRBrace, begin);
    case '<': return Make(Tok::kLess, begin);
    case '>': return Make(Tok::kGreater, begin);
    case ',': return Make(Tok::kComma, begin);
    case ':': return Make(Tok::kColon, begin);
    case '=': return Make(Tok::kEqual, begin);
    case '?': return Make(Tok::kQuestion, begin);
    case '*': return Make(Tok::kStar, begin);
    case '+': return Make(Tok::kPlus, begin);
    case '|': return Make(Tok::kPipe, begin);
    case '-':
      if (cur_ < end && *cur_ == '>') {
        ++cur_;
        return Make(Tok::kArrow, begin);
      }
      return Make(Tok::kMinus, begin);
    case '"': return LexString(begin);
    case '%': return LexPrefixedId(begin, Tok::kPercentId);
    case '@':
      if (cur_ < end && *cur_ == '"') {
        Token s = LexString(cur_);
        if (s.kind == Tok::kError) return s;
        return Make(Tok::kAtId, begin);
      }
      return LexPrefixedId(begin, Tok::kAtId);
    case '^': return LexPrefixedId(begin, Tok::kCaretId);
    case '!': return LexPrefixedId(begin, Tok::kExclId);
    case '#':
      if (cur_ + 1 < end && cur_[0] == '-' && cur_[1] == '}') {
        cur_ += 2;
        return Make(Tok::kFileMetadataEnd, begin);
      }
      return LexPrefixedId(begin, Tok::kHashId);
    default: break;
  }
  if (std::isdigit(static_cast<unsigned char>(c))) return LexNumber(begin);
  if (IsIdStart(c)) {
    while (cur_ < end && IsIdChar(*cur_)) ++cur_;
    return Make(Tok::kBareId, begin);
  }
  return Error(begin, std::string("unexpected character '") +
                          (std::isprint(static_cast<unsigned char>(c)) ? std::string(1, c)
                                                                        : std::string("\\x?")) +
                          "'");
}

Token Lexer::LexPrefixedId(const char* begin, Tok kind) {
  const char* end = buffer_end();
  const char* start = cur_;
  if (cur_ < end && std::isdigit(static_cast<unsigned char>(*cur_))) {
    while (cur_ < end && std::isdigit(static_cast<unsigned char>(*cur_))) ++cur_;
  } else {
    while (cur_ < end && IsSuffixIdChar(*cur_)) ++cur_;
  }
  if (cur_ == start) return Error(begin, "expected an identifier after '" + std::string(1, *begin) + "'");
  return Make(kind, begin);
}

Token Lexer::LexNumber(const char* begin) {
  const char* end = buffer_end();
  if (*begin == '0' && cur_ < end && (*cur_ == 'x') && cur_ + 1 < end && HexValue(cur_[1]) >= 0) {
    ++cur_;
    while (cur_ < end && HexValue(*cur_) >= 0) ++cur_;
    return Make(Tok::kInteger, begin);
  }
  while (cur_ < end && std::isdigit(static_cast<unsigned char>(*cur_))) ++cur_;
  if (cur_ >= end || *cur_ != '.') return Make(Tok::kInteger, begin);
  ++cur_;
  while (cur_ < end && std::isdigit(static_cast<unsigned char>(*cur_))) ++cur_;
  if (cur_ < end && (*cur_ == 'e' || *cur_ == 'E')) {
    const char* save = cur_;
    ++cur_;
    if (cur_ < end && (*cur_ == '+' || *cur_ == '-')) ++cur_;
    if (cur_ < end && std::isdigit(static_cast<unsigned char>(*cur_))) {
      while (cur_ < end && std::isdigit(static_cast<unsigned char>(*cur_))) ++cur_;
    } else {
      cur_ = save;
    }
  }
  return Make(Tok::kFloat, begin);
}

Token Lexer::LexString(const char* begin) {
  const char* end = buffer_end();
  cur_ = begin + 1;
  while (cur_ < end) {
    char c = *cur_++;
    if (c == '"') return Make(Tok::kString, begin);
    if (c == '\\') {
      if (cur_ >= end) break;
      ++cur_;
    } else if (c == '\n') {
      return Error(begin, "string literal is missing its closing quote on this line");
    }
  }
  return Error(begin, "string literal is missing its closing quote");
}

bool UnescapeString(std::string_view text, std::string* out) {
  out->clear();
  if (text.size() < 2) return false;
  for (size_t i = 1; i + 1 < text.size(); ++i) {
    char c = text[i];
    if (c != '\\') {
      out->push_back(c);
      continue;
    }
    if (i + 2 >= text.size()) return false;
    char n = text[++i];
    switch (n) {
      case '"': out->push_back('"'); break;
      case '\\': out->push_back('\\'); break;
      case 'n': out->push_back('\n'); break;
      case 't': out->push_back('\t'); break;
      default: {
        int hi = HexValue(n);
        int lo = i + 1 + 1 < text.size() ? HexValue(text[i + 1]) : -1;
        if (hi < 0 || lo < 0) return false;
        out->push_back(static_cast<char>(hi * 16 + lo));
        ++i;
      }
    }
  }
  return true;
}

}  // namespace hlograph::frontend
