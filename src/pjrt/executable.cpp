#include "pjrt/executable.h"

#include <algorithm>
#include <cstdio>
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
#include "pjrt/spmd_choice.h"
#include "pjrt/xla_program_text.h"

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

void KeepDeviceAssignment(PJRT_DeviceAssignmentSerialized*) {}

// The client's devices the options assign, device replica * partitions +
// partition; without an assignment the first ones.
StatusOr<std::vector<PJRT_Device*>> AssignedDevices(const PJRT_Client& client, const CompileOptions& options) {
  const int64_t count = options.num_replicas * options.num_partitions;
  const std::string asked = std::to_string(options.num_replicas) + " replica(s) x " +
                            std::to_string(options.num_partitions) + " partition(s)";
  if (options.num_replicas < 1 || options.num_partitions < 1) return Status::Error("the options ask for " + asked);
  if (count > static_cast<int64_t>(client.devices.size())) {
    return Status::Error("the compile options ask for " + asked + "; the client has " +
                         std::to_string(client.devices.size()) + " device(s) (the CPU backend offers as many as "
                         "HLOGRAPH_PJRT_CPU_DEVICES or the create option cpu_device_count say, the GPU backend one)");
  }
  std::vector<PJRT_Device*> devices;
  for (int64_t d = 0; d < count; ++d) {
    const int64_t id = options.device_assignment.empty() ? client.devices[static_cast<size_t>(d)]->description.id
                                                         : options.device_assignment[static_cast<size_t>(d)];
    PJRT_Device* device = nullptr;
    for (PJRT_Device* c : client.devices) {
      if (c->description.id == id) device = c;
    }
    if (device == nullptr) return Status::Error("the device assignment names device " + std::to_string(id) +
                                                ", which the client does not have");
    if (std::find(devices.begin(), devices.end(), device) != devices.end()) {
      return Status::Error("the device assignment names device " + std::to_string(id) + " twice");
    }
    devices.push_back(device);
  }
  return devices;
}

// FNV-1a over the program's bytes and where it runs: the same in every
// process compiling it (std::hash promises nothing across builds).
uint64_t ProgramKey(std::string_view code, const CompileOptions& options, const std::vector<int64_t>& ids) {
  uint64_t h = 1469598103934665603ull;
  const auto mix = [&h](const void* data, size_t size) {
    for (size_t i = 0; i < size; ++i) {
      h ^= static_cast<const unsigned char*>(data)[i];
      h *= 1099511628211ull;
    }
  };
  mix(code.data(), code.size());
  mix(&options.num_replicas, sizeof(options.num_replicas));
  mix(&options.num_partitions, sizeof(options.num_partitions));
  mix(ids.data(), ids.size() * sizeof(int64_t));
  return h;
}

PJRT_Error* Deleted(const char* function) {
  return MakeError(PJRT_Error_Code_FAILED_PRECONDITION, std::string(function) + ": the executable has been deleted");
}

}  // namespace

