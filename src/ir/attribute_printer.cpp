#include "ir/attribute_printer.h"

#include <cstring>

#include "ir/printing_utils.h"

namespace hlograph::ir {
namespace {

// Dense attributes with more elements than this print as one hex string,
// as MLIR does, which keeps large constants compact and exact.
constexpr int64_t kHexThreshold = 100;

void AppendField(std::string& out, bool& first, const char* name, const std::vector<int64_t>& v,
                 bool always = false) {
  if (v.empty() && !always) return;
  if (!first) out += ", ";
  first = false;
  out += name;
  out += " = ";
  out += I64ListToString(v);
}

// index_vector_dim is left out at its default, 0, as StableHLO does.
void AppendIndexVectorDim(std::string& out, bool first, int64_t dim) {
  if (dim != 0) out += (first ? "" : ", ") + std::string("index_vector_dim = ") + std::to_string(dim);
  out += ">";
}

int64_t SignExtend(uint64_t bits, int width) {
  if (width >= 64) return static_cast<int64_t>(bits);
  uint64_t sign = 1ull << (width - 1);
  bits &= (1ull << width) - 1;
  return static_cast<int64_t>((bits ^ sign) - sign);
}

std::string ScalarToString(uint64_t bits, ElementType t) {
  if (IsBool(t)) return bits ? "true" : "false";
  if (IsUnsignedInteger(t)) return std::to_string(bits);
  if (IsSignedInteger(t)) return std::to_string(SignExtend(bits, BitWidth(t)));
  return FormatFloatBits(bits, t);
}

// Convolution dims in the compact `[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]`
// form; returns false when the dims are not a permutation (then the raw form
// is printed so that nothing is lost).
bool ConvLayout(int64_t a, char a_char, int64_t b, char b_char, const std::vector<int64_t>& spatial,
                std::string* out) {
  const size_t rank = spatial.size() + 2;
  std::vector<std::string> slots(rank);
  auto put = [&](int64_t dim, std::string s) {
    if (dim < 0 || static_cast<size_t>(dim) >= rank || !slots[static_cast<size_t>(dim)].empty()) return false;
    slots[static_cast<size_t>(dim)] = std::move(s);
    return true;
  };
  if (!put(a, std::string(1, a_char)) || !put(b, std::string(1, b_char))) return false;
  for (size_t i = 0; i < spatial.size(); ++i) {
    if (!put(spatial[i], std::to_string(i))) return false;
  }
  *out = "[";
  for (size_t i = 0; i < rank; ++i) *out += (i ? ", " : "") + slots[i];
  *out += "]";
  return true;
}

}  // namespace

std::string I64ListToString(const std::vector<int64_t>& values) {
  std::string s = "[";
  for (size_t i = 0; i < values.size(); ++i) {
    if (i) s += ", ";
    s += std::to_string(values[i]);
  }
  return s + "]";
}

uint64_t DenseElementBits(const DenseElementsAttr& dense, int64_t index, int part) {
  const ElementType t = dense.type.element();
  const ElementType scalar = IsComplex(t) ? ComplexPart(t) : t;
  const size_t width = static_cast<size_t>(StorageBytes(scalar));
  const size_t stride = static_cast<size_t>(StorageBytes(t));
  const size_t offset = (dense.splat ? 0 : static_cast<size_t>(index)) * stride + static_cast<size_t>(part) * width;
  uint64_t bits = 0;
  if (offset + width <= dense.bytes.size()) std::memcpy(&bits, dense.bytes.data() + offset, width);
  return bits;
}

std::string DenseElementToString(const DenseElementsAttr& dense, int64_t index) {
  const ElementType t = dense.type.element();
  if (IsComplex(t)) {
    ElementType part = ComplexPart(t);
    // Appended piece by piece: GCC 12 -O3 warns falsely (-Wrestrict) on "literal" + a temporary string.
    std::string s = "(";
    s += ScalarToString(DenseElementBits(dense, index, 0), part);
    s += ',';
    s += ScalarToString(DenseElementBits(dense, index, 1), part);
    s += ')';
    return s;
  }
  return ScalarToString(DenseElementBits(dense, index), t);
}

namespace {

void PrintDenseNested(std::string& out, const DenseElementsAttr& dense, size_t dim, int64_t* next) {
  const auto& shape = dense.type.shape();
  if (dim == shape.size()) {
    out += DenseElementToString(dense, (*next)++);
    return;
  }
  out += "[";
  for (int64_t i = 0; i < shape[dim]; ++i) {
    if (i) out += ", ";
    PrintDenseNested(out, dense, dim + 1, next);
  }
  out += "]";
}

void PrintDense(std::string& out, const DenseElementsAttr& dense) {
  out += "dense<";
  const int64_t n = dense.type.NumElements();
  if (dense.splat && n != 0) {
    out += DenseElementToString(dense, 0);
  } else if (n == 0) {
    // MLIR spells every zero-element tensor as an empty list.
  } else if (n > kHexThreshold) {
    static const char* kHex = "0123456789ABCDEF";
    out += "\"0x";
    for (uint8_t b : dense.bytes) {
      out += kHex[b >> 4];
      out += kHex[b & 15];
    }
    out += "\"";
  } else {
    int64_t next = 0;
    PrintDenseNested(out, dense, 0, &next);
  }
  out += "> : " + dense.type.ToString();
}

struct AttrPrinter {
  std::string& out;

