// Shardy's attribute encodings, for the sdy.mesh ops JAX leaves in the
// artifacts of sharded programs (the rest of Shardy it exports as custom
// calls and frontend attributes). Kept as the text Shardy prints.
#include "frontend/bytecode/attr_type_table.h"
#include "ir/printing_utils.h"

namespace hlograph::frontend::bytecode {
namespace {

constexpr const char* kMeshAxisMark = "sdy.mesh_axis";

enum SdyAttrCode : uint64_t {
  kMeshAxis = 1,  // name: string, size: svarint
  kMesh = 2,      // axes: attribute[], device_ids: svarint[]
};

}  // namespace

Status DecodeShardyAttr(AttrTypeTable& table, ByteReader& r, AttrPtr& out) {
  size_t at = r.offset();
  uint64_t code = 0;
  HLOGRAPH_TRY(r.ReadVarInt(code, "a Shardy attribute code"));
  auto attr = std::make_shared<DecodedAttr>();
  attr->kind = DecodedAttr::Kind::kOpaque;
  switch (code) {
    case kMeshAxis: {
      std::string name;
      int64_t size = 0;
      HLOGRAPH_TRY(table.ReadString(r, name, "a mesh axis name"));
      HLOGRAPH_TRY(r.ReadSignedVarInt(size, "a mesh axis size"));
      attr->text = ir::QuoteString(name) + "=" + std::to_string(size);
      attr->enum_name = kMeshAxisMark;  // only meaningful inside a mesh
      break;
    }
    case kMesh: {
      uint64_t count = 0;
      HLOGRAPH_TRY(table.ReadCount(r, count, "the number of mesh axes"));
      std::string axes;
      for (uint64_t i = 0; i < count; ++i) {
        AttrPtr axis;
        size_t axis_at = r.offset();
        HLOGRAPH_TRY(table.ReadAttr(r, axis, "a mesh axis"));
        if (axis->kind != DecodedAttr::Kind::kOpaque || axis->enum_name != kMeshAxisMark) {
          return r.ErrorAt(axis_at, "a mesh axis of the sdy dialect");
        }
        axes += (i ? ", " : "") + axis->text;
      }
      uint64_t num_ids = 0;
      HLOGRAPH_TRY(table.ReadCount(r, num_ids, "the number of device ids"));
      std::string ids;
      for (uint64_t i = 0; i < num_ids; ++i) {
        int64_t id = 0;
        HLOGRAPH_TRY(r.ReadSignedVarInt(id, "a device id"));
        ids += (i ? ", " : "") + std::to_string(id);
      }
      attr->text = "#sdy.mesh<[" + axes + "]" + (num_ids ? ", device_ids=[" + ids + "]" : std::string()) + ">";
      break;
    }
    default:
      return r.ErrorAt(at, "a Shardy attribute hlograph knows (mesh, mesh axis), found code " + std::to_string(code));
  }
  out = std::move(attr);
  return Status::Ok();
}

}  // namespace hlograph::frontend::bytecode
