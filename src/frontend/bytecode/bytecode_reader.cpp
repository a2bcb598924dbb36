#include "frontend/bytecode/bytecode_reader.h"

#include "frontend/bytecode/attr_type_table.h"
#include "frontend/bytecode/container.h"
#include "frontend/bytecode/ir_reader.h"
#include "frontend/bytecode/value_names.h"
#include "ir/verifier.h"

namespace hlograph::frontend {

bool IsMlirBytecode(std::span<const uint8_t> data) { return bytecode::IsBytecode(data); }

StatusOr<std::unique_ptr<ir::Module>> ReadBytecodeModule(std::span<const uint8_t> data, const std::string& path) {
  auto prefix = [&](const Status& s) { return Status::Error(path + ": error: " + s.message()); };
  auto container = bytecode::ReadContainer(data);
  if (!container.ok()) return prefix(container.status());
  bytecode::AttrTypeTable table(*container);
  auto module = bytecode::ReadIr(*container, table, std::make_shared<const std::string>(path));
  if (!module.ok()) return prefix(module.status());
  // Bytecode has no grammar that keeps ops well formed, as the text parser's
  // does, and the printer and backends rely on it: verify before handing out.
  Status verified = ir::VerifyModule(**module);
  if (!verified.ok()) return Status::Error(path + ": error: bytecode: the module does not verify:\n" + verified.message());
  bytecode::AssignMlirValueNames((*module)->op());
  return std::move(*module);
}

}  // namespace hlograph::frontend
