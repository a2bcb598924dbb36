// The .npy format: the magic "\x93NUMPY", a major and minor version byte, the
// header length (2 bytes little-endian in version 1.0, 4 bytes in 2.0 and
// 3.0), then the header: a Python dict literal with the keys 'descr',
// 'fortran_order' and 'shape', padded with spaces and ended by '\n' so the
// data starts at a multiple of 64 bytes. The data follows, nothing else.
#include "io/npy.h"

#include <cctype>
#include <cstring>
#include <limits>
#include <optional>

#include "io/file_util.h"

namespace hlograph::io {
namespace {

constexpr char kMagic[] = "\x93NUMPY";
constexpr size_t kMagicLen = 6;
constexpr size_t kAlign = 64;
// numpy leaves room for the first (C order) or last (Fortran order)
// dimension to grow to this many digits without rewriting the file.
constexpr size_t kGrowthAxisMaxDigits = 21;

// ---------------------------------------------------------------------------
// The header dict: a small Python literal parser (strings, True/False,
// tuples of non-negative integers; lists only to report structured dtypes).

struct Header {
  std::optional<std::string> descr;
  std::optional<bool> fortran_order;
  std::optional<std::vector<int64_t>> shape;
};

class HeaderParser {
 public:
  explicit HeaderParser(std::string_view text) : s_(text) {}

  StatusOr<Header> Parse() {
    Header h;
    SkipSpace();
    if (!Eat('{')) return Error("expected '{' at the start of the header dict");
    SkipSpace();
    while (!Eat('}')) {
      HLOGRAPH_ASSIGN(std::string key, ParseString("a key"));
      SkipSpace();
      if (!Eat(':')) return Error("expected ':' after key '" + key + "'");
      SkipSpace();
      if (key == "descr") {
        if (h.descr) return Error("duplicate key 'descr'");
        if (Peek() == '[') return Error("structured dtypes (a list as 'descr') are not supported");
        HLOGRAPH_ASSIGN(h.descr, ParseString("a dtype string as 'descr'"));
      } else if (key == "fortran_order") {
        if (h.fortran_order) return Error("duplicate key 'fortran_order'");
        if (EatWord("True")) {
          h.fortran_order = true;
        } else if (EatWord("False")) {
          h.fortran_order = false;
        } else {
          return Error("expected True or False as 'fortran_order'");
        }
      } else if (key == "shape") {
        if (h.shape) return Error("duplicate key 'shape'");
        HLOGRAPH_ASSIGN(h.shape, ParseShape());
      } else {
        return Error("unexpected key '" + key + "' (a .npy header has only 'descr', 'fortran_order' and 'shape')");
      }
      SkipSpace();
      if (Eat(',')) {
        SkipSpace();
      } else if (Peek() != '}') {
        return Error("expected ',' or '}' after the value of '" + key + "'");
      }
    }
    SkipSpace();
    if (pos_ != s_.size()) return Error("unexpected text after the header dict");
    if (!h.descr) return Error("the key 'descr' is missing");
    if (!h.fortran_order) return Error("the key 'fortran_order' is missing");
    if (!h.shape) return Error("the key 'shape' is missing");
    return h;
  }

