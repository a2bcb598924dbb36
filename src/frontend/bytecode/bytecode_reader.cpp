#include "frontend/bytecode/bytecode_reader.h"

#include "frontend/bytecode/attr_type_table.h"
#include "frontend/bytecode/container.h"
#include "frontend/bytecode/ir_reader.h"
#include "frontend/bytecode/value_names.h"

namespace hlograph::frontend {

bool IsMlirBytecode(std::span<const uint8_t> data) { return bytecode::IsBytecode(data); }

StatusOr<std::unique_ptr<ir::Module>> ReadBytecodeModule(std::span<const uint8_t> data, const std::string& path) {
  auto prefix = [&](const Status& s) { return Status::Error(path + ": error: " + s.message()); };
  auto container = bytecode::ReadContainer(data);
  if (!container.ok()) return prefix(container.status());
  bytecode::AttrTypeTable table(*container);
  auto module = bytecode::ReadIr(*container, table, std::make_shared<const std::string>(path));
  if (!module.ok()) return prefix(module.status());
  bytecode::AssignMlirValueNames((*module)->op());
  return std::move(*module);
}

}  // namespace hlograph::frontend
