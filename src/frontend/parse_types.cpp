// Types: tensor<2x3xf32>, !stablehlo.token, tuple<...>, function types.
#include <cctype>

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
    return Error("quantized element types (!quant.uniform) are not supported yet");
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
  if (!ParseElementType(&element)) return false;
  if (tok_.Is(Tok::kComma)) return Error("tensor encodings (bounds, sparsity) are not supported");
  if (!Expect(Tok::kGreater, "'>' to close tensor<...>")) return false;
  *type = ir::Type::Tensor(element, std::move(shape));
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
