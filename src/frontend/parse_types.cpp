// Types: tensor<2x3xf32>, !stablehlo.token, tuple<...>, function types,
// quantized element types (!quant.uniform<...>).
#include <cctype>
#include <charconv>
#include <cstring>
#include <memory>

#include "frontend/parser_impl.h"

namespace hlograph::frontend {

bool Parser::AtTypeStart() const {
  return tok_.IsKeyword("tensor") || tok_.IsKeyword("tuple") || tok_.Is(Tok::kExclId);
}

bool Parser::ParseElementType(ir::ElementType* element) {
  DepthGuard guard(this);  // complex<complex<...>> recurses
  if (!guard.ok()) return Error("complex<...> nested deeper than " + std::to_string(kMaxDepth) + " levels");
  if (tok_.IsKeyword("complex")) {
    Advance();
    if (!Expect(Tok::kLess, "'<' after complex")) return false;
    ir::ElementType part;
    const char* where = tok_.text.data();
    if (!ParseElementType(&part)) return false;
    auto c = ir::ComplexOf(part);
    if (!c) return ErrorAt(where, "complex element type must be complex<f32> or complex<f64>");
    *element = *c;
    return Expect(Tok::kGreater, "'>' to close complex<...>");
  }
  if (tok_.Is(Tok::kBareId)) {
    if (auto t = ir::ElementTypeFromName(tok_.text)) {
      *element = *t;
      Advance();
      return true;
    }
  }
  if (tok_.Is(Tok::kExclId) && tok_.text.rfind("!quant", 0) == 0) {
    return Error("a quantized element type (!quant.uniform) is allowed only as a tensor's element type");
  }
  return Error("expected an element type (i1, i8..i64, ui8..ui64, bf16, f16, f32, f64, f8E4M3FN, complex<f32>, ...), "
               "found '" + std::string(tok_.text.substr(0, 40)) + "'");
}

bool Parser::ParseType(ir::Type* type) {
  DepthGuard guard(this);
  if (!CheckDepth(guard)) return false;
  if (tok_.Is(Tok::kExclId)) {
    if (tok_.text == "!stablehlo.token") {
      Advance();
      *type = ir::Type::Token();
      return true;
    }
    return Error("unsupported type '" + std::string(tok_.text) + "' (expected !stablehlo.token)");
  }
  if (ConsumeKeyword("tuple")) {
    if (!Expect(Tok::kLess, "'<' after tuple")) return false;
    std::vector<ir::Type> elements;
    if (!tok_.Is(Tok::kGreater)) {
      if (!ParseTypeList(&elements)) return false;
    }
    if (!Expect(Tok::kGreater, "'>' to close tuple<...>")) return false;
    *type = ir::Type::Tuple(std::move(elements));
    return true;
  }
  if (!tok_.IsKeyword("tensor")) {
    return Error("expected a type (tensor<...>, tuple<...> or !stablehlo.token), found '" +
                 std::string(tok_.text.substr(0, 40)) + "'");
  }
  Advance();
  if (!tok_.Is(Tok::kLess)) return Error("expected '<' after tensor");
  // The dimension list `4x?x8x` is lexed character by character: `4x4xf32`
  // is not a sequence of ordinary tokens.
  const char* p = lexer_.position();
  const char* end = lexer_.buffer_end();
  while (p < end && std::isspace(static_cast<unsigned char>(*p))) ++p;
  std::vector<int64_t> shape;
  while (p < end) {
    if (*p == '?') return ErrorAt(p, "dynamic dimensions are not supported (hlograph needs static shapes)");
    if (*p == '*') return ErrorAt(p, "unranked tensors are not supported (hlograph needs static shapes)");
    if (!std::isdigit(static_cast<unsigned char>(*p))) break;
    const char* start = p;
    int64_t dim = 0;
    while (p < end && std::isdigit(static_cast<unsigned char>(*p))) {
      if (dim > (int64_t{1} << 50)) return ErrorAt(start, "tensor dimension is too large");
      dim = dim * 10 + (*p - '0');
      ++p;
    }
    if (p >= end || *p != 'x') return ErrorAt(p, "expected 'x' after a tensor dimension");
    ++p;
    shape.push_back(dim);
    if (shape.size() > 64) return ErrorAt(start, "tensor rank exceeds 64");
  }
  lexer_.ResetTo(p);
  Advance();
  ir::ElementType element;
  ir::QuantParamsPtr quant;
  if (tok_.Is(Tok::kExclId) && tok_.text.rfind("!quant", 0) == 0) {
    if (!ParseQuantizedElement(&quant)) return false;
  } else if (!ParseElementType(&element)) {
    return false;
  }
  if (tok_.Is(Tok::kComma)) return Error("tensor encodings (bounds, sparsity) are not supported");
  if (!Expect(Tok::kGreater, "'>' to close tensor<...>")) return false;
  *type = quant ? ir::Type::QuantizedTensor(std::move(quant), std::move(shape)) : ir::Type::Tensor(element, std::move(shape));
  return true;
}

// The body of !quant.uniform<...> is read character by character (like a
// tensor's dimension list): `i8:f32:1` and `0.5:-3` are not ordinary tokens.
bool Parser::ParseQuantizedElement(ir::QuantParamsPtr* quant) {
  const char* type_start = tok_.text.data();
  if (tok_.text != "!quant.uniform") {
    return Error("unsupported quantized type '" + std::string(tok_.text.substr(0, 40)) +
                 "' (only !quant.uniform is supported)");
  }
  const char* p = lexer_.position();
  const char* end = lexer_.buffer_end();
  auto skip_space = [&] {
    while (p < end && std::isspace(static_cast<unsigned char>(*p))) ++p;
  };
  auto expect = [&](char c, const char* what) {
    skip_space();
    if (p >= end || *p != c) return ErrorAt(p, std::string("expected ") + what + " in !quant.uniform<...>");
    ++p;
    return true;
  };
  auto word = [&] {
    skip_space();
    const char* s = p;
    while (p < end && std::isalnum(static_cast<unsigned char>(*p))) ++p;
    return std::string_view(s, static_cast<size_t>(p - s));
  };
  auto integer = [&](int64_t* v, const char* what) {
    skip_space();
    const char* s = p;
    if (p < end && (*p == '-' || *p == '+')) ++p;
    while (p < end && std::isdigit(static_cast<unsigned char>(*p))) ++p;
    const char* first = (s < p && *s == '+') ? s + 1 : s;
    auto [ptr, ec] = std::from_chars(first, p, *v);
    if (ec != std::errc() || ptr != p) return ErrorAt(s, std::string("expected ") + what + " in !quant.uniform<...>");
    return true;
  };
  auto number = [&](double* v) {
    skip_space();
    const char* s = p;
    if (p < end && (*p == '-' || *p == '+')) ++p;
    while (p < end && (std::isalnum(static_cast<unsigned char>(*p)) || *p == '.' ||
                       ((*p == '-' || *p == '+') && (p[-1] == 'e' || p[-1] == 'E')))) {
      ++p;
    }
    const char* first = (s < p && *s == '+') ? s + 1 : s;
    const std::string_view text(first, static_cast<size_t>(p - first));
    if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
      // The f64 bits in hex, as floats without a short exact decimal print.
      uint64_t bits = 0;
      auto [ptr, ec] = std::from_chars(text.data() + 2, p, bits, 16);
      if (ec != std::errc() || ptr != p) return ErrorAt(s, "expected a scale (a floating-point number) in !quant.uniform<...>");
      std::memcpy(v, &bits, sizeof(bits));
      return true;
    }
    auto [ptr, ec] = std::from_chars(first, p, *v);
    if (ec != std::errc() || ptr != p) return ErrorAt(s, "expected a scale (a floating-point number) in !quant.uniform<...>");
    return true;
  };

