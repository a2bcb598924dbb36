// PJRT_Executable and PJRT_LoadedExecutable: a compiled program (a verified
// module, its entry function, and the backend's runner for it) and the
// same loaded on the client's devices its compile options assign.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "hlograph/status.h"
#include "ir/module.h"
#include "pjrt/backend.h"
#include "pjrt/pjrt_c_api.h"

namespace hlograph::pjrt {

struct Program {
  std::unique_ptr<ir::Module> module;
  const ir::Operation* entry = nullptr;
  std::string name;
  // The module printed, made on the first request (OptimizedProgram).
  mutable std::once_flag text_once;
  mutable std::string text;
  std::vector<ir::Type> inputs, outputs;
  // Per input: the result that may take its memory when donated, or -1
  // (ir/argument_aliases.h).
  std::vector<int> aliased_result;
  // Declared after the module: destroyed first. One device: `runner`;
  // several (replicas x partitions): `grid`, and inputs and outputs are
  // each device's.
  std::shared_ptr<Runner> runner;
  std::shared_ptr<GridRunner> grid;
  int64_t replicas = 1, partitions = 1;
  // The grid's signature; for a program the SPMD partitioner divided
  // (module then being the per-device program), the shardings are those of
  // the original arguments and results.
  GridRunner::Signature signature;
  bool partitioned = false;
  // What the output queries return, kept for the program's lifetime.
  std::vector<PJRT_Buffer_Type> output_types;
  std::vector<int64_t> output_dims;
  std::vector<size_t> output_ranks;
  std::vector<const char*> output_memory_kinds;
  std::vector<size_t> output_memory_kind_sizes;
};

// Reads `code` (MLIR bytecode, i.e. a portable artifact, or MLIR text) into
// a verified program compiled for `backend`, on replicas x partitions
// devices.
StatusOr<std::shared_ptr<const Program>> CompileProgram(std::string_view code, Backend& backend, int64_t replicas = 1,
                                                        int64_t partitions = 1);

PJRT_Error* ClientCompile(PJRT_Client_Compile_Args* args);

PJRT_Error* ExecutableDestroy(PJRT_Executable_Destroy_Args* args);
PJRT_Error* ExecutableName(PJRT_Executable_Name_Args* args);
PJRT_Error* ExecutableNumReplicas(PJRT_Executable_NumReplicas_Args* args);
PJRT_Error* ExecutableNumPartitions(PJRT_Executable_NumPartitions_Args* args);
PJRT_Error* ExecutableNumOutputs(PJRT_Executable_NumOutputs_Args* args);
PJRT_Error* ExecutableOutputElementTypes(PJRT_Executable_OutputElementTypes_Args* args);
PJRT_Error* ExecutableOutputDimensions(PJRT_Executable_OutputDimensions_Args* args);
PJRT_Error* ExecutableOutputMemoryKinds(PJRT_Executable_OutputMemoryKinds_Args* args);
// The module as compiled, printed as StableHLO text (format "mlir"): what
// JAX's compiled.as_text() shows.
PJRT_Error* ExecutableOptimizedProgram(PJRT_Executable_OptimizedProgram_Args* args);

PJRT_Error* LoadedExecutableDestroy(PJRT_LoadedExecutable_Destroy_Args* args);
PJRT_Error* LoadedExecutableGetExecutable(PJRT_LoadedExecutable_GetExecutable_Args* args);
PJRT_Error* LoadedExecutableAddressableDevices(PJRT_LoadedExecutable_AddressableDevices_Args* args);
PJRT_Error* LoadedExecutableDelete(PJRT_LoadedExecutable_Delete_Args* args);
PJRT_Error* LoadedExecutableIsDeleted(PJRT_LoadedExecutable_IsDeleted_Args* args);
PJRT_Error* LoadedExecutableExecute(PJRT_LoadedExecutable_Execute_Args* args);
// (replica, partition) of each device, in the order of its devices.
PJRT_Error* LoadedExecutableAddressableDeviceLogicalIds(PJRT_LoadedExecutable_AddressableDeviceLogicalIds_Args* args);
PJRT_Error* LoadedExecutableGetDeviceAssignment(PJRT_LoadedExecutable_GetDeviceAssignment_Args* args);

}  // namespace hlograph::pjrt

struct PJRT_Executable {
  std::shared_ptr<const hlograph::pjrt::Program> program;
};

struct PJRT_LoadedExecutable {
  std::shared_ptr<const hlograph::pjrt::Program> program;  // null once deleted
  PJRT_Client* client = nullptr;
  std::vector<PJRT_Device*> devices;  // device replica * partitions + partition, of every process
  // Those of this process, in the same order, and their places in `devices`
  // (as (replica, partition) and as an index).
  std::vector<PJRT_Device*> addressable;
  std::vector<PJRT_LogicalDeviceIds> logical_ids;
  std::vector<int64_t> local_ids;
  std::string device_assignment;  // a serialized xla.DeviceAssignmentProto
  // The same in every process that compiles the same program for the same
  // devices: what the keys of its exchanges between processes start with.
  uint64_t key = 0;
};