 private:
  Status Error(const std::string& what) const {
    return Status::Error(what + " (at byte " + std::to_string(pos_) + " of the header)");
  }
  char Peek() const { return pos_ < s_.size() ? s_[pos_] : '\0'; }
  bool Eat(char c) {
    if (Peek() != c || pos_ >= s_.size()) return false;
    ++pos_;
    return true;
  }
  bool EatWord(std::string_view w) {
    if (s_.substr(pos_, w.size()) != w) return false;
    const size_t end = pos_ + w.size();
    if (end < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[end])) || s_[end] == '_')) return false;
    pos_ = end;
    return true;
  }
  void SkipSpace() {
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\t' || s_[pos_] == '\n' || s_[pos_] == '\r')) ++pos_;
  }

  StatusOr<std::string> ParseString(const std::string& what) {
    const char quote = Peek();
    if (quote != '\'' && quote != '"') return Error("expected " + what);
    ++pos_;
    std::string out;
    while (pos_ < s_.size() && s_[pos_] != quote) {
      if (s_[pos_] == '\\') return Error("escape sequences in strings are not supported");
      if (s_[pos_] == '\n') return Error("unterminated string");
      out += s_[pos_++];
    }
    if (!Eat(quote)) return Error("unterminated string");
    return out;
  }

  // A tuple of non-negative integers: "()", "(3,)", "(2, 3)". As in Python,
  // "(3)" is not a tuple. Python 2 wrote longs with an 'L' suffix.
  StatusOr<std::vector<int64_t>> ParseShape() {
    if (Peek() == '[') return Error("expected a tuple as 'shape', got a list");
    if (!Eat('(')) return Error("expected a tuple as 'shape'");
    std::vector<int64_t> dims;
    bool trailing_comma = false;
    SkipSpace();
    while (!Eat(')')) {
      if (Peek() == '-') return Error("negative dimension in 'shape'");
      if (!std::isdigit(static_cast<unsigned char>(Peek()))) return Error("expected a dimension in 'shape'");
      int64_t v = 0;
      while (std::isdigit(static_cast<unsigned char>(Peek()))) {
        const int digit = Peek() - '0';
        if (v > (std::numeric_limits<int64_t>::max() - digit) / 10) return Error("dimension in 'shape' is too large");
        v = v * 10 + digit;
        ++pos_;
      }
      if (Peek() == 'L' || Peek() == 'l') ++pos_;
      dims.push_back(v);
      SkipSpace();
      trailing_comma = Eat(',');
      SkipSpace();
      if (!trailing_comma && Peek() != ')') return Error("expected ',' or ')' in 'shape'");
    }
    if (dims.size() == 1 && !trailing_comma) return Error("'shape' is not a tuple (a 1-element tuple needs a comma)");
    return dims;
  }

  std::string_view s_;
  size_t pos_ = 0;
};

uint32_t LoadLe(const uint8_t* p, int n) {
  uint32_t v = 0;
  for (int i = n - 1; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

// Where the header is and what it says; the data is bytes[data_offset..].
struct ParsedHeader {
  std::string descr;
  bool fortran_order = false;
  std::vector<int64_t> shape;
  size_t data_offset = 0;
};

StatusOr<ParsedHeader> ParseHeader(const uint8_t* bytes, size_t size, const std::string& name) {
  auto error = [&](const std::string& what) { return Status::Error(name + ": " + what); };
  if (size < kMagicLen || std::memcmp(bytes, kMagic, kMagicLen) != 0) {
    return error("not a .npy file (it does not start with \"\\x93NUMPY\")");
  }
  if (size < 8) return error("truncated .npy file (" + std::to_string(size) + " bytes, the header is missing)");
  const int major = bytes[6];
  const int minor = bytes[7];
  if ((major != 1 && major != 2 && major != 3) || minor != 0) {
    return error("unsupported .npy format version " + std::to_string(major) + "." + std::to_string(minor) +
                 " (supported: 1.0, 2.0, 3.0)");
  }
  const size_t len_bytes = major == 1 ? 2 : 4;
  if (size < 8 + len_bytes) {
    return error("truncated .npy file (" + std::to_string(size) + " bytes, the header length is missing)");
  }
  const size_t header_len = LoadLe(bytes + 8, static_cast<int>(len_bytes));
  const size_t header_start = 8 + len_bytes;
  if (header_len > size - header_start) {
    return error("truncated .npy file (the header needs " + std::to_string(header_len) + " bytes, " +
                 std::to_string(size - header_start) + " are left)");
  }
  const std::string_view text(reinterpret_cast<const char*>(bytes + header_start), header_len);
  auto header = HeaderParser(text).Parse();
  if (!header.ok()) return error("bad .npy header: " + header.status().message());
  ParsedHeader out;
  out.descr = std::move(*header->descr);
  out.fortran_order = *header->fortran_order;
  out.shape = std::move(*header->shape);
  out.data_offset = header_start + header_len;

  auto needed = NpyDataBytes(out.descr, out.shape);
  if (!needed.ok()) return error(needed.status().message());
  const size_t available = size - out.data_offset;
  if (*needed != available) {
    return error("shape " + ShapeRepr(out.shape) + " of " + DescribeDescr(out.descr) + " needs " +
                 std::to_string(*needed) + " bytes of data but the file has " + std::to_string(available) +
                 (*needed > available ? " (truncated?)" : ""));
  }
  return out;
}

// A dtype string in quotes, for messages. Appended piece by piece: GCC 12
// -O3 warns falsely (-Wrestrict) on "literal" + a temporary string.
std::string QuotedDescr(std::string_view descr) {
  std::string quoted = "'";
  quoted += descr;
  quoted += '\'';
  return quoted;
}

}  // namespace

std::string ShapeRepr(const std::vector<int64_t>& shape) {
  std::string s = "(";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i) s += ", ";
    s += std::to_string(shape[i]);
  }
  if (shape.size() == 1) s += ",";
  return s + ")";
}

