#include "frontend/bytecode/ir_reader.h"

#include "frontend/bytecode/shardy_ops.h"
#include "frontend/bytecode/vhlo_ops.h"
#include "frontend/bytecode/vhlo_to_stablehlo.h"

namespace hlograph::frontend::bytecode {
namespace {

// Bits of an op's encoding mask.
enum OpMask : uint8_t {
  kHasAttrs = 0x01,
  kHasResults = 0x02,
  kHasOperands = 0x04,
  kHasSuccessors = 0x08,
  kHasInlineRegions = 0x10,
  kHasUseListOrders = 0x20,
  kHasProperties = 0x40,
};

constexpr int kMaxRegionDepth = 200;

// Values are numbered per isolated-from-above region; each region reserves
// the numbers of the values it defines, after those of its parents.
struct ValueScope {
  std::vector<ir::Value*> values;
  std::vector<size_t> next;  // next number to define, per open region
  std::vector<size_t> end;   // end of each open region's numbers
};

class IrReader {
 public:
  IrReader(const Container& c, AttrTypeTable& table, std::shared_ptr<const std::string> file)
      : c_(c), table_(table), file_(std::move(file)) {}

  StatusOr<std::unique_ptr<ir::Module>> Read() {
    ByteReader r(c_.ir, c_.ir_offset, "IR section");
    // The top-level block: a header, then ops (a portable artifact holds one module).
    auto holder = ir::NewModuleOp(ir::SourcePos{file_, 0, 0});
    Block& top = holder->region(0).front();
    scopes_.emplace_back();
    HLOGRAPH_TRY(ReadBlock(r, top, /*num_values=*/0, "", 0));
    if (!r.empty()) return r.Error("the end of the IR section");
    if (top.operations().size() != 1 || top.operations()[0]->id() != ir::OpId::kModule) {
      return r.ErrorAt(c_.ir_offset, "one builtin.module op at the top level, found " +
                                         std::to_string(top.operations().size()) + " ops");
    }
    std::unique_ptr<ir::Operation> module_op = top.Remove(top.operations()[0].get());
    module_op->set_parent_block(nullptr);
    return std::make_unique<ir::Module>(std::move(module_op));
  }

 private:
  using Block = ir::Block;

  // A location attribute as the IR keeps it; null for anything else.
  static ir::LocationPtr Location(const AttrPtr& attr) {
    if (!attr || attr->kind != DecodedAttr::Kind::kLocation) return nullptr;
    return attr->location;
  }

  Status DefineValue(ByteReader& r, ir::Value* v) {
    ValueScope& scope = scopes_.back();
    if (scope.next.empty() || scope.next.back() >= scope.end.back()) {
      return r.Error("no more values than the region declared");
    }
    scope.values[scope.next.back()++] = v;
    return Status::Ok();
  }

  Status ReadOperand(ByteReader& r, ir::Value*& out) {
    uint64_t index = 0;
    size_t at = r.offset();
    HLOGRAPH_TRY(r.ReadVarInt(index, "an operand's value number"));
    const ValueScope& scope = scopes_.back();
    if (index >= scope.values.size() || scope.values[static_cast<size_t>(index)] == nullptr) {
      return r.ErrorAt(at, "the number of a value defined before its use, found " + std::to_string(index));
    }
    out = scope.values[static_cast<size_t>(index)];
    return Status::Ok();
  }

  // Use-list orders only say how MLIR ordered a value's uses; hlograph keeps
  // no use lists, so they are read and dropped.
  Status SkipUseLists(ByteReader& r, uint64_t range_size) {
    uint64_t num_values = 1;
    if (range_size > 1) HLOGRAPH_TRY(table_.ReadCount(r, num_values, "the number of use-list orders"));
    for (uint64_t i = 0; i < num_values; ++i) {
      uint64_t index = 0, count = 0;
      bool pairs = false;
      if (range_size > 1) HLOGRAPH_TRY(r.ReadVarInt(index, "a use-list value index"));
      HLOGRAPH_TRY(r.ReadVarIntWithFlag(count, pairs, "a use-list length"));
      if (count > r.remaining()) return r.Error("a use-list no longer than the bytes left");
      for (uint64_t k = 0; k < count; ++k) HLOGRAPH_TRY(r.ReadVarInt(index, "a use-list entry"));
    }
    return Status::Ok();
  }