  auto q = std::make_shared<ir::QuantParams>();
  if (!expect('<', "'<'")) return false;
  // Storage type: iN / siN / uiN / uN.
  const char* storage_at = (skip_space(), p);
  std::string_view storage = word();
  std::string name(storage);
  if (name.rfind("si", 0) == 0) {
    return ErrorAt(storage_at, "expected a signless (i8) or unsigned (u8, ui8) storage type in !quant.uniform<...>, found '" +
                                   name + "'");
  }
  if (name.size() > 1 && name[0] == 'u' && std::isdigit(static_cast<unsigned char>(name[1]))) {
    q->unsigned_spelled_u = true;
    name = "ui" + name.substr(1);
  }
  auto st = ir::ElementTypeFromName(name);
  if (!st || !ir::IsInteger(*st) || *st == ir::ElementType::kIndex) {
    return ErrorAt(storage_at, "expected an integer storage type (i8, ui8, u8, i16, ...) in !quant.uniform<...>, found '" +
                                   std::string(storage.substr(0, 40)) + "'");
  }
  q->storage = *st;
  q->storage_min = ir::QuantParams::DefaultMin(*st);
  q->storage_max = ir::QuantParams::DefaultMax(*st);
  skip_space();
  if (p < end && *p == '<') {
    ++p;
    if (!integer(&q->storage_min, "the storage minimum") || !expect(':', "':' between storage minimum and maximum") ||
        !integer(&q->storage_max, "the storage maximum") || !expect('>', "'>' after the storage range")) {
      return false;
    }
  }
  if (!expect(':', "':' after the storage type")) return false;
  const char* expressed_at = (skip_space(), p);
  std::string_view expressed = word();
  auto et = ir::ElementTypeFromName(expressed);
  if (!et) {
    return ErrorAt(expressed_at, "expected an expressed type (f32, bf16, f16, ...) in !quant.uniform<...>, found '" +
                                     std::string(expressed.substr(0, 40)) + "'");
  }
  q->expressed = *et;
  skip_space();
  if (p < end && *p == ':') {
    ++p;
    skip_space();
    if (p < end && *p == '{') return ErrorAt(p, "sub-channel (blockwise) quantized types are not supported");
    int64_t dim = 0;
    if (!integer(&dim, "the quantization dimension")) return false;
    if (dim < 0 || dim > 64) return ErrorAt(p, "quantization dimension " + std::to_string(dim) + " is out of range");
    q->quantized_dimension = static_cast<int32_t>(dim);
  }
  if (!expect(',', "',' before the scale")) return false;
  auto scale_and_zero_point = [&]() {
    double scale = 0;
    int64_t zero_point = 0;
    if (!number(&scale)) return false;
    skip_space();
    if (p < end && *p == ':') {
      ++p;
      if (!integer(&zero_point, "a zero point")) return false;
    }
    if (q->scales.size() >= (size_t{1} << 20)) return ErrorAt(p, "too many scales in !quant.uniform<...>");
    q->scales.push_back(scale);
    q->zero_points.push_back(zero_point);
    return true;
  };
  if (q->PerAxis()) {
    if (!expect('{', "'{' before the per-axis scales")) return false;
    do {
      if (!scale_and_zero_point()) return false;
      skip_space();
    } while (p < end && *p == ',' && ++p);
    if (!expect('}', "'}' after the per-axis scales")) return false;
  } else if (!scale_and_zero_point()) {
    return false;
  }
  if (!expect('>', "'>' to close !quant.uniform<...>")) return false;
  std::string invalid = q->Invalid();
  if (!invalid.empty()) return ErrorAt(type_start, "invalid !quant.uniform type: " + invalid);
  lexer_.ResetTo(p);
  Advance();
  *quant = std::move(q);
  return true;
}

bool Parser::ParseTypeList(std::vector<ir::Type>* types) {
  do {
    ir::Type t;
    if (!ParseType(&t)) return false;
    types->push_back(std::move(t));
  } while (Consume(Tok::kComma));
  return true;
}

bool Parser::ParseParenTypeList(std::vector<ir::Type>* types) {
  if (!Expect(Tok::kLParen, "'('")) return false;
  if (Consume(Tok::kRParen)) return true;
  if (!ParseTypeList(types)) return false;
  return Expect(Tok::kRParen, "')' to close the type list");
}

bool Parser::ParseResultTypes(std::vector<ir::Type>* types) {
  if (tok_.Is(Tok::kLParen)) return ParseParenTypeList(types);
  ir::Type t;
  if (!ParseType(&t)) return false;
  types->push_back(std::move(t));
  return true;
}

bool Parser::ParseFunctionType(ir::FunctionType* fn) {
  if (!ParseParenTypeList(&fn->inputs)) return false;
  if (!Expect(Tok::kArrow, "'->' in a function type")) return false;
  return ParseResultTypes(&fn->results);
}

}  // namespace hlograph::frontend