StatusOr<NpyDtype> ParseDescr(std::string_view descr) {
  NpyDtype t;
  std::string_view rest = descr;
  if (!rest.empty() && (rest[0] == '<' || rest[0] == '>' || rest[0] == '|' || rest[0] == '=')) {
    t.order = rest[0];
    rest.remove_prefix(1);
  } else {
    t.order = '=';
  }
  const std::string quoted = QuotedDescr(descr);
  if (rest.empty()) return Status::Error("unsupported dtype " + quoted);
  t.kind = rest[0];
  rest.remove_prefix(1);
  if (t.kind == 'O') return Status::Error("object arrays (dtype " + quoted + ", pickled Python objects) are not supported");
  if (t.kind == 'M' || t.kind == 'm') return Status::Error("datetime arrays (dtype " + quoted + ") are not supported");
  if (std::string_view("biufcVSU").find(t.kind) == std::string_view::npos || rest.empty() || rest.size() > 12) {
    return Status::Error("unsupported dtype " + quoted);
  }
  int64_t n = 0;
  for (char c : rest) {
    if (c < '0' || c > '9') return Status::Error("unsupported dtype " + quoted);
    n = n * 10 + (c - '0');
  }
  t.item_size = t.kind == 'U' ? 4 * n : n;
  bool ok = t.item_size > 0;
  switch (t.kind) {
    case 'b': ok = n == 1; break;
    case 'i':
    case 'u': ok = n == 1 || n == 2 || n == 4 || n == 8; break;
    case 'f': ok = n == 1 || n == 2 || n == 4 || n == 8 || n == 12 || n == 16; break;
    case 'c': ok = n == 8 || n == 16 || n == 24 || n == 32; break;
    default: break;
  }
  if (!ok) return Status::Error("unsupported dtype " + quoted);
  return t;
}

std::string DescribeDescr(std::string_view descr) {
  auto t = ParseDescr(descr);
  const std::string quoted = QuotedDescr(descr);
  if (!t.ok()) return quoted;
  const std::string bits = std::to_string(t->item_size * 8);
  std::string name;
  switch (t->kind) {
    case 'b': name = "bool"; break;
    case 'i': name = "int" + bits; break;
    case 'u': name = "uint" + bits; break;
    case 'f':
      if (t->item_size == 1) return quoted + " (1-byte float)";
      name = "float" + bits;
      break;
    case 'c': name = "complex" + bits; break;
    case 'V': return quoted + " (" + std::to_string(t->item_size) + "-byte void)";
    case 'S': return quoted + " (bytes)";
    case 'U': return quoted + " (str)";
    default: return quoted;
  }
  if (t->order == '>' && t->item_size > 1) name += " (big-endian)";
  return name;
}

StatusOr<uint64_t> NpyDataBytes(std::string_view descr, const std::vector<int64_t>& shape) {
  HLOGRAPH_ASSIGN(const NpyDtype dtype, ParseDescr(descr));
  // Overflow is an error unless a zero dimension makes the array empty.
  uint64_t count = 1;
  bool overflow = false;
  for (int64_t d : shape) {
    if (d < 0) return Status::Error("negative dimension in shape " + ShapeRepr(shape));
    if (d == 0) return uint64_t{0};
  }
  for (int64_t d : shape) {
    if (count > std::numeric_limits<uint64_t>::max() / static_cast<uint64_t>(d)) overflow = true;
    count *= static_cast<uint64_t>(d);
  }
  if (overflow || count > std::numeric_limits<uint64_t>::max() / static_cast<uint64_t>(dtype.item_size)) {
    return Status::Error("shape " + ShapeRepr(shape) + " of " + DescribeDescr(descr) + " is too large");
  }
  return count * static_cast<uint64_t>(dtype.item_size);
}