  Status ReadBlockArguments(ByteReader& r, Block& block) {
    uint64_t count = 0;
    HLOGRAPH_TRY(table_.ReadCount(r, count, "the number of block arguments"));
    for (uint64_t i = 0; i < count; ++i) {
      TypePtr type;
      AttrPtr loc;
      size_t at = r.offset();
      if (c_.version >= kVersionElideUnknownBlockArgLocation) {
        uint64_t type_index = 0;
        bool has_loc = false;
        HLOGRAPH_TRY(r.ReadVarIntWithFlag(type_index, has_loc, "a block argument's type"));
        HLOGRAPH_ASSIGN(type, table_.Type(type_index));
        if (has_loc) HLOGRAPH_TRY(table_.ReadAttr(r, loc, "a block argument's location"));
      } else {
        HLOGRAPH_TRY(table_.ReadType(r, type, "a block argument's type"));
        HLOGRAPH_TRY(table_.ReadAttr(r, loc, "a block argument's location"));
      }
      ir::Type ir_type;
      if (!ToIrType(*type, ir_type)) return r.ErrorAt(at, "a block argument of a tensor, token or tuple type");
      HLOGRAPH_TRY(DefineValue(r, block.AddArgument(ir_type)));
      // An argument stored without a location has MLIR's unknown location.
      block.argument_locs().back() = loc ? Location(loc) : std::make_shared<const ir::Location>();
    }
    return Status::Ok();
  }

  // A block: header (op count, arguments), then its ops.
  Status ReadBlock(ByteReader& r, Block& block, uint64_t num_values, const std::string& parent, int depth) {
    uint64_t num_ops = 0;
    bool has_args = false;
    HLOGRAPH_TRY(r.ReadVarIntWithFlag(num_ops, has_args, "a block header"));
    if (num_ops > r.remaining()) return r.Error("a block of no more ops than bytes left, found " + std::to_string(num_ops));
    if (has_args) HLOGRAPH_TRY(ReadBlockArguments(r, block));
    if (c_.version >= kVersionUseListOrdering && has_args) {
      uint8_t has_orders = 0;
      HLOGRAPH_TRY(r.ReadByte(has_orders, "whether block arguments have use-list orders"));
      if (has_orders) HLOGRAPH_TRY(SkipUseLists(r, block.num_arguments()));
    }
    for (uint64_t i = 0; i < num_ops; ++i) HLOGRAPH_TRY(ReadOp(r, block, num_values, parent, depth));
    return Status::Ok();
  }

  Status ReadRegion(ByteReader& r, ir::Region& region, const std::string& parent, int depth) {
    uint64_t num_blocks = 0;
    HLOGRAPH_TRY(r.ReadVarInt(num_blocks, "the number of blocks of a region"));
    if (num_blocks == 0) return Status::Ok();
    if (num_blocks != 1) return r.Error("regions of one block (StableHLO has no branches), found " + std::to_string(num_blocks));
    uint64_t num_values = 0;
    HLOGRAPH_TRY(r.ReadVarInt(num_values, "the number of values of a region"));
    if (num_values > r.remaining()) return r.Error("a region of no more values than bytes left");
    ValueScope& scope = scopes_.back();
    size_t start = scope.values.size();
    scope.values.resize(start + static_cast<size_t>(num_values), nullptr);
    scope.next.push_back(start);
    scope.end.push_back(start + static_cast<size_t>(num_values));
    Status s = ReadBlock(r, *region.AddBlock(), num_values, parent, depth);
    ValueScope& same_scope = scopes_.back();  // `scope` may have moved as nested scopes were pushed
    same_scope.next.pop_back();
    same_scope.end.pop_back();
    same_scope.values.resize(start);
    return s;
  }