  void operator()(const UnitAttr&) { out += "unit"; }
  void operator()(const BoolAttr& a) { out += a.value ? "true" : "false"; }
  void operator()(const IntegerAttr& a) {
    if (IsUnsignedInteger(a.type)) {
      out += std::to_string(static_cast<uint64_t>(a.value));
    } else {
      out += std::to_string(a.value);
    }
    out += " : ";
    out += a.is_index ? "index" : std::string(ElementTypeName(a.type));
  }
  void operator()(const FloatAttr& a) {
    out += FormatFloatBits(a.bits, a.type) + " : " + std::string(ElementTypeName(a.type));
  }
  void operator()(const StringAttr& a) { out += QuoteString(a.value); }
  void operator()(const TypeAttr& a) { out += a.type.ToString(); }
  void operator()(const FunctionTypeAttr& a) { out += a.type.ToString(); }
  void operator()(const SymbolRefAttr& a) {
    out += '@';  // appended: GCC 12 -O3 warns falsely (-Wrestrict) on "literal" + a temporary string
    out += SymbolName(a.name);
  }
  void operator()(const ArrayAttr& a) {
    // Inside arrays MLIR leaves out the default types, i64 and f64.
    out += "[";
    for (size_t i = 0; i < a.elements.size(); ++i) {
      if (i) out += ", ";
      const auto* integer = a.elements[i].as<IntegerAttr>();
      const auto* fp = a.elements[i].as<FloatAttr>();
      if (integer && integer->type == ElementType::kI64 && !integer->is_index) {
        out += std::to_string(integer->value);
      } else if (fp && fp->type == ElementType::kF64) {
        out += FormatFloatBits(fp->bits, fp->type);
      } else {
        PrintAttribute(out, a.elements[i]);
      }
    }
    out += "]";
  }
  void operator()(const DenseArrayAttr& a) {
    out += "array<" + std::string(ElementTypeName(a.type));
    for (size_t i = 0; i < a.values.size(); ++i) {
      out += i ? ", " : ": ";
      out += ScalarToString(static_cast<uint64_t>(a.values[i]), a.type);
    }
    out += ">";
  }
  void operator()(const DenseElementsAttr& a) { PrintDense(out, a); }
  void operator()(const DictionaryAttr& a) { PrintDictionary(out, a.entries); }
  void operator()(const EnumAttr& a) { out += "#stablehlo<" + a.enum_name + " " + a.value + ">"; }
  void operator()(const DotDimsAttr& a) {
    out += "#stablehlo.dot<";
    bool first = true;
    AppendField(out, first, "lhs_batching_dimensions", a.lhs_batching);
    AppendField(out, first, "rhs_batching_dimensions", a.rhs_batching);
    AppendField(out, first, "lhs_contracting_dimensions", a.lhs_contracting);
    AppendField(out, first, "rhs_contracting_dimensions", a.rhs_contracting);
    out += ">";
  }
  void operator()(const GatherDimsAttr& a) {
    out += "#stablehlo.gather<";
    bool first = true;
    AppendField(out, first, "offset_dims", a.offset_dims);
    AppendField(out, first, "collapsed_slice_dims", a.collapsed_slice_dims);
    AppendField(out, first, "operand_batching_dims", a.operand_batching_dims);
    AppendField(out, first, "start_indices_batching_dims", a.start_indices_batching_dims);
    AppendField(out, first, "start_index_map", a.start_index_map);
    AppendIndexVectorDim(out, first, a.index_vector_dim);
  }
  void operator()(const ScatterDimsAttr& a) {
    out += "#stablehlo.scatter<";
    bool first = true;
    AppendField(out, first, "update_window_dims", a.update_window_dims);
    AppendField(out, first, "inserted_window_dims", a.inserted_window_dims);
    AppendField(out, first, "input_batching_dims", a.input_batching_dims);
    AppendField(out, first, "scatter_indices_batching_dims", a.scatter_indices_batching_dims);
    AppendField(out, first, "scatter_dims_to_operand_dims", a.scatter_dims_to_operand_dims);
    AppendIndexVectorDim(out, first, a.index_vector_dim);
  }
  void operator()(const ConvDimsAttr& a) { out += "#stablehlo.conv<" + ConvDimsToString(a) + ">"; }
  void operator()(const ChannelHandleAttr& a) {
    out += "#stablehlo.channel_handle<handle = " + std::to_string(a.handle) +
           ", type = " + std::to_string(a.type) + ">";
  }
  void operator()(const OutputOperandAliasAttr& a) {
    out += "#stablehlo.output_operand_alias<output_tuple_indices = " + I64ListToString(a.output_tuple_indices) +
           ", operand_index = " + std::to_string(a.operand_index) +
           ", operand_tuple_indices = " + I64ListToString(a.operand_tuple_indices) + ">";
  }
  void operator()(const OpaqueAttr& a) { out += a.text; }
};

}  // namespace

std::string ConvDimsToString(const ConvDimsAttr& a) {
  std::string in, kernel, result;
  if (a.kernel_spatial.size() == a.input_spatial.size() && a.output_spatial.size() == a.input_spatial.size() &&
      ConvLayout(a.input_batch, 'b', a.input_feature, 'f', a.input_spatial, &in) &&
      ConvLayout(a.kernel_output_feature, 'o', a.kernel_input_feature, 'i', a.kernel_spatial, &kernel) &&
      ConvLayout(a.output_batch, 'b', a.output_feature, 'f', a.output_spatial, &result)) {
    return in + "x" + kernel + "->" + result;
  }
  return "raw input_batch_dimension = " + std::to_string(a.input_batch) +
         ", input_feature_dimension = " + std::to_string(a.input_feature) +
         ", input_spatial_dimensions = " + I64ListToString(a.input_spatial) +
         ", kernel_input_feature_dimension = " + std::to_string(a.kernel_input_feature) +
         ", kernel_output_feature_dimension = " + std::to_string(a.kernel_output_feature) +
         ", kernel_spatial_dimensions = " + I64ListToString(a.kernel_spatial) +
         ", output_batch_dimension = " + std::to_string(a.output_batch) +
         ", output_feature_dimension = " + std::to_string(a.output_feature) +
         ", output_spatial_dimensions = " + I64ListToString(a.output_spatial);
}

void PrintAttribute(std::string& out, const Attribute& attr) {
  if (!attr) {
    out += "<<null>>";
    return;
  }
  std::visit(AttrPrinter{out}, attr.data().value);
}

std::string AttributeToString(const Attribute& attr) {
  std::string s;
  PrintAttribute(s, attr);
  return s;
}

void PrintDictionary(std::string& out, const std::vector<NamedAttribute>& entries) {
  out += "{";
  for (size_t i = 0; i < entries.size(); ++i) {
    if (i) out += ", ";
    out += SymbolName(entries[i].first);
    if (!entries[i].second.as<UnitAttr>()) {
      out += " = ";
      PrintAttribute(out, entries[i].second);
    }
  }
  out += "}";
}

}  // namespace hlograph::ir