Status CheckNpyArray(const NpyArray& a) {
  HLOGRAPH_ASSIGN(const uint64_t needed, NpyDataBytes(a.descr, a.shape));
  if (needed != a.data.size()) {
    return Status::Error("shape " + ShapeRepr(a.shape) + " of " + DescribeDescr(a.descr) + " needs " +
                         std::to_string(needed) + " bytes of data but the array has " +
                         std::to_string(a.data.size()));
  }
  return Status::Ok();
}

StatusOr<NpyArray> ParseNpy(std::string_view bytes, const std::string& name) {
  const auto* p = reinterpret_cast<const uint8_t*>(bytes.data());
  HLOGRAPH_ASSIGN(ParsedHeader h, ParseHeader(p, bytes.size(), name));
  NpyArray a;
  a.descr = std::move(h.descr);
  a.fortran_order = h.fortran_order;
  a.shape = std::move(h.shape);
  a.data.assign(p + h.data_offset, p + bytes.size());
  return a;
}

StatusOr<NpyArray> ParseNpy(std::vector<uint8_t>&& bytes, const std::string& name) {
  HLOGRAPH_ASSIGN(ParsedHeader h, ParseHeader(bytes.data(), bytes.size(), name));
  NpyArray a;
  a.descr = std::move(h.descr);
  a.fortran_order = h.fortran_order;
  a.shape = std::move(h.shape);
  bytes.erase(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(h.data_offset));
  a.data = std::move(bytes);
  return a;
}

std::string NpyHeader(const NpyArray& a) {
  // Exactly numpy's spelling: keys sorted, repr() of each value.
  std::string dict = "{'descr': '" + a.descr + "', 'fortran_order': " + (a.fortran_order ? "True" : "False") +
                     ", 'shape': " + ShapeRepr(a.shape) + ", }";
  if (!a.shape.empty()) {
    const size_t digits = std::to_string(a.fortran_order ? a.shape.back() : a.shape.front()).size();
    if (digits < kGrowthAxisMaxDigits) dict.append(kGrowthAxisMaxDigits - digits, ' ');
  }
  // Padding (at least one space) and '\n' so the data starts aligned.
  auto wrap = [&](int major, size_t len_bytes) {
    const size_t unpadded = kMagicLen + 2 + len_bytes + dict.size() + 1;
    const size_t pad = kAlign - unpadded % kAlign;
    const size_t header_len = dict.size() + pad + 1;
    std::string out(kMagic, kMagicLen);
    out += static_cast<char>(major);
    out += '\0';
    for (size_t i = 0; i < len_bytes; ++i) out += static_cast<char>((header_len >> (8 * i)) & 0xff);
    out += dict;
    out.append(pad, ' ');
    out += '\n';
    return out;
  };
  // Version 1.0 holds header lengths up to 65535; 2.0 has 4 length bytes.
  std::string v1 = wrap(1, 2);
  if (v1.size() - 10 <= 65535) return v1;
  return wrap(2, 4);
}

std::string SerializeNpy(const NpyArray& a) {
  std::string out = NpyHeader(a);
  out.append(reinterpret_cast<const char*>(a.data.data()), a.data.size());
  return out;
}

StatusOr<NpyArray> ReadNpy(const std::string& path) {
  HLOGRAPH_ASSIGN(std::vector<uint8_t> bytes, ReadFileBytes(path));
  return ParseNpy(std::move(bytes), path);
}

Status WriteNpy(const std::string& path, const NpyArray& a) {
  Status check = CheckNpyArray(a);
  if (!check.ok()) return Status::Error("cannot write '" + path + "': " + check.message());
  return WriteFileAtomically(path, [&](const ByteSink& sink) -> Status {
    const std::string header = NpyHeader(a);
    HLOGRAPH_TRY(sink(header.data(), header.size()));
    return sink(a.data.data(), a.data.size());
  });
}

}  // namespace hlograph::io