  // An op's properties: the values of its attributes, by sorted name.
  Status ReadProperties(ByteReader& r, const std::string& op_name, bool registered,
                        std::vector<std::pair<std::string, AttrPtr>>& attrs) {
    size_t at = r.offset();
    if (!registered) {  // an unregistered op keeps its properties as one dictionary
      AttrPtr dict;
      HLOGRAPH_TRY(table_.ReadAttr(r, dict, "the properties of an op"));
      if (dict->kind != DecodedAttr::Kind::kDict) return r.ErrorAt(at, "properties that are a dictionary");
      for (size_t i = 0; i < dict->names.size(); ++i) attrs.emplace_back(dict->names[i], dict->elements[i]);
      return Status::Ok();
    }
    uint64_t index = 0;
    HLOGRAPH_TRY(r.ReadVarInt(index, "a properties index"));
    if (index >= c_.properties.size()) {
      return r.ErrorAt(at, "a properties index below " + std::to_string(c_.properties.size()) + ", found " +
                               std::to_string(index));
    }
    Bytes blob = c_.properties[static_cast<size_t>(index)];
    size_t blob_offset = static_cast<size_t>(blob.data() - c_.file.data());
    ByteReader p(blob, blob_offset, "properties #" + std::to_string(index) + " (" + op_name + ")");
    if (op_name == "builtin.module") {
      for (const char* name : {"sym_name", "sym_visibility"}) {
        uint64_t attr_index = 0;
        bool present = false;
        HLOGRAPH_TRY(p.ReadVarIntWithFlag(attr_index, present, std::string("the module's ") + name));
        if (!present) continue;
        HLOGRAPH_ASSIGN(AttrPtr value, table_.Attr(attr_index));
        attrs.emplace_back(name, std::move(value));
      }
    } else if (const auto* sdy = ShardyOpProperties(op_name)) {
      for (const auto& [name, optional] : *sdy) {
        if (optional) {
          uint64_t attr_index = 0;
          bool present = false;
          HLOGRAPH_TRY(p.ReadVarIntWithFlag(attr_index, present, "attribute '" + name + "'"));
          if (!present) continue;
          HLOGRAPH_ASSIGN(AttrPtr value, table_.Attr(attr_index));
          attrs.emplace_back(name, std::move(value));
          continue;
        }
        AttrPtr value;
        HLOGRAPH_TRY(table_.ReadAttr(p, value, "attribute '" + name + "'"));
        attrs.emplace_back(name, std::move(value));
      }
    } else {
      const std::vector<std::string>* names = VhloOpAttributeNames(op_name);
      if (names == nullptr) {
        return r.ErrorAt(at, "an op whose properties hlograph knows, found properties on " + op_name);
      }
      for (const std::string& name : *names) {
        AttrPtr value;
        HLOGRAPH_TRY(table_.ReadAttr(p, value, "attribute '" + name + "'"));
        attrs.emplace_back(name, std::move(value));
      }
    }
    if (!p.empty()) return p.Error("the end of the op's properties");
    return Status::Ok();
  }

