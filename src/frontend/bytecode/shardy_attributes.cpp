// Shardy's attribute encodings (its dialect's bytecode: a varint code, then
// the fields), for the Shardy ops and shardings JAX leaves in artifacts:
// meshes always, and shardings, sharding constraints and manual
// computations when it serializes Shardy alongside VHLO. Each becomes the
// text Shardy prints, which op conversion reads with the text front end.
#include "frontend/bytecode/attr_type_table.h"
#include "ir/printing_utils.h"

namespace hlograph::frontend::bytecode {
namespace {

// Parts of attributes, meaningful only inside the attribute that holds them.
constexpr const char* kMeshAxisPart = "sdy mesh axis";
constexpr const char* kAxisRefPart = "sdy axis reference";
constexpr const char* kSubAxisPart = "sdy sub-axis";
constexpr const char* kDimShardingPart = "sdy dimension sharding";
constexpr const char* kAxisListPart = "sdy axis list";
constexpr const char* kDimMappingPart = "sdy dimension mapping";
constexpr const char* kTensorMappingPart = "sdy tensor mapping";

enum SdyAttrCode : uint64_t {
  kManualAxes = 0,
  kMeshAxis = 1,
  kMesh = 2,
  kSubAxisInfo = 3,
  kAxisRef = 4,
  kDimensionSharding = 5,
  kTensorShardingV1 = 6,
  kTensorShardingPerValueV1 = 7,
  kDimMapping = 8,
  kTensorMapping = 9,
  kOpShardingRule = 10,
  kAxisRefList = 11,
  kListOfAxisRefLists = 12,
  kTensorShardingV2 = 15,
  kTensorShardingPerValueV2 = 16,
  kTensorShardingV3 = 17,
};

// A list of attribute references, each checked to be `part` (or, with a
// null `part`, a string), joined by ", ".
Status ReadParts(AttrTypeTable& table, ByteReader& r, const char* part, const char* what, std::string& out,
                 std::vector<AttrPtr>* attrs = nullptr) {
  uint64_t count = 0;
  HLOGRAPH_TRY(table.ReadCount(r, count, std::string("the number of ") + what));
  out.clear();
  for (uint64_t i = 0; i < count; ++i) {
    AttrPtr a;
    size_t at = r.offset();
    HLOGRAPH_TRY(table.ReadAttr(r, a, what));
    bool ok = part ? a->kind == DecodedAttr::Kind::kOpaque && a->enum_name == part : a->kind == DecodedAttr::Kind::kString;
    if (!ok) return r.ErrorAt(at, std::string(what) + " of the sdy dialect");
    out += (i ? ", " : "") + (part ? a->text : ir::QuoteString(a->text));
    if (attrs) attrs->push_back(a);
  }
  return Status::Ok();
}

Status ReadSignedInts(ByteReader& r, AttrTypeTable& table, const char* what, std::string& out) {
  uint64_t count = 0;
  HLOGRAPH_TRY(table.ReadCount(r, count, std::string("the number of ") + what));
  out.clear();
  for (uint64_t i = 0; i < count; ++i) {
    int64_t v = 0;
    HLOGRAPH_TRY(r.ReadSignedVarInt(v, what));
    out += (i ? ", " : "") + std::to_string(v);
  }
  return Status::Ok();
}

// Factors print as i, j, ..., z, then z_1, z_2, ...
std::string FactorName(int64_t factor) {
  constexpr int64_t kLetters = 'z' - 'i' + 1;
  if (factor >= 0 && factor < kLetters) return std::string(1, static_cast<char>('i' + factor));
  return "z_" + std::to_string(factor - kLetters + 1);
}

Status ReadFactorList(ByteReader& r, AttrTypeTable& table, const char* what, std::vector<int64_t>& out) {
  uint64_t count = 0;
  HLOGRAPH_TRY(table.ReadCount(r, count, std::string("the number of ") + what));
  out.resize(static_cast<size_t>(count));
  for (int64_t& v : out) HLOGRAPH_TRY(r.ReadSignedVarInt(v, what));
  return Status::Ok();
}

std::string FactorSet(const std::vector<int64_t>& factors) {
  std::string out;
  for (size_t i = 0; i < factors.size(); ++i) out += (i ? ", " : "") + FactorName(factors[i]);
  return "{" + out + "}";
}

// ([i, j], [k])->([l]) {i=4, ...}, reduction={k}, custom: an op sharding rule.
Status ReadOpShardingRule(AttrTypeTable& table, ByteReader& r, std::string& text) {
  std::vector<int64_t> sizes, reduction, need_replication, permutation, blocked;
  std::string operands, results;
  HLOGRAPH_TRY(ReadFactorList(r, table, "factor sizes", sizes));
  HLOGRAPH_TRY(ReadParts(table, r, kTensorMappingPart, "operand mappings", operands));
  HLOGRAPH_TRY(ReadParts(table, r, kTensorMappingPart, "result mappings", results));
  HLOGRAPH_TRY(ReadFactorList(r, table, "reduction factors", reduction));
  HLOGRAPH_TRY(ReadFactorList(r, table, "need-replication factors", need_replication));
  HLOGRAPH_TRY(ReadFactorList(r, table, "permutation factors", permutation));
  HLOGRAPH_TRY(ReadFactorList(r, table, "blocked-propagation factors", blocked));
  uint8_t custom = 0;
  HLOGRAPH_TRY(r.ReadByte(custom, "whether a sharding rule is custom"));
  text = "#sdy.op_sharding_rule<(" + operands + ")->(" + results + ") {";
  for (size_t i = 0; i < sizes.size(); ++i) {
    text += (i ? ", " : "") + FactorName(static_cast<int64_t>(i)) + "=" + std::to_string(sizes[i]);
  }
  text += "}";
  if (!reduction.empty()) text += ", reduction=" + FactorSet(reduction);
  if (!need_replication.empty()) text += ", need_replication=" + FactorSet(need_replication);
  if (!permutation.empty()) text += ", permutation=" + FactorSet(permutation);
  if (!blocked.empty()) text += ", blocked_propagation=" + FactorSet(blocked);
  if (custom) text += ", custom";
  text += ">";
  return Status::Ok();
}

// <@mesh, [{"x"}, {}], replicated={"y"}>: the body of #sdy.sharding.
Status ReadTensorSharding(AttrTypeTable& table, ByteReader& r, uint64_t code, std::string& body) {
  AttrPtr mesh;
  size_t at = r.offset();
  HLOGRAPH_TRY(table.ReadAttr(r, mesh, "a sharding's mesh"));
  std::string mesh_text;
  if (mesh->kind == DecodedAttr::Kind::kSymbolRef) {
    mesh_text = '@';  // appended: GCC 12 -O3 warns falsely (-Wrestrict) on "literal" + a temporary string
    mesh_text += ir::SymbolName(mesh->text);
  } else if (mesh->kind == DecodedAttr::Kind::kOpaque && mesh->text.starts_with("#sdy.mesh<")) {
    mesh_text = mesh->text.substr(5);  // an inline mesh prints as mesh<...>
  } else {
    return r.ErrorAt(at, "a sharding's mesh, by name or inline");
  }
  std::string dims, replicated, unreduced;
  HLOGRAPH_TRY(ReadParts(table, r, kDimShardingPart, "dimension shardings", dims));
  HLOGRAPH_TRY(ReadParts(table, r, kAxisRefPart, "replicated axes", replicated));
  int64_t reduction = 0;
  if (code == kTensorShardingV2 || code == kTensorShardingV3) {
    HLOGRAPH_TRY(ReadParts(table, r, kAxisRefPart, "unreduced axes", unreduced));
  }
  if (code == kTensorShardingV3) {
    HLOGRAPH_TRY(r.ReadSignedVarInt(reduction, "a reduction"));
    return r.Error("unreduced axes with a sum (hlograph knows no other reduction), found reduction " +
                   std::to_string(reduction));
  }
  body = "<" + mesh_text + ", [" + dims + "]";
  if (!replicated.empty()) body += ", replicated={" + replicated + "}";
  if (!unreduced.empty()) body += ", unreduced={" + unreduced + "}";
  body += ">";
  return Status::Ok();
}

}  // namespace

Status DecodeShardyAttr(AttrTypeTable& table, ByteReader& r, AttrPtr& out) {
  size_t at = r.offset();
  uint64_t code = 0;
  HLOGRAPH_TRY(r.ReadVarInt(code, "a Shardy attribute code"));
  auto attr = std::make_shared<DecodedAttr>();
  attr->kind = DecodedAttr::Kind::kOpaque;
  std::string& text = attr->text;
  switch (code) {
    case kManualAxes: {
      std::string axes;
      HLOGRAPH_TRY(ReadParts(table, r, nullptr, "manual axes", axes));
      text = "#sdy<manual_axes{" + axes + "}>";
      break;
    }
    case kMeshAxis: {
      std::string name;
      int64_t size = 0;
      HLOGRAPH_TRY(table.ReadString(r, name, "a mesh axis name"));
      HLOGRAPH_TRY(r.ReadSignedVarInt(size, "a mesh axis size"));
      text = ir::QuoteString(name) + "=" + std::to_string(size);
      attr->enum_name = kMeshAxisPart;
      break;
    }
    case kMesh: {
      std::string axes, ids;
      HLOGRAPH_TRY(ReadParts(table, r, kMeshAxisPart, "mesh axes", axes));
      HLOGRAPH_TRY(ReadSignedInts(r, table, "device ids", ids));
      text = "#sdy.mesh<[" + axes + "]" + (ids.empty() ? std::string() : ", device_ids=[" + ids + "]") + ">";
      break;
    }
    case kSubAxisInfo: {
      int64_t pre_size = 0, size = 0;
      HLOGRAPH_TRY(r.ReadSignedVarInt(pre_size, "a sub-axis pre-size"));
      HLOGRAPH_TRY(r.ReadSignedVarInt(size, "a sub-axis size"));
      text = ":(" + std::to_string(pre_size) + ")" + std::to_string(size);
      attr->enum_name = kSubAxisPart;
      break;
    }
    case kAxisRef: {
      std::string name;
      uint64_t sub_axis = 0;
      bool has_sub_axis = false;
      HLOGRAPH_TRY(table.ReadString(r, name, "an axis name"));
      HLOGRAPH_TRY(r.ReadVarIntWithFlag(sub_axis, has_sub_axis, "an axis's sub-axis"));
      text = ir::QuoteString(name);
      if (has_sub_axis) {
        HLOGRAPH_ASSIGN(AttrPtr sub, table.Attr(sub_axis));
        if (sub->enum_name != kSubAxisPart) return r.ErrorAt(at, "a sub-axis of the sdy dialect");
        text += sub->text;
      }
      attr->enum_name = kAxisRefPart;
      break;
    }
    case kDimensionSharding: {
      std::string axes;
      uint8_t closed = 0;
      uint64_t priority = 0;
      bool has_priority = false;
      HLOGRAPH_TRY(ReadParts(table, r, kAxisRefPart, "sharded axes", axes));
      HLOGRAPH_TRY(r.ReadByte(closed, "whether a dimension sharding is closed"));
      HLOGRAPH_TRY(r.ReadVarIntWithFlag(priority, has_priority, "a dimension sharding's priority"));
      text = "{" + axes + (closed ? "" : axes.empty() ? "?" : ", ?") + "}";
      if (has_priority) text += "p" + std::to_string(priority);
      attr->enum_name = kDimShardingPart;
      break;
    }
    case kTensorShardingV1:
    case kTensorShardingV2:
    case kTensorShardingV3: {
      std::string body;
      HLOGRAPH_TRY(ReadTensorSharding(table, r, code, body));
      text = "#sdy.sharding" + body;
      break;
    }
    case kTensorShardingPerValueV1:
    case kTensorShardingPerValueV2: {
      uint64_t count = 0;
      HLOGRAPH_TRY(table.ReadCount(r, count, "the number of shardings"));
      std::string shardings;
      for (uint64_t i = 0; i < count; ++i) {
        AttrPtr s;
        size_t s_at = r.offset();
        HLOGRAPH_TRY(table.ReadAttr(r, s, "a sharding"));
        if (s->kind != DecodedAttr::Kind::kOpaque || !s->text.starts_with("#sdy.sharding<")) {
          return r.ErrorAt(s_at, "a sharding of the sdy dialect");
        }
        shardings += (i ? ", " : "") + s->text.substr(13);  // without "#sdy.sharding"
      }
      text = "#sdy.sharding_per_value<[" + shardings + "]>";
      break;
    }
    case kDimMapping: {  // the factors of one dimension, their names run together
      std::vector<int64_t> factors;
      HLOGRAPH_TRY(ReadFactorList(r, table, "dimension factors", factors));
      for (int64_t f : factors) text += FactorName(f);
      attr->enum_name = kDimMappingPart;
      break;
    }
    case kTensorMapping: {
      std::string dims;
      HLOGRAPH_TRY(ReadParts(table, r, kDimMappingPart, "dimension mappings", dims));
      text = "[" + dims + "]";
      attr->enum_name = kTensorMappingPart;
      break;
    }
    case kOpShardingRule:
      HLOGRAPH_TRY(ReadOpShardingRule(table, r, text));
      break;
    case kAxisRefList: {
      std::string axes;
      HLOGRAPH_TRY(ReadParts(table, r, kAxisRefPart, "axes", axes));
      text = "{" + axes + "}";
      attr->enum_name = kAxisListPart;
      break;
    }
    case kListOfAxisRefLists: {
      std::string lists;
      HLOGRAPH_TRY(ReadParts(table, r, kAxisListPart, "axis lists", lists));
      text = "#sdy<list_of_axis_ref_lists[" + lists + "]>";
      break;
    }
    default:
      return r.ErrorAt(at, "a Shardy attribute hlograph knows (meshes, shardings, manual axes, sharding rules), found code " +
                               std::to_string(code));
  }
  out = std::move(attr);
  return Status::Ok();
}

}  // namespace hlograph::frontend::bytecode