StatusOr<std::shared_ptr<const Program>> CompileProgram(std::string_view code, Backend& backend, int64_t replicas,
                                                        int64_t partitions) {
  auto program = std::make_shared<Program>();
  HLOGRAPH_ASSIGN(program->module, ReadModule(code));
  program->entry = program->module->EntryFunction();
  if (program->entry == nullptr) {
    return Status::Error("the program has no entry function (@main, or a single public function)");
  }
  program->name = program->module->name();
  if (!program->name.empty() && program->name.front() == '@') program->name.erase(0, 1);
  if (program->name.empty()) program->name = ir::FunctionName(*program->entry);
  HLOGRAPH_ASSIGN(std::optional<passes::SpmdProgram> spmd,
                  ChoosePartitioning(*program->module, program->name, replicas, partitions));
  if (spmd) {  // from here on, the program each device runs on its pieces
    program->module = std::move(spmd->module);
    program->entry = program->module->EntryFunction();
    program->partitioned = true;
  }
  const ir::FunctionType signature = ir::FunctionSignature(*program->entry);
  program->inputs = signature.inputs;
  program->outputs = signature.results;
  program->aliased_result.assign(signature.inputs.size(), -1);
  for (const ir::ArgumentAlias& alias : ir::ArgumentAliases(*program->entry)) {
    if (alias.same_type) program->aliased_result[static_cast<size_t>(alias.parameter)] = alias.result;
  }
  program->replicas = replicas;
  program->partitions = partitions;
  if (replicas * partitions > 1) {
    HLOGRAPH_ASSIGN(program->grid, backend.LoadGrid(*program->module, replicas, partitions));
    program->signature = program->grid->signature();
    if (spmd) {
      program->signature.input_shardings = spmd->input_shardings;
      program->signature.result_shardings = spmd->result_shardings;
    }
    program->inputs = program->signature.inputs;
    program->outputs = program->signature.results;
  }
  for (size_t i = 0; i < program->outputs.size(); ++i) {
    const ir::Type& type = program->outputs[i];
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
  if (!program->grid) {
    HLOGRAPH_ASSIGN(program->runner, backend.Load(*program->module));
  }
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
  auto devices = AssignedDevices(*args->client, *options);
  if (!devices.ok()) {
    return MakeError(PJRT_Error_Code_INVALID_ARGUMENT, std::string(kName) + ": " + devices.status().message());
  }
  auto program = CompileProgram(std::string_view(p->code, p->code_size), *args->client->backend,
                                options->num_replicas, options->num_partitions);
  if (!program.ok()) {
    return MakeError(PJRT_Error_Code_INVALID_ARGUMENT, std::string(kName) + ": " + program.status().message());
  }
  auto* loaded = new PJRT_LoadedExecutable;
  loaded->client = args->client;
  loaded->devices = *devices;
  std::vector<int64_t> ids;
  for (size_t d = 0; d < loaded->devices.size(); ++d) {
    const auto partitions = static_cast<size_t>(options->num_partitions);
    ids.push_back(loaded->devices[d]->description.id);
    if (!loaded->devices[d]->addressable) continue;
    loaded->addressable.push_back(loaded->devices[d]);
    loaded->logical_ids.push_back(
        PJRT_LogicalDeviceIds{static_cast<int>(d / partitions), static_cast<int>(d % partitions)});
    loaded->local_ids.push_back(static_cast<int64_t>(d));
  }
  loaded->program = std::move(*program);
  loaded->key = ProgramKey(std::string_view(p->code, p->code_size), *options, ids);
  loaded->device_assignment = SerializeDeviceAssignment(options->num_replicas, options->num_partitions, ids);
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
  args->num_replicas = static_cast<size_t>(args->executable->program->replicas);
  return nullptr;
}

PJRT_Error* ExecutableNumPartitions(PJRT_Executable_NumPartitions_Args* args) {
  args->num_partitions = static_cast<size_t>(args->executable->program->partitions);
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
  std::call_once(program.text_once, [&] {
    // Several devices: the framework reads the shardings from this text.
    auto xla = program.grid ? XlaProgramText(*program.module, program.signature)
                            : StatusOr<std::string>(Status::Error("one device"));
    program.text = xla.ok() ? *xla : ir::PrintModule(*program.module);
  });
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
  args->addressable_devices = args->executable->addressable.data();
  args->num_addressable_devices = args->executable->addressable.size();
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

namespace {

constexpr const char* kExecute = "PJRT_LoadedExecutable_Execute";

PJRT_Error* ExecuteError(PJRT_Error_Code code, const std::string& message) {
  return MakeError(code, std::string(kExecute) + ": " + message);
}

// Device d's arguments, checked against the program's inputs (and, with
// `device`, to be on it).
PJRT_Error* Arguments(const Program& program, const PJRT_LoadedExecutable_Execute_Args& args, size_t d,
                      const PJRT_Device* device, std::vector<std::shared_ptr<Array>>& inputs) {
  const std::string of = args.num_devices > 1 ? " of device " + std::to_string(d) : "";
  for (size_t i = 0; i < args.num_args; ++i) {
    const PJRT_Buffer* buffer = args.argument_lists[d][i];
    const std::string which = "argument " + std::to_string(i) + of;
    if (!buffer->array) return ExecuteError(PJRT_Error_Code_FAILED_PRECONDITION, which + " has been deleted");
    if (buffer->type != program.inputs[i]) {
      return ExecuteError(PJRT_Error_Code_INVALID_ARGUMENT, which + " has type " + buffer->type.ToString() +
                                                                ", expected " + program.inputs[i].ToString());
    }
    if (device != nullptr && buffer->device != device) {
      return ExecuteError(PJRT_Error_Code_INVALID_ARGUMENT,
                          which + " is on " + buffer->device->description.to_string + ", the program runs it on " +
                              device->description.to_string);
    }
    inputs.push_back(buffer->array);
  }
  return nullptr;
}

// The inputs the program may consume: those it aliases to a result, less
// those the caller keeps.
std::vector<bool> Donated(const Program& program, const PJRT_LoadedExecutable_Execute_Args& args) {
  std::vector<bool> donated(args.num_args, false);
  for (size_t i = 0; i < args.num_args; ++i) donated[i] = program.aliased_result[i] >= 0;
  const PJRT_ExecuteOptions* options = args.options;
  if (options == nullptr ||
      options->struct_size < PJRT_STRUCT_SIZE(PJRT_ExecuteOptions, num_non_donatable_input_indices)) {
    return donated;
  }
  for (size_t k = 0; k < options->num_non_donatable_input_indices; ++k) {
    const int64_t i = options->non_donatable_input_indices[k];
    if (i >= 0 && static_cast<size_t>(i) < donated.size()) donated[static_cast<size_t>(i)] = false;
  }
  return donated;
}

// Donated arguments are consumed, as PJRT's donation semantics say: their
// memory may now hold a result.
void ConsumeDonated(const PJRT_LoadedExecutable_Execute_Args& args, const std::vector<bool>& donated) {
  for (size_t d = 0; d < args.num_devices; ++d) {
    for (size_t i = 0; i < args.num_args; ++i) {
      if (donated[i]) args.argument_lists[d][i]->array.reset();
    }
  }
}

PJRT_Error* ExecuteOnOneDevice(const Program& program, PJRT_LoadedExecutable_Execute_Args& args) {
  PJRT_Device* device = args.executable->devices.front();
  if (args.struct_size >= PJRT_STRUCT_SIZE(PJRT_LoadedExecutable_Execute_Args, execute_device) &&
      args.execute_device != nullptr) {
    device = args.execute_device;
  }
  if (!device->addressable) {
    return ExecuteError(PJRT_Error_Code_INVALID_ARGUMENT,
                        device->description.to_string + " belongs to another process");
  }
  std::vector<std::shared_ptr<Array>> inputs;
  if (PJRT_Error* e = Arguments(program, args, 0, nullptr, inputs)) return e;
  const std::vector<bool> donated = Donated(program, args);
  auto results = program.runner->Execute(inputs, donated);
  if (!results.ok()) return ExecuteError(PJRT_Error_Code_INTERNAL, results.status().message());
  if (results->arrays.size() != program.outputs.size()) {
    return ExecuteError(PJRT_Error_Code_INTERNAL, "the program returned " + std::to_string(results->arrays.size()) +
                                                      " values, its signature " +
                                                      std::to_string(program.outputs.size()));
  }
  ConsumeDonated(args, donated);
  for (size_t i = 0; i < results->arrays.size(); ++i) {
    args.output_lists[0][i] = MakeBuffer(std::move(results->arrays[i]), program.outputs[i], device);
  }
  if (args.device_complete_events != nullptr) args.device_complete_events[0] = MakeEvent(results->done());
  return nullptr;
}

// The devices of other processes' part in a call: this process runs its
// own, and they meet the others' through the client's key-value store under
// keys of this program and call.
cpu::ProcessSpan SpanOf(PJRT_LoadedExecutable& executable) {
  cpu::ProcessSpan span;
  span.local = executable.local_ids;
  span.link = executable.client->processes.store;
  char key[17];
  std::snprintf(key, sizeof(key), "%016llx", static_cast<unsigned long long>(executable.key));
  span.key = executable.client->processes.prefix + "run/" + std::string(key) + "/" + std::to_string(executable.client->NextCall(executable.key));
  span.timeout = executable.client->processes.timeout;
  return span;
}

// Every device of the executable at once (of this process, when it spans
// several); device d's results on device d.
PJRT_Error* ExecuteOnGrid(const Program& program, PJRT_LoadedExecutable_Execute_Args& args) {
  const std::vector<PJRT_Device*>& devices = args.executable->addressable;
  if (args.num_devices != devices.size()) {
    return ExecuteError(PJRT_Error_Code_INVALID_ARGUMENT, "the program runs on " + std::to_string(devices.size()) +
                                                              " devices of this process, not " +
                                                              std::to_string(args.num_devices));
  }
  std::vector<std::vector<std::shared_ptr<Array>>> inputs(devices.size());
  for (size_t d = 0; d < devices.size(); ++d) {
    if (PJRT_Error* e = Arguments(program, args, d, devices[d], inputs[d])) return e;
  }
  const bool spans = devices.size() != args.executable->devices.size();
  const cpu::ProcessSpan span = spans ? SpanOf(*args.executable) : cpu::ProcessSpan();
  auto results = program.grid->Execute(inputs, spans ? &span : nullptr);
  if (!results.ok()) return ExecuteError(PJRT_Error_Code_INTERNAL, results.status().message());
  ConsumeDonated(args, Donated(program, args));
  for (size_t d = 0; d < devices.size(); ++d) {
    for (size_t i = 0; i < program.outputs.size(); ++i) {
      args.output_lists[d][i] = MakeBuffer(std::move((*results)[d][i]), program.outputs[i], devices[d]);
    }
    if (args.device_complete_events != nullptr) args.device_complete_events[d] = MakeReadyEvent();
  }
  return nullptr;
}

}  // namespace

PJRT_Error* LoadedExecutableExecute(PJRT_LoadedExecutable_Execute_Args* args) {
  if (PJRT_Error* e = CheckStructSize(kExecute, args->struct_size,
                                      PJRT_STRUCT_SIZE(PJRT_LoadedExecutable_Execute_Args, device_complete_events))) {
    return e;
  }
  std::shared_ptr<const Program> program = args->executable->program;
  if (!program) return Deleted(kExecute);
  if (args->num_args != program->inputs.size()) {
    return ExecuteError(PJRT_Error_Code_INVALID_ARGUMENT, "the program takes " +
                                                              std::to_string(program->inputs.size()) +
                                                              " arguments, got " + std::to_string(args->num_args));
  }
  if (program->grid) return ExecuteOnGrid(*program, *args);
  if (args->num_devices != 1) {
    return ExecuteError(PJRT_Error_Code_INVALID_ARGUMENT,
                        "the program runs on one device, not " + std::to_string(args->num_devices));
  }
  return ExecuteOnOneDevice(*program, *args);
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
