// Attributes: builtin literals, dense<...>, array<...>, dictionaries,
// StableHLO's structured attributes and enums, and opaque dialect attributes.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>

#include "frontend/parser_impl.h"
#include "ir/float_bits.h"

namespace hlograph::frontend {
namespace {

bool ParseUnsigned(std::string_view text, uint64_t* value) {
  uint64_t v = 0;
  if (text.size() > 2 && text[0] == '0' && text[1] == 'x') {
    if (text.size() > 18) return false;
    for (char c : text.substr(2)) {
      int d = std::isdigit(static_cast<unsigned char>(c)) ? c - '0' : (std::tolower(c) - 'a' + 10);
      v = v * 16 + static_cast<uint64_t>(d);
    }
  } else {
    for (char c : text) {
      uint64_t d = static_cast<uint64_t>(c - '0');
      if (v > (std::numeric_limits<uint64_t>::max() - d) / 10) return false;
      v = v * 10 + d;
    }
  }
  *value = v;
  return true;
}

bool IsHex(std::string_view text) { return text.size() > 2 && text[0] == '0' && text[1] == 'x'; }

// A scalar literal inside dense<...> before its type is known.
struct Literal {
  enum class Kind { kInt, kFloat, kBool, kInf, kNan } kind = Kind::kInt;
  bool negative = false;
  std::string_view text;  // digits / float text
  bool bool_value = false;
  const char* where = nullptr;
};

}  // namespace

bool Parser::ParseStringLiteral(std::string* value) {
  if (!tok_.Is(Tok::kString)) return Error("expected a string literal");
  if (!UnescapeString(tok_.text, value)) return Error("malformed escape in string literal");
  Advance();
  return true;
}

bool Parser::ParseInteger(int64_t* value) {
  bool negative = Consume(Tok::kMinus);
  if (!tok_.Is(Tok::kInteger)) return Error("expected an integer");
  uint64_t u;
  if (!ParseUnsigned(tok_.text, &u) || u > static_cast<uint64_t>(std::numeric_limits<int64_t>::max()) + (negative ? 1 : 0)) {
    return Error("integer literal out of the range of i64");
  }
  *value = negative ? static_cast<int64_t>(0 - u) : static_cast<int64_t>(u);
  Advance();
  return true;
}

bool Parser::ParseI64List(std::vector<int64_t>* values) {
  if (!Expect(Tok::kLSquare, "'['")) return false;
  if (Consume(Tok::kRSquare)) return true;
  do {
    int64_t v;
    if (!ParseInteger(&v)) return false;
    values->push_back(v);
  } while (Consume(Tok::kComma));
  return Expect(Tok::kRSquare, "']' to close the list");
}

bool Parser::ParseAttributeName(std::string* name) {
  if (tok_.Is(Tok::kBareId)) {
    *name = std::string(tok_.text);
    Advance();
    return true;
  }
  if (tok_.Is(Tok::kString)) return ParseStringLiteral(name);
  return Error("expected an attribute name");
}

bool Parser::ParseExtraAttributes(ir::Operation* op, const std::string& syntax) {
  if (!ConsumeKeyword("attributes")) return true;
  const char* where = tok_.text.data();
  std::vector<ir::NamedAttribute> attrs;
  if (!ParseDictionary(&attrs)) return false;
  for (auto& a : attrs) {
    if (op->attr(a.first)) return ErrorAt(where, "attribute '" + a.first + "' is part of " + syntax + " syntax");
    op->SetAttr(a.first, std::move(a.second));
  }
  return true;
}

bool Parser::ParseDictionary(std::vector<ir::NamedAttribute>* entries) {
  DepthGuard guard(this);
  if (!CheckDepth(guard)) return false;
  if (!Expect(Tok::kLBrace, "'{'")) return false;
  if (Consume(Tok::kRBrace)) return true;
  do {
    const char* where = tok_.text.data();
    std::string name;
    if (!ParseAttributeName(&name)) return false;
    ir::Attribute value = ir::Attribute::Make(ir::UnitAttr{});
    if (Consume(Tok::kEqual)) {
      if (!ParseAttribute(&value)) return false;
    }
    for (const auto& e : *entries) {
      if (e.first == name) return ErrorAt(where, "duplicate attribute '" + name + "'");
    }
    entries->emplace_back(std::move(name), std::move(value));
  } while (Consume(Tok::kComma));
  if (!Expect(Tok::kRBrace, "'}' to close the attribute dictionary")) return false;
  std::sort(entries->begin(), entries->end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  return true;
}

bool Parser::CaptureBalanced(std::string* text) {
  if (!tok_.Is(Tok::kLess) && !tok_.Is(Tok::kLSquare) && !tok_.Is(Tok::kLBrace) && !tok_.Is(Tok::kLParen)) {
    return Error("expected '<', '[', '{' or '('");
  }
  int depth = 0;
  const char* prev_end = nullptr;
  do {
    if (tok_.Is(Tok::kEof) || tok_.Is(Tok::kError)) return Error("unbalanced '<' in attribute");
    if (tok_.Is(Tok::kLess) || tok_.Is(Tok::kLSquare) || tok_.Is(Tok::kLBrace) || tok_.Is(Tok::kLParen)) ++depth;
    if (tok_.Is(Tok::kGreater) || tok_.Is(Tok::kRSquare) || tok_.Is(Tok::kRBrace) || tok_.Is(Tok::kRParen)) --depth;
    if (depth > kMaxDepth) return Error("attribute nested too deeply");
    // Whitespace between tokens collapses to one space: the result is the
    // same whichever way the input was spaced.
    if (prev_end && tok_.text.data() != prev_end) *text += ' ';
    *text += std::string(tok_.text);
    prev_end = tok_.text.data() + tok_.text.size();
    Advance();
  } while (depth > 0);
  return true;
}

bool Parser::ParseConvDimsBody(ir::ConvDimsAttr* dims) {
  // One of the three `[...]` lists: two lettered dims and numbered spatial dims.
  auto parse_layout = [&](char a, char b, int64_t* a_dim, int64_t* b_dim, std::vector<int64_t>* spatial) {
    if (!Expect(Tok::kLSquare, "'[' in convolution dimension numbers")) return false;
    *a_dim = *b_dim = -1;
    std::vector<int64_t> by_index;
    int64_t pos = 0;
    do {
      if (tok_.Is(Tok::kInteger)) {
        int64_t i;
        if (!ParseInteger(&i)) return false;
        if (i < 0 || i > 64) return Error("spatial dimension index out of range");
        if (static_cast<size_t>(i) >= by_index.size()) by_index.resize(static_cast<size_t>(i) + 1, -1);
        if (by_index[static_cast<size_t>(i)] != -1) return Error("spatial dimension " + std::to_string(i) + " appears twice");
        by_index[static_cast<size_t>(i)] = pos;
      } else if (tok_.IsKeyword(std::string(1, a)) || tok_.IsKeyword(std::string(1, b))) {
        int64_t* slot = tok_.text[0] == a ? a_dim : b_dim;
        if (*slot != -1) return Error("dimension '" + std::string(tok_.text) + "' appears twice");
        *slot = pos;
        Advance();
      } else {
        return Error(std::string("expected '") + a + "', '" + b + "' or a spatial dimension number");
      }
      ++pos;
    } while (Consume(Tok::kComma));
    if (!Expect(Tok::kRSquare, "']'")) return false;
    if (*a_dim < 0 || *b_dim < 0) return Error(std::string("convolution layout needs both '") + a + "' and '" + b + "'");
    for (int64_t d : by_index) {
      if (d < 0) return Error("spatial dimension numbers must be 0..n-1 without gaps");
    }
    *spatial = by_index;
    return true;
  };
  if (!parse_layout('b', 'f', &dims->input_batch, &dims->input_feature, &dims->input_spatial)) return false;
  if (!ExpectKeyword("x")) return false;
  if (!parse_layout('i', 'o', &dims->kernel_input_feature, &dims->kernel_output_feature, &dims->kernel_spatial)) {
    return false;
  }
  if (!Expect(Tok::kArrow, "'->' in convolution dimension numbers")) return false;
  return parse_layout('b', 'f', &dims->output_batch, &dims->output_feature, &dims->output_spatial);
}

bool Parser::ParseStablehloStruct(const std::string& name, ir::Attribute* attr) {
  if (!Expect(Tok::kLess, "'<'")) return false;
  if (name == "conv") {
    ir::ConvDimsAttr dims;
    if (ConsumeKeyword("raw")) {
      std::unordered_map<std::string, std::vector<int64_t>> lists;
      std::unordered_map<std::string, int64_t> scalars;
      do {
        std::string field;
        if (!ParseAttributeName(&field) || !Expect(Tok::kEqual, "'='")) return false;
        if (tok_.Is(Tok::kLSquare)) {
          if (!ParseI64List(&lists[field])) return false;
        } else if (!ParseInteger(&scalars[field])) {
          return false;
        }
      } while (Consume(Tok::kComma));
      dims.input_batch = scalars["input_batch_dimension"];
      dims.input_feature = scalars["input_feature_dimension"];
      dims.input_spatial = lists["input_spatial_dimensions"];
      dims.kernel_input_feature = scalars["kernel_input_feature_dimension"];
      dims.kernel_output_feature = scalars["kernel_output_feature_dimension"];
      dims.kernel_spatial = lists["kernel_spatial_dimensions"];
      dims.output_batch = scalars["output_batch_dimension"];
      dims.output_feature = scalars["output_feature_dimension"];
      dims.output_spatial = lists["output_spatial_dimensions"];
    } else if (!ParseConvDimsBody(&dims)) {
      return false;
    }
    *attr = ir::Attribute::Make(std::move(dims));
    return Expect(Tok::kGreater, "'>'");
  }
  // Structured attributes made of `field = [list]` / `field = int` entries.
  std::unordered_map<std::string, std::vector<int64_t>*> lists;
  std::unordered_map<std::string, int64_t*> scalars;
  ir::DotDimsAttr dot;
  ir::GatherDimsAttr gather;
  ir::ScatterDimsAttr scatter;
  ir::ChannelHandleAttr channel;
  ir::OutputOperandAliasAttr alias;
  if (name == "dot") {
    lists = {{"lhs_batching_dimensions", &dot.lhs_batching}, {"rhs_batching_dimensions", &dot.rhs_batching},
             {"lhs_contracting_dimensions", &dot.lhs_contracting},
             {"rhs_contracting_dimensions", &dot.rhs_contracting}};
  } else if (name == "gather") {
    lists = {{"offset_dims", &gather.offset_dims}, {"collapsed_slice_dims", &gather.collapsed_slice_dims},
             {"operand_batching_dims", &gather.operand_batching_dims},
             {"start_indices_batching_dims", &gather.start_indices_batching_dims},
             {"start_index_map", &gather.start_index_map}};
    scalars = {{"index_vector_dim", &gather.index_vector_dim}};
  } else if (name == "scatter") {
    lists = {{"update_window_dims", &scatter.update_window_dims},
             {"inserted_window_dims", &scatter.inserted_window_dims},
             {"input_batching_dims", &scatter.input_batching_dims},
             {"scatter_indices_batching_dims", &scatter.scatter_indices_batching_dims},
             {"scatter_dims_to_operand_dims", &scatter.scatter_dims_to_operand_dims}};
    scalars = {{"index_vector_dim", &scatter.index_vector_dim}};
  } else if (name == "channel_handle") {
    scalars = {{"handle", &channel.handle}, {"type", &channel.type}};
  } else if (name == "output_operand_alias") {
    lists = {{"output_tuple_indices", &alias.output_tuple_indices},
             {"operand_tuple_indices", &alias.operand_tuple_indices}};
    scalars = {{"operand_index", &alias.operand_index}};
  }
  if (!tok_.Is(Tok::kGreater)) {
    do {
      const char* where = tok_.text.data();
      std::string field;
      if (!ParseAttributeName(&field) || !Expect(Tok::kEqual, "'='")) return false;
      if (auto it = lists.find(field); it != lists.end()) {
        it->second->clear();
        if (!ParseI64List(it->second)) return false;
      } else if (auto is = scalars.find(field); is != scalars.end()) {
        if (!ParseInteger(is->second)) return false;
      } else {
        return ErrorAt(where, "unknown field '" + field + "' in #stablehlo." + name);
      }
    } while (Consume(Tok::kComma));
  }
  if (!Expect(Tok::kGreater, "'>'")) return false;
  if (name == "dot") *attr = ir::Attribute::Make(dot);
  if (name == "gather") *attr = ir::Attribute::Make(gather);
  if (name == "scatter") *attr = ir::Attribute::Make(scatter);
  if (name == "channel_handle") *attr = ir::Attribute::Make(channel);
  if (name == "output_operand_alias") *attr = ir::Attribute::Make(alias);
  return true;
}

bool Parser::ParseHashAttribute(ir::Attribute* attr) {
  std::string id(tok_.text);
  const char* where = tok_.text.data();
  Advance();
  if (id == "#stablehlo") {
    if (!Expect(Tok::kLess, "'<' after #stablehlo")) return false;
    std::string enum_name, value;
    if (!ParseAttributeName(&enum_name)) return false;
    if (!tok_.Is(Tok::kBareId)) return Error("expected an enum value after '" + enum_name + "'");
    value = std::string(tok_.text);
    const auto& allowed = ir::EnumValues(enum_name);
    if (!allowed.empty() && std::find(allowed.begin(), allowed.end(), value) == allowed.end()) {
      return Error("'" + value + "' is not a valid " + enum_name);
    }
    Advance();
    *attr = ir::MakeEnum(enum_name, value);
    return Expect(Tok::kGreater, "'>'");
  }
  static const char* kStructs[] = {"dot", "gather", "scatter", "conv", "channel_handle", "output_operand_alias"};
  if (id.rfind("#stablehlo.", 0) == 0) {
    std::string name = id.substr(11);
    for (const char* s : kStructs) {
      if (name == s) return ParseStablehloStruct(name, attr);
    }
  }
  if (id.find('.') != std::string::npos || id == "#sdy") {
    // Attributes of other dialects (Shardy, or StableHLO ones hlograph does
    // not interpret yet) are kept verbatim.
    std::string text = id;
    if (tok_.Is(Tok::kLess)) {
      if (!CaptureBalanced(&text)) return false;
    }
    *attr = ir::Attribute::Make(ir::OpaqueAttr{std::move(text)});
    return true;
  }
  return ErrorAt(where, "unknown attribute alias '" + id + "'");
}

namespace {
std::string EncodeLiteral(const Literal& lit, ir::ElementType t, uint8_t* out);
}  // namespace

bool Parser::ParseDenseArray(ir::Attribute* attr) {
  if (!Expect(Tok::kLess, "'<' after array")) return false;
  ir::DenseArrayAttr arr;
  if (!ParseElementType(&arr.type)) return false;
  if (ir::IsComplex(arr.type)) return Error("array<> of complex numbers is not supported");
  if (Consume(Tok::kColon)) {
    do {
      if (ir::IsBool(arr.type)) {
        if (tok_.IsKeyword("true") || tok_.IsKeyword("false")) {
          arr.values.push_back(tok_.IsKeyword("true"));
          Advance();
          continue;
        }
      }
      if (ir::IsFloat(arr.type)) {
        // The same literal forms as dense<...>: decimals, inf/nan, 0x bits.
        Literal lit;
        lit.where = tok_.text.data();
        lit.negative = Consume(Tok::kMinus);
        lit.text = tok_.text;
        if (tok_.Is(Tok::kInteger)) {
          lit.kind = Literal::Kind::kInt;
        } else if (tok_.Is(Tok::kFloat)) {
          lit.kind = Literal::Kind::kFloat;
        } else if (tok_.IsKeyword("inf") || tok_.IsKeyword("nan")) {
          lit.kind = tok_.IsKeyword("inf") ? Literal::Kind::kInf : Literal::Kind::kNan;
        } else {
          return Error("expected a float in array<>");
        }
        uint8_t buf[8] = {};
        std::string err = EncodeLiteral(lit, arr.type, buf);
        if (!err.empty()) return ErrorAt(lit.where, err);
        uint64_t bits = 0;
        std::memcpy(&bits, buf, static_cast<size_t>(ir::StorageBytes(arr.type)));
        arr.values.push_back(static_cast<int64_t>(bits));
        Advance();
        continue;
      }
      int64_t v;
      if (!ParseInteger(&v)) return false;
      arr.values.push_back(v);
    } while (Consume(Tok::kComma));
  }
  *attr = ir::Attribute::Make(std::move(arr));
  return Expect(Tok::kGreater, "'>' to close array<...>");
}

namespace {

// Stores `lit` as an element of type `t` at `out` (StorageBytes(t) bytes).
std::string EncodeLiteral(const Literal& lit, ir::ElementType t, uint8_t* out) {
  const int width = ir::BitWidth(t);
  uint64_t bits = 0;
  if (ir::IsBool(t)) {
    if (lit.kind == Literal::Kind::kBool) {
      bits = lit.bool_value;
    } else if (lit.kind == Literal::Kind::kInt && !lit.negative && (lit.text == "0" || lit.text == "1")) {
      bits = lit.text == "1";
    } else {
      return "expected true or false for an i1 element";
    }
  } else if (ir::IsInteger(t)) {
    if (lit.kind != Literal::Kind::kInt) return "expected an integer for a " + std::string(ir::ElementTypeName(t)) + " element";
    uint64_t u;
    if (!ParseUnsigned(lit.text, &u)) return "integer literal out of range";
    const uint64_t max_unsigned = width >= 64 ? ~0ull : (1ull << width) - 1;
    if (lit.negative) {
      if (ir::IsUnsignedInteger(t)) return "negative value for an unsigned element";
      if (u > (1ull << (width - 1))) return "integer literal out of range for " + std::string(ir::ElementTypeName(t));
      bits = 0 - u;
    } else {
      if (u > max_unsigned) return "integer literal out of range for " + std::string(ir::ElementTypeName(t));
      bits = u;
    }
    bits &= max_unsigned;
    // Signed sub-byte integers are stored sign-extended in their byte, the
    // layout tensors use.
    if (ir::IsSignedInteger(t) && width < 64 && ((bits >> (width - 1)) & 1)) bits |= ~max_unsigned;
  } else if (ir::IsFloat(t)) {
    if (lit.kind == Literal::Kind::kBool) return "expected a number for a float element";
    if (lit.kind == Literal::Kind::kInt && IsHex(lit.text)) {
      if (lit.negative) return "a hexadecimal float literal gives the bits, sign included; it cannot have a '-'";
      uint64_t u;
      if (!ParseUnsigned(lit.text, &u)) return "hex literal out of range";
      if (width < 64 && (u >> width) != 0) return "hex literal wider than " + std::string(ir::ElementTypeName(t));
      bits = u;
    } else if (lit.kind == Literal::Kind::kInf) {
      bits = ir::DoubleToFloatBits(lit.negative ? -INFINITY : INFINITY, t);
    } else if (lit.kind == Literal::Kind::kNan) {
      bits = ir::DoubleToFloatBits(std::numeric_limits<double>::quiet_NaN(), t);
    } else {
      std::string text = (lit.negative ? "-" : "") + std::string(lit.text);
      if (!ir::ParseFloatLiteral(text, t, &bits)) return "malformed float literal";
    }
  } else {
    return "unsupported element type";
  }
  std::memcpy(out, &bits, static_cast<size_t>(ir::StorageBytes(t)));
  return "";
}

}  // namespace

bool Parser::ParseDenseElements(ir::Attribute* attr) {
  if (!Expect(Tok::kLess, "'<' after dense")) return false;
  std::vector<uint8_t> hex_bytes;
  bool is_hex = false;
  std::vector<Literal> literals;
  std::vector<int64_t> shape;  // of the literal tree
  bool complex_pairs = false;
  if (tok_.Is(Tok::kString)) {
    const char* string_where = tok_.text.data();
    std::string s;
    if (!ParseStringLiteral(&s)) return false;
    if (s.size() < 2 || s[0] != '0' || s[1] != 'x' || s.size() % 2 != 0) {
      return ErrorAt(string_where, "expected a hex string \"0x...\" with whole bytes in dense<...>");
    }
    for (size_t i = 2; i < s.size(); i += 2) {
      auto hex = [](char c) -> int {
        if (c >= '0' && c <= '9') return c - '0';
        if (c >= 'a' && c <= 'f') return c - 'a' + 10;
        if (c >= 'A' && c <= 'F') return c - 'A' + 10;
        return -1;
      };
      int hi = hex(s[i]), lo = hex(s[i + 1]);
      if (hi < 0 || lo < 0) return ErrorAt(string_where, "invalid hex digit in dense<\"0x...\">");
      hex_bytes.push_back(static_cast<uint8_t>(hi * 16 + lo));
    }
    is_hex = true;
  } else if (!tok_.Is(Tok::kGreater)) {
    // A scalar or nested lists; record the shape of the nesting.
    std::function<bool(size_t, std::vector<int64_t>*)> parse_value;
    auto parse_scalar = [&]() -> bool {
      Literal lit;
      lit.where = tok_.text.data();
      lit.negative = Consume(Tok::kMinus);
      if (tok_.Is(Tok::kInteger)) {
        lit.kind = Literal::Kind::kInt;
      } else if (tok_.Is(Tok::kFloat)) {
        lit.kind = Literal::Kind::kFloat;
      } else if (!lit.negative && (tok_.IsKeyword("true") || tok_.IsKeyword("false"))) {
        lit.kind = Literal::Kind::kBool;
        lit.bool_value = tok_.IsKeyword("true");
      } else if (tok_.IsKeyword("inf")) {
        lit.kind = Literal::Kind::kInf;
      } else if (tok_.IsKeyword("nan")) {
        lit.kind = Literal::Kind::kNan;
      } else {
        return Error("expected a number, true/false, inf or nan in dense<...>");
      }
      lit.text = tok_.text;
      literals.push_back(lit);
      Advance();
      return true;
    };
    parse_value = [&](size_t depth, std::vector<int64_t>* sub_shape) -> bool {
      if (depth > 64) return Error("dense<...> nested too deeply");
      if (tok_.Is(Tok::kLParen)) {  // complex (re, im)
        Advance();
        complex_pairs = true;
        if (!parse_scalar() || !Expect(Tok::kComma, "',' in a complex literal") || !parse_scalar()) return false;
        sub_shape->clear();
        return Expect(Tok::kRParen, "')' to close a complex literal");
      }
      if (!tok_.Is(Tok::kLSquare)) {
        sub_shape->clear();
        return parse_scalar();
      }
      Advance();
      int64_t count = 0;
      std::vector<int64_t> first_shape;
      if (!tok_.Is(Tok::kRSquare)) {
        do {
          const char* where = tok_.text.data();
          std::vector<int64_t> s;
          if (!parse_value(depth + 1, &s)) return false;
          if (count == 0) {
            first_shape = s;
          } else if (s != first_shape) {
            return ErrorAt(where, "dense<...> lists are not rectangular");
          }
          ++count;
        } while (Consume(Tok::kComma));
      }
      if (!Expect(Tok::kRSquare, "']' in dense<...>")) return false;
      sub_shape->assign(1, count);
      sub_shape->insert(sub_shape->end(), first_shape.begin(), first_shape.end());
      return true;
    };
    if (!parse_value(0, &shape)) return false;
  }
  if (!Expect(Tok::kGreater, "'>' to close dense<...>")) return false;
  if (!Expect(Tok::kColon, "':' and the tensor type after dense<...>")) return false;
  const char* type_where = tok_.text.data();
  ir::Type type;
  if (!ParseType(&type)) return false;
  if (!type.IsTensor()) return ErrorAt(type_where, "dense<...> needs a tensor type");
  const ir::ElementType et = type.element();
  const int64_t n = type.NumElements();
  const size_t elem_bytes = static_cast<size_t>(ir::StorageBytes(et));
  ir::DenseElementsAttr dense;
  dense.type = type;
  if (is_hex) {
    if (hex_bytes.size() == elem_bytes && n != 1) {
      dense.splat = true;
    } else if (n == std::numeric_limits<int64_t>::max() || hex_bytes.size() != static_cast<size_t>(n) * elem_bytes) {
      return ErrorAt(type_where, "hex data of " + std::to_string(hex_bytes.size()) + " bytes does not match " +
                                     type.ToString());
    }
    dense.bytes = std::move(hex_bytes);
  } else if (literals.empty()) {
    if (n != 0) return ErrorAt(type_where, "empty dense<> needs a tensor with zero elements, got " + type.ToString());
  } else {
    const bool is_complex = ir::IsComplex(et);
    if (complex_pairs != is_complex) {
      return ErrorAt(type_where, is_complex ? "complex elements are written (re, im)"
                                            : "(re, im) pairs need a complex element type");
    }
    if (shape.empty()) {
      dense.splat = true;
    } else if (shape != type.shape()) {
      std::string got;
      for (int64_t d : shape) got += std::to_string(d) + "x";
      return ErrorAt(type_where, "dense<...> literal has shape " + got + " but the type is " + type.ToString());
    }
    const ir::ElementType scalar = is_complex ? ir::ComplexPart(et) : et;
    const size_t scalar_bytes = static_cast<size_t>(ir::StorageBytes(scalar));
    dense.bytes.resize(literals.size() * scalar_bytes);
    for (size_t i = 0; i < literals.size(); ++i) {
      std::string err = EncodeLiteral(literals[i], scalar, dense.bytes.data() + i * scalar_bytes);
      if (!err.empty()) return ErrorAt(literals[i].where, err);
    }
  }
  if (dense.splat && n == 0) {
    dense.splat = false;
    dense.bytes.clear();
  }
  *attr = ir::Attribute::Make(std::move(dense));
  return true;
}

bool Parser::ParseAttribute(ir::Attribute* attr) {
  DepthGuard guard(this);
  if (!CheckDepth(guard)) return false;
  switch (tok_.kind) {
    case Tok::kString: {
      std::string s;
      if (!ParseStringLiteral(&s)) return false;
      *attr = ir::MakeString(std::move(s));
      return true;
    }
    case Tok::kAtId: {
      std::string name(tok_.text.substr(1));
      if (!name.empty() && name[0] == '"') {
        if (!UnescapeString(name, &name)) return Error("malformed symbol name");
      }
      Advance();
      *attr = ir::Attribute::Make(ir::SymbolRefAttr{std::move(name)});
      return true;
    }
    case Tok::kLSquare: {
      Advance();
      ir::ArrayAttr arr;
      if (!tok_.Is(Tok::kRSquare)) {
        do {
          ir::Attribute e;
          if (!ParseAttribute(&e)) return false;
          arr.elements.push_back(std::move(e));
        } while (Consume(Tok::kComma));
      }
      if (!Expect(Tok::kRSquare, "']' to close the array")) return false;
      *attr = ir::Attribute::Make(std::move(arr));
      return true;
    }
    case Tok::kLBrace: {
      ir::DictionaryAttr dict;
      if (!ParseDictionary(&dict.entries)) return false;
      *attr = ir::Attribute::Make(std::move(dict));
      return true;
    }
    case Tok::kHashId: return ParseHashAttribute(attr);
    case Tok::kLParen: {
      ir::FunctionType fn;
      if (!ParseFunctionType(&fn)) return false;
      *attr = ir::Attribute::Make(ir::FunctionTypeAttr{std::move(fn)});
      return true;
    }
    case Tok::kExclId: {
      ir::Type t;
      if (!ParseType(&t)) return false;
      *attr = ir::Attribute::Make(ir::TypeAttr{std::move(t)});
      return true;
    }
    default: break;
  }
  if (tok_.IsKeyword("true") || tok_.IsKeyword("false")) {
    *attr = ir::MakeBool(tok_.IsKeyword("true"));
    Advance();
    return true;
  }
  if (ConsumeKeyword("unit")) {
    *attr = ir::Attribute::Make(ir::UnitAttr{});
    return true;
  }
  if (ConsumeKeyword("dense")) return ParseDenseElements(attr);
  if (ConsumeKeyword("array")) return ParseDenseArray(attr);
  if (tok_.IsKeyword("dense_resource")) return Error("dense_resource<...> blobs are not supported; print constants inline");
  if (tok_.IsKeyword("tensor") || tok_.IsKeyword("tuple")) {
    ir::Type t;
    if (!ParseType(&t)) return false;
    *attr = ir::Attribute::Make(ir::TypeAttr{std::move(t)});
    return true;
  }
  // Numbers: `3`, `-2 : i32`, `1.5 : f32`, `0x7FC00000 : f32`, `inf : f32`.
  const char* where = tok_.text.data();
  bool negative = Consume(Tok::kMinus);
  if (tok_.Is(Tok::kInteger) || tok_.Is(Tok::kFloat) || tok_.IsKeyword("inf") || tok_.IsKeyword("nan")) {
    Literal lit;
    lit.negative = negative;
    lit.text = tok_.text;
    lit.where = where;
    lit.kind = tok_.Is(Tok::kInteger) ? Literal::Kind::kInt
               : tok_.Is(Tok::kFloat) ? Literal::Kind::kFloat
               : tok_.IsKeyword("inf") ? Literal::Kind::kInf
                                       : Literal::Kind::kNan;
    Advance();
    ir::ElementType type = lit.kind == Literal::Kind::kInt ? ir::ElementType::kI64 : ir::ElementType::kF64;
    bool is_index = false;
    if (tok_.Is(Tok::kColon)) {
      State s = Save();
      Advance();
      if (ConsumeKeyword("index")) {
        is_index = true;
        type = ir::ElementType::kI64;
      } else if (tok_.Is(Tok::kBareId) && ir::ElementTypeFromName(tok_.text)) {
        if (!ParseElementType(&type)) return false;
      } else {
        Restore(s);
      }
    }
    uint8_t buf[8] = {};
    std::string err = EncodeLiteral(lit, type, buf);
    if (!err.empty()) return ErrorAt(where, err);
    uint64_t bits = 0;
    std::memcpy(&bits, buf, static_cast<size_t>(ir::StorageBytes(type)));
    if (ir::IsFloat(type)) {
      *attr = ir::Attribute::Make(ir::FloatAttr{bits, type});
    } else if (ir::IsBool(type)) {
      *attr = ir::MakeBool(bits != 0);
    } else {
      int64_t value = static_cast<int64_t>(bits);
      const int w = ir::BitWidth(type);
      if (ir::IsSignedInteger(type) && w < 64) value = (value << (64 - w)) >> (64 - w);
      *attr = ir::Attribute::Make(ir::IntegerAttr{value, type, is_index});
    }
    return true;
  }
  if (negative) return ErrorAt(where, "expected a number after '-'");
  return Error("expected an attribute value, found '" + std::string(tok_.text.substr(0, 40)) + "'");
}

bool Parser::ParseShortAttribute(const ir::AttrSpec& spec, ir::Attribute* attr) {
  using K = ir::AttrKind;
  switch (spec.kind) {
    case K::kI32:
    case K::kI64: {
      int64_t v;
      if (!ParseInteger(&v)) return false;
      ir::ElementType t = spec.kind == K::kI32 ? ir::ElementType::kI32 : ir::ElementType::kI64;
      if (t == ir::ElementType::kI32 && (v < INT32_MIN || v > INT32_MAX)) return Error("value out of range for i32");
      *attr = ir::Attribute::Make(ir::IntegerAttr{v, t});
      return true;
    }
    case K::kFloat: {
      bool neg = Consume(Tok::kMinus);
      uint64_t bits;
      std::string text = (neg ? "-" : "") + std::string(tok_.text);
      if (!(tok_.Is(Tok::kFloat) || tok_.Is(Tok::kInteger)) ||
          !ir::ParseFloatLiteral(text, ir::ElementType::kF64, &bits)) {
        return Error("expected a float");
      }
      Advance();
      *attr = ir::Attribute::Make(ir::FloatAttr{bits, ir::ElementType::kF64});
      return true;
    }
    case K::kI64Array: {
      std::vector<int64_t> v;
      if (!ParseI64List(&v)) return false;
      *attr = ir::MakeI64Array(std::move(v));
      return true;
    }
    case K::kEnum:
    case K::kEnumArray: {
      auto parse_one = [&](ir::Attribute* out) {
        if (tok_.Is(Tok::kHashId)) return ParseAttribute(out);
        if (!tok_.Is(Tok::kBareId)) return Error("expected a " + spec.enum_name + " value");
        const auto& allowed = ir::EnumValues(spec.enum_name);
        std::string value(tok_.text);
        if (!allowed.empty() && std::find(allowed.begin(), allowed.end(), value) == allowed.end()) {
          std::string list;
          for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
          return Error("'" + value + "' is not a valid " + spec.enum_name + " (expected one of " + list + ")");
        }
        Advance();
        *out = ir::MakeEnum(spec.enum_name, value);
        return true;
      };
      if (spec.kind == K::kEnum) return parse_one(attr);
      if (!Expect(Tok::kLSquare, "'['")) return false;
      ir::ArrayAttr arr;
      if (!tok_.Is(Tok::kRSquare)) {
        do {
          ir::Attribute e;
          if (!parse_one(&e)) return false;
          arr.elements.push_back(std::move(e));
        } while (Consume(Tok::kComma));
      }
      if (!Expect(Tok::kRSquare, "']'")) return false;
      *attr = ir::Attribute::Make(std::move(arr));
      return true;
    }
    case K::kDialectBody: {
      std::string body;
      if (!CaptureBalanced(&body)) return false;
      *attr = ir::Attribute::Make(ir::OpaqueAttr{spec.BodyPrefix() + body + spec.BodySuffix()});
      return true;
    }
    case K::kConvDims: {
      ir::ConvDimsAttr dims;
      if (!ParseConvDimsBody(&dims)) return false;
      *attr = ir::Attribute::Make(std::move(dims));
      return true;
    }
    default: return ParseAttribute(attr);
  }
}

}  // namespace hlograph::frontend
