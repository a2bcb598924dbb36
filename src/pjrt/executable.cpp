#include "pjrt/executable.h"

#include <cstring>
#include <span>

#include "frontend/bytecode/bytecode_reader.h"
#include "frontend/parser.h"
#include "ir/argument_aliases.h"
#include "ir/printer.h"
#include "ir/verifier.h"
#include "pjrt/buffer.h"
#include "pjrt/client.h"
#include "pjrt/compile_options.h"
#include "pjrt/element_types.h"
#include "pjrt/error.h"
#include "pjrt/event.h"

namespace hlograph::pjrt {
namespace {

constexpr char kDeviceMemoryKind[] = "device";

StatusOr<std::unique_ptr<ir::Module>> ReadModule(std::string_view code) {
  std::span<const uint8_t> bytes(reinterpret_cast<const uint8_t*>(code.data()), code.size());
  if (frontend::IsMlirBytecode(bytes)) return frontend::ReadBytecodeModule(bytes, "<pjrt program>");
  HLOGRAPH_ASSIGN(std::unique_ptr<ir::Module> module, frontend::ParseModule(code, "<pjrt program>"));
  HLOGRAPH_TRY(ir::VerifyModule(*module));
  return module;
}

// xla.DeviceAssignmentProto for one replica and one computation on device
// `id`, in protobuf's wire format: replica_count (field 1) = 1,
// computation_count (field 2) = 1, computation_devices (field 3) holding
// replica_device_ids (field 1, packed) = [id].
std::string DeviceAssignmentProto(int id) {
  std::string device_id;
  for (uint64_t v = static_cast<uint64_t>(static_cast<int64_t>(id));; v >>= 7) {  // varint
    if (v < 0x80) {
      device_id.push_back(static_cast<char>(v));
      break;
    }
    device_id.push_back(static_cast<char>((v & 0x7f) | 0x80));
  }
  // Appended piece by piece: GCC 12 -O3 warns falsely (-Wrestrict) on "literal" + a temporary string.
  std::string ids = "\x0a";
  ids += static_cast<char>(device_id.size());
  ids += device_id;
  std::string proto("\x08\x01\x10\x01\x1a", 5);
  proto += static_cast<char>(ids.size());
  proto += ids;
  return proto;
}

void KeepDeviceAssignment(PJRT_DeviceAssignmentSerialized*) {}

PJRT_Error* Deleted(const char* function) {
  return MakeError(PJRT_Error_Code_FAILED_PRECONDITION, std::string(function) + ": the executable has been deleted");
}

}  // namespace

StatusOr<std::shared_ptr<const Program>> CompileProgram(std::string_view code, Backend& backend) {
  auto program = std::make_shared<Program>();
  HLOGRAPH_ASSIGN(program->module, ReadModule(code));
  program->entry = program->module->EntryFunction();
  if (program->entry == nullptr) {
    return Status::Error("the program has no entry function (@main, or a single public function)");
  }
  program->name = program->module->name();
  if (!program->name.empty() && program->name.front() == '@') program->name.erase(0, 1);
  if (program->name.empty()) program->name = ir::FunctionName(*program->entry);
  const ir::FunctionType signature = ir::FunctionSignature(*program->entry);
  program->inputs = signature.inputs;
  program->outputs = signature.results;
  program->aliased_result.assign(signature.inputs.size(), -1);
  for (const ir::ArgumentAlias& alias : ir::ArgumentAliases(*program->entry)) {
    if (alias.same_type) program->aliased_result[static_cast<size_t>(alias.parameter)] = alias.result;
  }
  for (size_t i = 0; i < signature.results.size(); ++i) {
    const ir::Type& type = signature.results[i];
    std::optional<PJRT_Buffer_Type> pjrt_type;
    if (type.IsTensor()) pjrt_type = ToPjrtType(type.element());
    if (!pjrt_type) {
      return Status::Error("result " + std::to_string(i) + " of the entry function has type " + type.ToString() +
                           ", which has no PJRT buffer type");
    }
    program->output_types.push_back(*pjrt_type);
    program->output_ranks.push_back(type.shape().size());
    program->output_dims.insert(program->output_dims.end(), type.shape().begin(), type.shape().end());
    program->output_memory_kinds.push_back(kDeviceMemoryKind);
    program->output_memory_kind_sizes.push_back(sizeof(kDeviceMemoryKind) - 1);
  }
  HLOGRAPH_ASSIGN(program->runner, backend.Load(*program->module));
  return std::shared_ptr<const Program>(std::move(program));
}

PJRT_Error* ClientCompile(PJRT_Client_Compile_Args* args) {
  static constexpr const char* kName = "PJRT_Client_Compile";
  if (PJRT_Error* e = CheckStructSize(kName, args->struct_size, PJRT_STRUCT_SIZE(PJRT_Client_Compile_Args, executable))) {
    return e;
  }
  const PJRT_Program* p = args->program;
  std::string_view format(p->format, p->format_size);
  if (format != "mlir") {
    return MakeError(PJRT_Error_Code_INVALID_ARGUMENT,
                     std::string(kName) + ": program format \"" + std::string(format) +
                         "\" is not supported (hlograph reads \"mlir\": StableHLO bytecode or text)");
  }
  auto options = ReadCompileOptions(std::string_view(args->compile_options, args->compile_options_size));
  if (!options.ok()) {
    return MakeError(PJRT_Error_Code_INVALID_ARGUMENT, std::string(kName) + ": " + options.status().message());
  }
  if (options->num_replicas != 1 || options->num_partitions != 1) {
    return MakeError(PJRT_Error_Code_UNIMPLEMENTED,
                     std::string(kName) +
                         ": hlograph runs one replica and one partition; the compile options ask for " +
                         std::to_string(options->num_replicas) + " replica(s) x " +
                         std::to_string(options->num_partitions) + " partition(s)");
  }
  auto program = CompileProgram(std::string_view(p->code, p->code_size), *args->client->backend);
  if (!program.ok()) {
    return MakeError(PJRT_Error_Code_INVALID_ARGUMENT, std::string(kName) + ": " + program.status().message());
  }
  auto* loaded = new PJRT_LoadedExecutable;
  loaded->program = std::move(*program);
  loaded->client = args->client;
  PJRT_Device* device = args->client->devices.front();
  loaded->devices.push_back(device);
  loaded->logical_ids.push_back(PJRT_LogicalDeviceIds{0, 0});
  loaded->device_assignment = DeviceAssignmentProto(device->description.id);
  args->executable = loaded;
  return nullptr;
}

PJRT_Error* ExecutableDestroy(PJRT_Executable_Destroy_Args* args) {
  delete args->executable;
  return nullptr;
}

PJRT_Error* ExecutableName(PJRT_Executable_Name_Args* args) {
  args->executable_name = args->executable->program->name.data();
  args->executable_name_size = args->executable->program->name.size();
  return nullptr;
}

PJRT_Error* ExecutableNumReplicas(PJRT_Executable_NumReplicas_Args* args) {
  args->num_replicas = 1;
  return nullptr;
}

PJRT_Error* ExecutableNumPartitions(PJRT_Executable_NumPartitions_Args* args) {
  args->num_partitions = 1;
  return nullptr;
}

PJRT_Error* ExecutableNumOutputs(PJRT_Executable_NumOutputs_Args* args) {
  args->num_outputs = args->executable->program->output_types.size();
  return nullptr;
}

PJRT_Error* ExecutableOutputElementTypes(PJRT_Executable_OutputElementTypes_Args* args) {
  // The ABI's pointer is not const; the caller only reads it.
  auto& types = const_cast<std::vector<PJRT_Buffer_Type>&>(args->executable->program->output_types);
  args->output_types = types.data();
  args->num_output_types = types.size();
  return nullptr;
}

PJRT_Error* ExecutableOutputDimensions(PJRT_Executable_OutputDimensions_Args* args) {
  const Program& program = *args->executable->program;
  args->num_outputs = program.output_ranks.size();
  args->dims = program.output_dims.data();
  args->dim_sizes = program.output_ranks.data();
  return nullptr;
}

PJRT_Error* ExecutableOutputMemoryKinds(PJRT_Executable_OutputMemoryKinds_Args* args) {
  const Program& program = *args->executable->program;
  args->num_outputs = program.output_memory_kinds.size();
  args->memory_kinds = program.output_memory_kinds.data();
  args->memory_kind_sizes = program.output_memory_kind_sizes.data();
  return nullptr;
}

PJRT_Error* ExecutableOptimizedProgram(PJRT_Executable_OptimizedProgram_Args* args) {
  static constexpr const char* kName = "PJRT_Executable_OptimizedProgram";
  PJRT_Program* out = args->program;
  if (out == nullptr) return MakeError(PJRT_Error_Code_INVALID_ARGUMENT, std::string(kName) + ": no program to fill");
  const Program& program = *args->executable->program;
  std::call_once(program.text_once, [&] { program.text = ir::PrintModule(*program.module); });
  const std::string& text = program.text;
  out->format = "mlir";
  out->format_size = 4;
  if (out->code == nullptr) {
    out->code_size = text.size();
    return nullptr;
  }
  if (out->code_size < text.size()) {
    return MakeError(PJRT_Error_Code_INVALID_ARGUMENT, std::string(kName) + ": the code buffer holds " +
                                                           std::to_string(out->code_size) + " bytes, the program " +
                                                           std::to_string(text.size()));
  }
  std::memcpy(out->code, text.data(), text.size());
  out->code_size = text.size();
  return nullptr;
}

PJRT_Error* LoadedExecutableDestroy(PJRT_LoadedExecutable_Destroy_Args* args) {
  delete args->executable;
  return nullptr;
}

PJRT_Error* LoadedExecutableGetExecutable(PJRT_LoadedExecutable_GetExecutable_Args* args) {
  if (!args->loaded_executable->program) return Deleted("PJRT_LoadedExecutable_GetExecutable");
  args->executable = new PJRT_Executable{args->loaded_executable->program};
  return nullptr;
}

PJRT_Error* LoadedExecutableAddressableDevices(PJRT_LoadedExecutable_AddressableDevices_Args* args) {
  args->addressable_devices = args->executable->devices.data();
  args->num_addressable_devices = args->executable->devices.size();
  return nullptr;
}

PJRT_Error* LoadedExecutableDelete(PJRT_LoadedExecutable_Delete_Args* args) {
  args->executable->program.reset();  // running calls keep their own reference
  return nullptr;
}

PJRT_Error* LoadedExecutableIsDeleted(PJRT_LoadedExecutable_IsDeleted_Args* args) {
  args->is_deleted = args->executable->program == nullptr;
  return nullptr;
}

PJRT_Error* LoadedExecutableExecute(PJRT_LoadedExecutable_Execute_Args* args) {
  static constexpr const char* kName = "PJRT_LoadedExecutable_Execute";
  if (PJRT_Error* e = CheckStructSize(kName, args->struct_size,
                                      PJRT_STRUCT_SIZE(PJRT_LoadedExecutable_Execute_Args, device_complete_events))) {
    return e;
  }
  std::shared_ptr<const Program> program = args->executable->program;
  if (!program) return Deleted(kName);
  if (args->num_devices != 1) {
    return MakeError(PJRT_Error_Code_INVALID_ARGUMENT, std::string(kName) + ": hlograph runs on one device, not " +
                                                           std::to_string(args->num_devices));
  }
  PJRT_Device* device = args->executable->devices.front();
  if (args->struct_size >= PJRT_STRUCT_SIZE(PJRT_LoadedExecutable_Execute_Args, execute_device) &&
      args->execute_device != nullptr) {
    device = args->execute_device;
  }
  if (args->num_args != program->inputs.size()) {
    return MakeError(PJRT_Error_Code_INVALID_ARGUMENT, std::string(kName) + ": the program takes " +
                                                           std::to_string(program->inputs.size()) + " arguments, got " +
                                                           std::to_string(args->num_args));
  }
  const PJRT_ExecuteOptions* options = args->options;
  const bool has_non_donatable =
      options != nullptr &&
      options->struct_size >= PJRT_STRUCT_SIZE(PJRT_ExecuteOptions, num_non_donatable_input_indices);
  std::vector<std::shared_ptr<Array>> inputs;
  std::vector<bool> donated(args->num_args, false);
  inputs.reserve(args->num_args);
  for (size_t i = 0; i < args->num_args; ++i) {
    const PJRT_Buffer* buffer = args->argument_lists[0][i];
    if (!buffer->array) {
      return MakeError(PJRT_Error_Code_FAILED_PRECONDITION,
                       std::string(kName) + ": argument " + std::to_string(i) + " has been deleted");
    }
    if (buffer->type != program->inputs[i]) {
      return MakeError(PJRT_Error_Code_INVALID_ARGUMENT, std::string(kName) + ": argument " + std::to_string(i) +
                                                             " has type " + buffer->type.ToString() + ", expected " +
                                                             program->inputs[i].ToString());
    }
    inputs.push_back(buffer->array);
    donated[i] = program->aliased_result[i] >= 0;
  }
  for (size_t k = 0; has_non_donatable && k < options->num_non_donatable_input_indices; ++k) {
    const int64_t i = options->non_donatable_input_indices[k];
    if (i >= 0 && static_cast<size_t>(i) < donated.size()) donated[static_cast<size_t>(i)] = false;
  }
  auto results = program->runner->Execute(inputs, donated);
  if (!results.ok()) return MakeError(PJRT_Error_Code_INTERNAL, std::string(kName) + ": " + results.status().message());
  if (results->arrays.size() != program->outputs.size()) {
    return MakeError(PJRT_Error_Code_INTERNAL, std::string(kName) + ": the program returned " +
                                                   std::to_string(results->arrays.size()) + " values, its signature " +
                                                   std::to_string(program->outputs.size()));
  }
  // Donated arguments are consumed, as PJRT's donation semantics say: their
  // memory may now hold a result.
  for (size_t i = 0; i < args->num_args; ++i) {
    if (donated[i]) args->argument_lists[0][i]->array.reset();
  }
  for (size_t i = 0; i < results->arrays.size(); ++i) {
    args->output_lists[0][i] = MakeBuffer(std::move(results->arrays[i]), program->outputs[i], device);
  }
  if (args->device_complete_events != nullptr) args->device_complete_events[0] = MakeEvent(results->done());
  return nullptr;
}

PJRT_Error* LoadedExecutableAddressableDeviceLogicalIds(PJRT_LoadedExecutable_AddressableDeviceLogicalIds_Args* args) {
  args->addressable_device_logical_ids = args->executable->logical_ids.data();
  args->num_addressable_device_logical_ids = args->executable->logical_ids.size();
  return nullptr;
}

PJRT_Error* LoadedExecutableGetDeviceAssignment(PJRT_LoadedExecutable_GetDeviceAssignment_Args* args) {
  args->serialized_bytes = args->executable->device_assignment.data();
  args->serialized_bytes_size = args->executable->device_assignment.size();
  args->serialized_device_assignment = nullptr;  // the bytes live as long as the executable
  args->serialized_device_assignment_deleter = KeepDeviceAssignment;
  return nullptr;
}

}  // namespace hlograph::pjrt
