#include "frontend/bytecode/shardy_ops.h"

#include <map>

namespace hlograph::frontend::bytecode {

const PropertyNames* ShardyOpProperties(std::string_view op) {
  static const std::map<std::string, PropertyNames, std::less<>> table = {
      {"sdy.mesh", {{"mesh", false}, {"sym_name", false}}},
      {"sdy.sharding_constraint", {{"sharding", false}}},
      {"sdy.reshard", {{"sharding", false}}},
      {"sdy.manual_computation", {{"in_shardings", false}, {"manual_axes", false}, {"out_shardings", false}}},
      {"sdy.sharding_group", {{"group_id", false}}},
      {"sdy.named_computation", {{"in_shardings", true}, {"name", false}, {"out_shardings", true}}},
  };
  auto it = table.find(op);
  return it == table.end() ? nullptr : &it->second;
}

}  // namespace hlograph::frontend::bytecode
