#include "ir/attribute.h"

#include <map>

#include "ir/attribute_printer.h"

namespace hlograph::ir {

bool Attribute::operator==(const Attribute& other) const {
  if (data_ == other.data_) return true;
  if (!data_ || !other.data_) return false;
  // Structural equality through the canonical spelling: every attribute
  // prints to exactly one text, so this is exact and needs no per-kind code.
  return AttributeToString(*this) == AttributeToString(other);
}

int64_t DenseElementsAttr::NumStoredElements() const { return splat ? 1 : type.NumElements(); }

Attribute MakeI64(int64_t v) { return Attribute::Make(IntegerAttr{v, ElementType::kI64}); }
Attribute MakeBool(bool v) { return Attribute::Make(BoolAttr{v}); }
Attribute MakeString(std::string s) { return Attribute::Make(StringAttr{std::move(s)}); }
Attribute MakeI64Array(std::vector<int64_t> v) {
  return Attribute::Make(DenseArrayAttr{ElementType::kI64, std::move(v)});
}
Attribute MakeI64Matrix(const std::vector<std::vector<int64_t>>& rows) {
  const auto n = static_cast<int64_t>(rows.size());
  const auto m = rows.empty() ? int64_t{0} : static_cast<int64_t>(rows[0].size());
  std::vector<uint8_t> bytes;
  for (const auto& row : rows) {
    for (const int64_t x : row) {
      for (int b = 0; b < 8; ++b) bytes.push_back(static_cast<uint8_t>(static_cast<uint64_t>(x) >> (8 * b)));
    }
  }
  return Attribute::Make(DenseElementsAttr{Type::Tensor(ElementType::kI64, {n, m}), false, std::move(bytes)});
}
Attribute MakeEnum(std::string enum_name, std::string value) {
  return Attribute::Make(EnumAttr{std::move(enum_name), std::move(value)});
}

const Attribute* FindEntry(const DictionaryAttr& dict, const std::string& name) {
  for (const auto& [k, v] : dict.entries) {
    if (k == name) return &v;
  }
  return nullptr;
}

const std::vector<std::string>& EnumValues(const std::string& enum_name) {
  static const std::map<std::string, std::vector<std::string>> kEnums = {
      {"comparison_direction", {"EQ", "NE", "GE", "GT", "LE", "LT"}},
      {"comparison_type", {"NOTYPE", "FLOAT", "TOTALORDER", "SIGNED", "UNSIGNED"}},
      {"precision", {"DEFAULT", "HIGH", "HIGHEST"}},
      {"transpose", {"TRANSPOSE_INVALID", "NO_TRANSPOSE", "TRANSPOSE", "ADJOINT"}},
      {"rng_algorithm", {"DEFAULT", "THREE_FRY", "PHILOX"}},
      {"rng_distribution", {"UNIFORM", "NORMAL"}},
      {"fft_type", {"FFT", "IFFT", "RFFT", "IRFFT"}},
      {"custom_call_api_version",
       {"API_VERSION_UNSPECIFIED", "API_VERSION_ORIGINAL", "API_VERSION_STATUS_RETURNING",
        "API_VERSION_STATUS_RETURNING_UNIFIED", "API_VERSION_TYPED_FFI"}},
      {"result_accuracy_mode", {"DEFAULT", "HIGHEST", "TOLERANCE"}},
      {"comparison_type_chlo", {}},
  };
  static const std::vector<std::string> kNone;
  auto it = kEnums.find(enum_name);
  return it == kEnums.end() ? kNone : it->second;
}

int DenseElementBytes(ElementType t) { return StorageBytes(t); }

}  // namespace hlograph::ir