  Status ReadOp(ByteReader& r, Block& block, uint64_t region_values, const std::string& parent, int depth) {
    size_t at = r.offset();
    uint64_t name_index = 0;
    HLOGRAPH_TRY(r.ReadVarInt(name_index, "an op name"));
    if (name_index >= c_.op_names.size()) {
      return r.ErrorAt(at, "an op name index below " + std::to_string(c_.op_names.size()) + ", found " +
                               std::to_string(name_index));
    }
    const std::string op_name = c_.OpName(static_cast<size_t>(name_index));
    const std::string where = "op " + op_name + " at byte " + std::to_string(at);
    uint8_t mask = 0;
    AttrPtr loc;
    HLOGRAPH_TRY(r.ReadByte(mask, "an op's encoding mask"));
    HLOGRAPH_TRY(table_.ReadAttr(r, loc, "an op's location"));

    VhloOp vhlo;
    vhlo.name = op_name;
    vhlo.parent = parent;
    if (mask & kHasAttrs) {
      AttrPtr dict;
      size_t dict_at = r.offset();
      HLOGRAPH_TRY(table_.ReadAttr(r, dict, "an op's attribute dictionary"));
      if (dict->kind != DecodedAttr::Kind::kDict) return r.ErrorAt(dict_at, "an attribute dictionary");
      for (size_t i = 0; i < dict->names.size(); ++i) vhlo.attrs.emplace_back(dict->names[i], dict->elements[i]);
    }
    if (mask & kHasProperties) {
      const auto& registered = c_.op_names[static_cast<size_t>(name_index)].registered;
      if (!registered) return r.Error("no properties before bytecode version 5");
      HLOGRAPH_TRY(ReadProperties(r, op_name, *registered, vhlo.attrs));
    }
    std::vector<ir::Type> result_types;
    if (mask & kHasResults) {
      uint64_t count = 0;
      HLOGRAPH_TRY(table_.ReadCount(r, count, "the number of results"));
      for (uint64_t i = 0; i < count; ++i) {
        TypePtr type;
        size_t type_at = r.offset();
        HLOGRAPH_TRY(table_.ReadType(r, type, "a result type"));
        ir::Type ir_type;
        if (!ToIrType(*type, ir_type)) return r.ErrorAt(type_at, "a result of a tensor, token or tuple type");
        result_types.push_back(ir_type);
      }
    }
    std::vector<ir::Value*> operands;
    if (mask & kHasOperands) {
      uint64_t count = 0;
      HLOGRAPH_TRY(table_.ReadCount(r, count, "the number of operands"));
      operands.resize(static_cast<size_t>(count));
      for (ir::Value*& v : operands) HLOGRAPH_TRY(ReadOperand(r, v));
    }
    if (mask & kHasSuccessors) return r.Error("ops without successors (StableHLO has no branches)");
    if (c_.version >= kVersionUseListOrdering && (mask & kHasUseListOrders)) {
      HLOGRAPH_TRY(SkipUseLists(r, result_types.size()));
    }
    uint64_t num_regions = 0;
    bool isolated = false;
    if (mask & kHasInlineRegions) {
      HLOGRAPH_TRY(r.ReadVarIntWithFlag(num_regions, isolated, "an op's region count"));
      if (num_regions > r.remaining()) return r.Error("no more regions than bytes left");
    }

    if (op_name == "builtin.unrealized_conversion_cast") {
      // Where Shardy ops and VHLO ops meet, casts between the builtin and the
      // VHLO spelling of one type; in hlograph IR they are the same value.
      if (operands.size() != 1 || result_types.size() != 1 || num_regions != 0 ||
          operands[0]->type() != result_types[0] || region_values == 0) {
        return r.ErrorAt(at, "a cast of one value to the same type");
      }
      return DefineValue(r, operands[0]);
    }
    HLOGRAPH_ASSIGN(ConvertedOp converted, ConvertVhloOp(vhlo, where));
    auto op = std::make_unique<ir::Operation>(converted.def, ir::SourcePos{file_, 0, 0});
    for (auto& [name, value] : converted.attrs) op->SetAttr(name, std::move(value));
    op->set_loc(Location(loc));
    for (ir::Value* v : operands) op->AddOperand(v);
    for (const ir::Type& t : result_types) op->AddResult(t);
    ir::Operation* raw = block.Append(std::move(op));
    if (region_values != 0) {
      for (const auto& result : raw->results()) HLOGRAPH_TRY(DefineValue(r, result.get()));
    } else if (!result_types.empty()) {
      return r.ErrorAt(at, "a region that numbers the values its ops define");
    }
    if (num_regions == 0) return Status::Ok();
    if (depth >= kMaxRegionDepth) return r.ErrorAt(at, "regions nested at most " + std::to_string(kMaxRegionDepth) + " deep");

    // An isolated op's regions are in a section of their own, with their own value numbering.
    ByteReader section(Bytes(), 0, "");
    ByteReader* regions_reader = &r;
    if (isolated && c_.version >= kVersionLazyLoading) {
      uint8_t id = 0;
      size_t section_at = r.offset();
      HLOGRAPH_TRY(r.ReadSection(id, section));
      if (id != kIrSection) return r.ErrorAt(section_at, "an IR section holding the regions of " + op_name);
      regions_reader = &section;
    }
    if (isolated) scopes_.emplace_back();  // popped below, whatever the regions hold
    Status s = Status::Ok();
    for (uint64_t i = 0; i < num_regions && s.ok(); ++i) {
      s = ReadRegion(*regions_reader, *raw->AddRegion(), raw->name(), depth + 1);
    }
    if (s.ok() && isolated && regions_reader != &r && !section.empty()) s = section.Error("the end of the region section");
    if (isolated) scopes_.pop_back();
    return s;
  }

  const Container& c_;
  AttrTypeTable& table_;
  std::shared_ptr<const std::string> file_;
  std::vector<ValueScope> scopes_;
};

}  // namespace

StatusOr<std::unique_ptr<ir::Module>> ReadIr(const Container& container, AttrTypeTable& table,
                                             std::shared_ptr<const std::string> filename) {
  IrReader reader(container, table, std::move(filename));
  return reader.Read();
}

}  // namespace hlograph::frontend::bytecode
