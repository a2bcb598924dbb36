#include <algorithm>
#include <array>
#include <unordered_map>

#include "ir/op_id.h"

#include "ir/ops/op_tables.h"

namespace hlograph::ir {
namespace {

struct Registry {
  std::vector<OpDef> defs;
  std::vector<const OpDef*> sorted;
  std::unordered_map<std::string_view, const OpDef*> by_name;
  std::array<const OpDef*, kNumOpIds> by_id{};

  Registry() {
    AddBuiltinAndFuncOps(defs);
    AddElementwiseOps(defs);
    AddStablehloOps(defs);
    AddChloOps(defs);
    AddCheckOps(defs);
    AddShardyOps(defs);
    for (OpDef& d : defs) {
      // Every declaration has an id (ir/ops/*.def); a missing one is a
      // mistake in this table, caught by the op registry's test.
      d.id = OpIdOf(d.name);
      by_name[d.name] = &d;
      if (d.id != OpId::kNumOps) by_id[static_cast<size_t>(d.id)] = &d;
      sorted.push_back(&d);
    }
    std::sort(sorted.begin(), sorted.end(), [](const OpDef* a, const OpDef* b) { return a->name < b->name; });
  }
};

const Registry& TheRegistry() {
  static const Registry* registry = new Registry();  // never destroyed: used during exit
  return *registry;
}

}  // namespace

const OpDef* LookupOp(std::string_view name) {
  const auto& map = TheRegistry().by_name;
  auto it = map.find(name);
  return it == map.end() ? nullptr : it->second;
}

const OpDef* LookupOp(OpId id) {
  const auto i = static_cast<size_t>(id);
  return i < kNumOpIds ? TheRegistry().by_id[i] : nullptr;
}

const std::vector<const OpDef*>& AllOps() { return TheRegistry().sorted; }

const AttrSpec* OpDef::FindAttr(std::string_view attr_name) const {
  for (const AttrSpec& a : attrs) {
    if (a.name == attr_name) return &a;
  }
  return nullptr;
}

}  // namespace hlograph::ir
