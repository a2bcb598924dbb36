// Reads the IR section of a portable artifact (blocks, ops, values, regions;
// isolated regions in their own sections) and builds hlograph IR, converting
// each VHLO op to StableHLO as it is read.
#pragma once

#include <memory>
#include <string>

#include "frontend/bytecode/attr_type_table.h"
#include "ir/module.h"

namespace hlograph::frontend::bytecode {

StatusOr<std::unique_ptr<ir::Module>> ReadIr(const Container& container, AttrTypeTable& table,
                                             std::shared_ptr<const std::string> filename);

}  // namespace hlograph::frontend::bytecode
