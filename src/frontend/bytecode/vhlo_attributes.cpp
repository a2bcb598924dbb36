// VHLO's attribute encodings: a varint code, then the attribute's fields.
#include <array>

#include "frontend/bytecode/attr_type_table.h"
#include "ir/printing_utils.h"

namespace hlograph::frontend::bytecode {
namespace {

enum AttrCode : uint64_t {
  kArray = 1,
  kBoolean = 2,
  kComparisonDirection = 3,
  kComparisonType = 4,
  kCustomCallApiVersion = 5,
  kDictionary = 6,
  kFftType = 7,
  kFloat = 8,
  kInteger = 9,
  kOutputOperandAlias = 10,
  kPrecision = 11,
  kRngAlgorithm = 12,
  kRngDistribution = 13,
  kString = 14,
  kTensor = 15,
  kTranspose = 16,
  kType = 17,
  kTypeExtensions = 18,
  kResultAccuracyMode = 19,
  kResultAccuracy = 20,
  kSubAxisInfo = 21,
  kAxisRef = 22,
  kReplicaGroupMeshAxes = 23,
  kMeshAxis = 24,
  kMesh = 25,
};

struct EnumSpec {
  const char* name;  // hlograph's enum name ("" for custom_call's api_version, an integer there)
  std::vector<const char*> values;
  int first = 0;     // the code of values[0]
};

const EnumSpec* EnumOfCode(uint64_t code) {
  static const EnumSpec direction{"comparison_direction", {"EQ", "NE", "GE", "GT", "LE", "LT"}};
  static const EnumSpec compare_type{"comparison_type", {"NOTYPE", "FLOAT", "TOTALORDER", "SIGNED", "UNSIGNED"}};
  static const EnumSpec api_version{"", {"0", "1", "2", "3", "4"}};
  static const EnumSpec fft{"fft_type", {"FFT", "IFFT", "RFFT", "IRFFT"}};
  static const EnumSpec precision{"precision", {"DEFAULT", "HIGH", "HIGHEST"}};
  static const EnumSpec rng_algorithm{"rng_algorithm", {"DEFAULT", "THREE_FRY", "PHILOX"}};
  static const EnumSpec rng_distribution{"rng_distribution", {"UNIFORM", "NORMAL"}, 1};
  static const EnumSpec transpose{"transpose", {"TRANSPOSE_INVALID", "NO_TRANSPOSE", "TRANSPOSE", "ADJOINT"}};
  static const EnumSpec accuracy_mode{"result_accuracy_mode", {"DEFAULT", "HIGHEST", "TOLERANCE"}};
  switch (code) {
    case kComparisonDirection: return &direction;
    case kComparisonType: return &compare_type;
    case kCustomCallApiVersion: return &api_version;
    case kFftType: return &fft;
    case kPrecision: return &precision;
    case kRngAlgorithm: return &rng_algorithm;
    case kRngDistribution: return &rng_distribution;
    case kTranspose: return &transpose;
    case kResultAccuracyMode: return &accuracy_mode;
    default: return nullptr;
  }
}

int FloatBits(ir::ElementType t) { return ir::BitWidth(t); }

int IntegerBits(ir::ElementType t) {
  if (t == ir::ElementType::kIndex) return 64;
  return ir::BitWidth(t);
}

// The value of `bits` as an int64: sign-extended for signed types, zero-extended otherwise.
int64_t Extend(uint64_t bits, ir::ElementType t) {
  int width = IntegerBits(t);
  if (width >= 64 || !ir::IsSignedInteger(t)) return static_cast<int64_t>(bits);
  uint64_t sign = uint64_t{1} << (width - 1);
  return static_cast<int64_t>((bits ^ sign) - sign);
}

// The text of a decoded attribute nested in a mesh attribute.
std::string MeshPartText(const DecodedAttr& a) {
  switch (a.kind) {
    case DecodedAttr::Kind::kString: return ir::QuoteString(a.text);
    case DecodedAttr::Kind::kOpaque: return a.text;
    case DecodedAttr::Kind::kInteger: return std::to_string(a.integer);
    case DecodedAttr::Kind::kArray: {
      std::string out = "[";
      for (size_t i = 0; i < a.elements.size(); ++i) out += (i ? ", " : "") + MeshPartText(*a.elements[i]);
      return out + "]";
    }
    default: return "?";
  }
}

// An attribute reference that may be absent: (index << 1) | present.
Status ReadOptionalAttr(AttrTypeTable& table, ByteReader& r, AttrPtr& out, std::string_view what) {
  uint64_t index = 0;
  bool present = false;
  HLOGRAPH_TRY(r.ReadVarIntWithFlag(index, present, what));
  if (!present) return Status::Ok();
  HLOGRAPH_ASSIGN(out, table.Attr(index));
  return Status::Ok();
}

Status ReadSignedList(AttrTypeTable& table, ByteReader& r, std::vector<int64_t>& out, std::string_view what) {
  uint64_t count = 0;
  HLOGRAPH_TRY(table.ReadCount(r, count, std::string("the number of ") + std::string(what)));
  out.resize(static_cast<size_t>(count));
  for (int64_t& v : out) HLOGRAPH_TRY(r.ReadSignedVarInt(v, what));
  return Status::Ok();
}

}  // namespace

Status DecodeVhloAttr(AttrTypeTable& table, ByteReader& r, AttrPtr& out) {
  using Kind = DecodedAttr::Kind;
  size_t at = r.offset();
  uint64_t code = 0;
  HLOGRAPH_TRY(r.ReadVarInt(code, "a VHLO attribute code"));
  auto attr = std::make_shared<DecodedAttr>();
  if (const EnumSpec* spec = EnumOfCode(code)) {
    uint64_t value = 0;
    HLOGRAPH_TRY(r.ReadVarInt(value, std::string("a value of the enum ") + spec->name));
    if (value < static_cast<uint64_t>(spec->first) || value - spec->first >= spec->values.size()) {
      return r.ErrorAt(at, std::string("a value of the enum ") + spec->name + ", found " + std::to_string(value));
    }
    attr->kind = Kind::kEnum;
    attr->enum_name = spec->name;
    attr->text = spec->values[static_cast<size_t>(value) - static_cast<size_t>(spec->first)];
    out = std::move(attr);
    return Status::Ok();
  }
  switch (code) {
    case kArray: {
      attr->kind = Kind::kArray;
      uint64_t count = 0;
      HLOGRAPH_TRY(table.ReadCount(r, count, "the number of array elements"));
      attr->elements.resize(static_cast<size_t>(count));
      for (AttrPtr& e : attr->elements) HLOGRAPH_TRY(table.ReadAttr(r, e, "an array element"));
      break;
    }
    case kBoolean: {
      attr->kind = Kind::kBool;
      uint64_t value = 0;
      HLOGRAPH_TRY(r.ReadVarInt(value, "a boolean"));
      attr->value = value != 0;
      break;
    }
    case kDictionary: {
      HLOGRAPH_TRY(table.ReadDictionary(r, *attr));
      break;
    }
    case kFloat: {
      attr->kind = Kind::kFloat;
      HLOGRAPH_TRY(table.ReadType(r, attr->type, "the type of a float"));
      if (attr->type->kind != DecodedType::Kind::kElement || !ir::IsFloat(attr->type->element)) {
        return r.ErrorAt(at, "a float attribute of a float type");
      }
      uint64_t bits = 0;
      HLOGRAPH_TRY(ReadApInt(r, FloatBits(attr->type->element), bits, "the bits of a float"));
      attr->integer = static_cast<int64_t>(bits);
      break;
    }
    case kInteger: {
      attr->kind = Kind::kInteger;
      HLOGRAPH_TRY(table.ReadType(r, attr->type, "the type of an integer"));
      ir::ElementType t = attr->type->element;
      if (attr->type->kind != DecodedType::Kind::kElement ||
          !(ir::IsInteger(t) || ir::IsBool(t) || t == ir::ElementType::kIndex)) {
        return r.ErrorAt(at, "an integer attribute of an integer type");
      }
      uint64_t bits = 0;
      HLOGRAPH_TRY(ReadApInt(r, IntegerBits(t), bits, "an integer value"));
      attr->integer = Extend(bits, t);
      break;
    }
    case kOutputOperandAlias: {
      attr->kind = Kind::kOutputOperandAlias;
      attr->ints.resize(3);
      int64_t operand = 0;
      HLOGRAPH_TRY(ReadSignedList(table, r, attr->ints[0], "output tuple indices"));
      HLOGRAPH_TRY(r.ReadSignedVarInt(operand, "an operand index"));
      HLOGRAPH_TRY(ReadSignedList(table, r, attr->ints[2], "operand tuple indices"));
      attr->ints[1] = {operand};
      break;
    }
    case kString: {
      attr->kind = Kind::kString;
      HLOGRAPH_TRY(table.ReadString(r, attr->text, "a string"));
      break;
    }
    case kTensor: {
      attr->kind = Kind::kTensor;
      HLOGRAPH_TRY(table.ReadType(r, attr->type, "the type of a tensor attribute"));
      if (attr->type->kind != DecodedType::Kind::kTensor) return r.ErrorAt(at, "a tensor attribute of a tensor type");
      uint64_t size = 0;
      Bytes data;
      HLOGRAPH_TRY(r.ReadVarInt(size, "the size of tensor data"));
      HLOGRAPH_TRY(r.ReadBytes(static_cast<size_t>(size), data, "tensor data"));
      attr->bytes.assign(data.begin(), data.end());
      break;
    }
    case kType: {
      attr->kind = Kind::kType;
      HLOGRAPH_TRY(table.ReadType(r, attr->type, "the type of a type attribute"));
      break;
    }
    case kTypeExtensions: {
      attr->kind = Kind::kOpaque;
      std::vector<int64_t> bounds;
      HLOGRAPH_TRY(ReadSignedList(table, r, bounds, "type extension bounds"));
      attr->text = "#stablehlo.bounds";
      attr->enum_name = "stablehlo.bounds";  // a tensor type's encoding, refused there
      break;
    }
    case kResultAccuracy: {
      attr->kind = Kind::kResultAccuracy;
      int64_t ulps = 0;
      AttrPtr mode;
      HLOGRAPH_TRY(ReadApInt(r, 64, attr->atol_bits, "the atol of a result accuracy"));
      HLOGRAPH_TRY(ReadApInt(r, 64, attr->rtol_bits, "the rtol of a result accuracy"));
      HLOGRAPH_TRY(r.ReadSignedVarInt(ulps, "the ulps of a result accuracy"));
      HLOGRAPH_TRY(table.ReadAttr(r, mode, "the mode of a result accuracy"));
      if (mode->kind != Kind::kEnum || mode->enum_name != "result_accuracy_mode") {
        return r.ErrorAt(at, "a result accuracy whose mode is a result_accuracy_mode");
      }
      attr->integer = ulps;
      attr->text = mode->text;
      break;
    }
    // Mesh axes of collectives over a Shardy mesh, kept as StableHLO spells them.
    case kSubAxisInfo: {
      int64_t pre_size = 0, size = 0;
      HLOGRAPH_TRY(r.ReadSignedVarInt(pre_size, "a sub-axis pre-size"));
      HLOGRAPH_TRY(r.ReadSignedVarInt(size, "a sub-axis size"));
      attr->kind = Kind::kOpaque;
      attr->text = "#stablehlo.sub_axis_info<pre_size = " + std::to_string(pre_size) + ", size = " +
                   std::to_string(size) + ">";
      break;
    }
    case kAxisRef: {
      AttrPtr name, sub_axis;
      HLOGRAPH_TRY(table.ReadAttr(r, name, "an axis name"));
      HLOGRAPH_TRY(ReadOptionalAttr(table, r, sub_axis, "an axis's sub-axis"));
      attr->kind = Kind::kOpaque;
      attr->text = "#stablehlo.axis_ref<name = " + MeshPartText(*name) +
                   (sub_axis ? ", sub_axis_info = " + MeshPartText(*sub_axis) : std::string()) + ">";
      break;
    }
    case kReplicaGroupMeshAxes: {
      AttrPtr mesh, axes;
      HLOGRAPH_TRY(table.ReadAttr(r, mesh, "a mesh name"));
      HLOGRAPH_TRY(table.ReadAttr(r, axes, "mesh axes"));
      if (mesh->kind != Kind::kString) return r.ErrorAt(at, "a mesh named by a string");
      attr->kind = Kind::kOpaque;
      attr->text = "#stablehlo.replica_group_mesh_axes<mesh = @" + mesh->text + ", axes = " + MeshPartText(*axes) + ">";
      break;
    }
    case kMeshAxis: {
      AttrPtr name;
      int64_t size = 0;
      HLOGRAPH_TRY(table.ReadAttr(r, name, "a mesh axis name"));
      HLOGRAPH_TRY(r.ReadSignedVarInt(size, "a mesh axis size"));
      attr->kind = Kind::kOpaque;
      attr->text = "#stablehlo.mesh_axis<name = " + MeshPartText(*name) + ", size = " + std::to_string(size) + ">";
      break;
    }
    case kMesh: {
      AttrPtr axes, device_ids;
      HLOGRAPH_TRY(table.ReadAttr(r, axes, "mesh axes"));
      HLOGRAPH_TRY(ReadOptionalAttr(table, r, device_ids, "mesh device ids"));
      attr->kind = Kind::kOpaque;
      attr->text = "#stablehlo.mesh<axes = " + MeshPartText(*axes) +
                   (device_ids ? ", device_ids = " + MeshPartText(*device_ids) : std::string()) + ">";
      break;
    }
    default:
      return r.ErrorAt(at, "a known VHLO attribute code, found " + std::to_string(code));
  }
  out = std::move(attr);
  return Status::Ok();
}

}  // namespace hlograph::frontend::bytecode
