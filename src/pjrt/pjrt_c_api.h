// hlograph's own declaration of the PJRT C API ABI (the interface between a
// framework such as JAX and a plugin library exporting GetPjrtApi()), written
// for API version 0.115, the version jaxlib 0.11.2 was built with.
//
// What must match the ABI exactly: the order of the 138 function slots of
// PJRT_Api, the field order and types of every argument struct declared
// here, and the enum values. Argument structs the plugin never reads are only
// declared (the slots take pointers to them). Every argument struct begins
// with `struct_size` (how much of the struct the caller knows) and
// `extension_start`; fields are only ever appended, so a struct is read up to
// the caller's struct_size.
#ifndef HLOGRAPH_PJRT_PJRT_C_API_H_
#define HLOGRAPH_PJRT_PJRT_C_API_H_

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PJRT_API_MAJOR 0
#define PJRT_API_MINOR 115

// The size a caller reports for a struct it knows up to `last_field`.
#define PJRT_STRUCT_SIZE(type, last_field) (offsetof(type, last_field) + sizeof(((type*)0)->last_field))

typedef struct PJRT_Extension_Base PJRT_Extension_Base;
struct PJRT_Extension_Base {
  size_t struct_size;
  int type;  // PJRT_Extension_Type
  PJRT_Extension_Base* next;
};

typedef struct PJRT_Api_Version {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  int major_version;
  int minor_version;
} PJRT_Api_Version;

// Opaque handles; the plugin defines them.
typedef struct PJRT_Error PJRT_Error;
typedef struct PJRT_Event PJRT_Event;
typedef struct PJRT_Client PJRT_Client;
typedef struct PJRT_Device PJRT_Device;
typedef struct PJRT_Memory PJRT_Memory;
typedef struct PJRT_DeviceDescription PJRT_DeviceDescription;
typedef struct PJRT_Executable PJRT_Executable;
typedef struct PJRT_LoadedExecutable PJRT_LoadedExecutable;
typedef struct PJRT_Buffer PJRT_Buffer;

// ------------------------------------------------------------------ enums

typedef enum {
  PJRT_Error_Code_OK = 0,
  PJRT_Error_Code_CANCELLED = 1,
  PJRT_Error_Code_UNKNOWN = 2,
  PJRT_Error_Code_INVALID_ARGUMENT = 3,
  PJRT_Error_Code_DEADLINE_EXCEEDED = 4,
  PJRT_Error_Code_NOT_FOUND = 5,
  PJRT_Error_Code_ALREADY_EXISTS = 6,
  PJRT_Error_Code_PERMISSION_DENIED = 7,
  PJRT_Error_Code_RESOURCE_EXHAUSTED = 8,
  PJRT_Error_Code_FAILED_PRECONDITION = 9,
  PJRT_Error_Code_ABORTED = 10,
  PJRT_Error_Code_OUT_OF_RANGE = 11,
  PJRT_Error_Code_UNIMPLEMENTED = 12,
  PJRT_Error_Code_INTERNAL = 13,
  PJRT_Error_Code_UNAVAILABLE = 14,
  PJRT_Error_Code_DATA_LOSS = 15,
  PJRT_Error_Code_UNAUTHENTICATED = 16,
} PJRT_Error_Code;

typedef enum {
  PJRT_NamedValue_kString = 0,
  PJRT_NamedValue_kInt64 = 1,
  PJRT_NamedValue_kInt64List = 2,
  PJRT_NamedValue_kFloat = 3,
  PJRT_NamedValue_kBool = 4,
} PJRT_NamedValue_Type;

// Element types, numbered as the ABI numbers them.
typedef enum {
  PJRT_Buffer_Type_INVALID = 0,
  PJRT_Buffer_Type_PRED = 1,
  PJRT_Buffer_Type_S8 = 2,
  PJRT_Buffer_Type_S16 = 3,
  PJRT_Buffer_Type_S32 = 4,
  PJRT_Buffer_Type_S64 = 5,
  PJRT_Buffer_Type_U8 = 6,
  PJRT_Buffer_Type_U16 = 7,
  PJRT_Buffer_Type_U32 = 8,
  PJRT_Buffer_Type_U64 = 9,
  PJRT_Buffer_Type_F16 = 10,
  PJRT_Buffer_Type_F32 = 11,
  PJRT_Buffer_Type_F64 = 12,
  PJRT_Buffer_Type_BF16 = 13,
  PJRT_Buffer_Type_C64 = 14,
  PJRT_Buffer_Type_C128 = 15,
  PJRT_Buffer_Type_F8E5M2 = 16,
  PJRT_Buffer_Type_F8E4M3FN = 17,
  PJRT_Buffer_Type_F8E4M3B11FNUZ = 18,
  PJRT_Buffer_Type_F8E5M2FNUZ = 19,
  PJRT_Buffer_Type_F8E4M3FNUZ = 20,
  PJRT_Buffer_Type_S4 = 21,
  PJRT_Buffer_Type_U4 = 22,
  PJRT_Buffer_Type_TOKEN = 23,
  PJRT_Buffer_Type_S2 = 24,
  PJRT_Buffer_Type_U2 = 25,
  PJRT_Buffer_Type_F8E4M3 = 26,
  PJRT_Buffer_Type_F8E3M4 = 27,
  PJRT_Buffer_Type_F8E8M0FNU = 28,
  PJRT_Buffer_Type_F4E2M1FN = 29,
  PJRT_Buffer_Type_S1 = 30,
  PJRT_Buffer_Type_U1 = 31,
  PJRT_Buffer_Type_F6E2M3FN = 32,
  PJRT_Buffer_Type_F6E3M2FN = 33,
} PJRT_Buffer_Type;

typedef enum {
  PJRT_HostBufferSemantics_kImmutableOnlyDuringCall = 0,
  PJRT_HostBufferSemantics_kImmutableUntilTransferCompletes = 1,
  PJRT_HostBufferSemantics_kImmutableZeroCopy = 2,
  PJRT_HostBufferSemantics_kMutableZeroCopy = 3,
} PJRT_HostBufferSemantics;

typedef enum {
  PJRT_Buffer_MemoryLayout_Type_Tiled = 0,
  PJRT_Buffer_MemoryLayout_Type_Strides = 1,
} PJRT_Buffer_MemoryLayout_Type;

// ------------------------------------------------------- the function table

// Every slot after the first two returns an error (null: success).
#define HLOGRAPH_PJRT_ERROR_RETURNING_SLOTS(X) \
  X(PJRT_Error_GetCode) \
  X(PJRT_Plugin_Initialize) \
  X(PJRT_Plugin_Attributes) \
  X(PJRT_Event_Destroy) \
  X(PJRT_Event_IsReady) \
  X(PJRT_Event_Error) \
  X(PJRT_Event_Await) \
  X(PJRT_Event_OnReady) \
  X(PJRT_Client_Create) \
  X(PJRT_Client_Destroy) \
  X(PJRT_Client_PlatformName) \
  X(PJRT_Client_ProcessIndex) \
  X(PJRT_Client_PlatformVersion) \
  X(PJRT_Client_Devices) \
  X(PJRT_Client_AddressableDevices) \
  X(PJRT_Client_LookupDevice) \
  X(PJRT_Client_LookupAddressableDevice) \
  X(PJRT_Client_AddressableMemories) \
  X(PJRT_Client_Compile) \
  X(PJRT_Client_DefaultDeviceAssignment) \
  X(PJRT_Client_BufferFromHostBuffer) \
  X(PJRT_DeviceDescription_Id) \
  X(PJRT_DeviceDescription_ProcessIndex) \
  X(PJRT_DeviceDescription_Attributes) \
  X(PJRT_DeviceDescription_Kind) \
  X(PJRT_DeviceDescription_DebugString) \
  X(PJRT_DeviceDescription_ToString) \
  X(PJRT_Device_GetDescription) \
  X(PJRT_Device_IsAddressable) \
  X(PJRT_Device_LocalHardwareId) \
  X(PJRT_Device_AddressableMemories) \
  X(PJRT_Device_DefaultMemory) \
  X(PJRT_Device_MemoryStats) \
  X(PJRT_Memory_Id) \
  X(PJRT_Memory_Kind) \
  X(PJRT_Memory_DebugString) \
  X(PJRT_Memory_ToString) \
  X(PJRT_Memory_AddressableByDevices) \
  X(PJRT_Executable_Destroy) \
  X(PJRT_Executable_Name) \
  X(PJRT_Executable_NumReplicas) \
  X(PJRT_Executable_NumPartitions) \
  X(PJRT_Executable_NumOutputs) \
  X(PJRT_Executable_SizeOfGeneratedCodeInBytes) \
  X(PJRT_Executable_GetCostAnalysis) \
  X(PJRT_Executable_OutputMemoryKinds) \
  X(PJRT_Executable_OptimizedProgram) \
  X(PJRT_Executable_Serialize) \
  X(PJRT_LoadedExecutable_Destroy) \
  X(PJRT_LoadedExecutable_GetExecutable) \
  X(PJRT_LoadedExecutable_AddressableDevices) \
  X(PJRT_LoadedExecutable_Delete) \
  X(PJRT_LoadedExecutable_IsDeleted) \
  X(PJRT_LoadedExecutable_Execute) \
  X(PJRT_Executable_DeserializeAndLoad) \
  X(PJRT_LoadedExecutable_Fingerprint) \
  X(PJRT_Buffer_Destroy) \
  X(PJRT_Buffer_ElementType) \
  X(PJRT_Buffer_Dimensions) \
  X(PJRT_Buffer_UnpaddedDimensions) \
  X(PJRT_Buffer_DynamicDimensionIndices) \
  X(PJRT_Buffer_GetMemoryLayout) \
  X(PJRT_Buffer_OnDeviceSizeInBytes) \
  X(PJRT_Buffer_Device) \
  X(PJRT_Buffer_Memory) \
  X(PJRT_Buffer_Delete) \
  X(PJRT_Buffer_IsDeleted) \
  X(PJRT_Buffer_CopyToDevice) \
  X(PJRT_Buffer_ToHostBuffer) \
  X(PJRT_Buffer_IsOnCpu) \
  X(PJRT_Buffer_ReadyEvent) \
  X(PJRT_Buffer_UnsafePointer) \
  X(PJRT_Buffer_IncreaseExternalReferenceCount) \
  X(PJRT_Buffer_DecreaseExternalReferenceCount) \
  X(PJRT_Buffer_OpaqueDeviceMemoryDataPointer) \
  X(PJRT_CopyToDeviceStream_Destroy) \
  X(PJRT_CopyToDeviceStream_AddChunk) \
  X(PJRT_CopyToDeviceStream_TotalBytes) \
  X(PJRT_CopyToDeviceStream_GranuleSize) \
  X(PJRT_CopyToDeviceStream_CurrentBytes) \
  X(PJRT_TopologyDescription_Create) \
  X(PJRT_TopologyDescription_Destroy) \
  X(PJRT_TopologyDescription_PlatformName) \
  X(PJRT_TopologyDescription_PlatformVersion) \
  X(PJRT_TopologyDescription_GetDeviceDescriptions) \
  X(PJRT_TopologyDescription_Serialize) \
  X(PJRT_TopologyDescription_Attributes) \
  X(PJRT_Compile) \
  X(PJRT_Executable_OutputElementTypes) \
  X(PJRT_Executable_OutputDimensions) \
  X(PJRT_Buffer_CopyToMemory) \
  X(PJRT_Client_CreateViewOfDeviceBuffer) \
  X(PJRT_Executable_Fingerprint) \
  X(PJRT_Client_TopologyDescription) \
  X(PJRT_Executable_GetCompiledMemoryStats) \
  X(PJRT_Memory_Kind_Id) \
  X(PJRT_ExecuteContext_Create) \
  X(PJRT_ExecuteContext_Destroy) \
  X(PJRT_Buffer_CopyRawToHost) \
  X(PJRT_AsyncHostToDeviceTransferManager_Destroy) \
  X(PJRT_AsyncHostToDeviceTransferManager_TransferData) \
  X(PJRT_Client_CreateBuffersForAsyncHostToDevice) \
  X(PJRT_AsyncHostToDeviceTransferManager_RetrieveBuffer) \
  X(PJRT_AsyncHostToDeviceTransferManager_Device) \
  X(PJRT_AsyncHostToDeviceTransferManager_BufferCount) \
  X(PJRT_AsyncHostToDeviceTransferManager_BufferSize) \
  X(PJRT_AsyncHostToDeviceTransferManager_SetBufferError) \
  X(PJRT_AsyncHostToDeviceTransferManager_AddMetadata) \
  X(PJRT_Client_DmaMap) \
  X(PJRT_Client_DmaUnmap) \
  X(PJRT_Client_CreateUninitializedBuffer) \
  X(PJRT_Client_UpdateGlobalProcessInfo) \
  X(PJRT_TopologyDescription_Deserialize) \
  X(PJRT_Client_CreateAliasBuffer) \
  X(PJRT_Client_FulfillAliasBuffer) \
  X(PJRT_LoadedExecutable_GetDeviceAssignment) \
  X(PJRT_Client_CreateErrorBuffer) \
  X(PJRT_AsyncHostToDeviceTransferManager_TransferLiteral) \
  X(PJRT_Buffer_CopyRawToHostFuture) \
  X(PJRT_Device_PoisonExecution) \
  X(PJRT_Device_CreateAsyncTrackingEvent) \
  X(PJRT_AsyncTrackingEvent_Destroy) \
  X(PJRT_Executable_GetCompileOptions) \
  X(PJRT_Buffer_DonateWithControlDependency) \
  X(PJRT_Event_Create) \
  X(PJRT_Event_Set) \
  X(PJRT_Device_GetAttributes) \
  X(PJRT_Client_Load) \
  X(PJRT_LoadedExecutable_AddressableDeviceLogicalIds) \
  X(PJRT_Buffer_Bitcast) \
  X(PJRT_Error_ForEachPayload) \
  X(PJRT_TopologyDescription_Fingerprint) \
  X(PJRT_Executable_ParameterMemoryKinds) \
  X(PJRT_Device_ClearMemoryStats) \
  X(PJRT_TopologyDescription_MakeCanonicalShapeForMemorySpace) \
  X(PJRT_TopologyDescription_GetMemorySpaceKindIds)

typedef struct PJRT_Error_Destroy_Args PJRT_Error_Destroy_Args;
typedef struct PJRT_Error_Message_Args PJRT_Error_Message_Args;
#define HLOGRAPH_PJRT_DECLARE_ARGS(name) typedef struct name##_Args name##_Args;
HLOGRAPH_PJRT_ERROR_RETURNING_SLOTS(HLOGRAPH_PJRT_DECLARE_ARGS)
#undef HLOGRAPH_PJRT_DECLARE_ARGS

typedef struct PJRT_Api {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  PJRT_Api_Version pjrt_api_version;
  void (*PJRT_Error_Destroy)(PJRT_Error_Destroy_Args* args);
  void (*PJRT_Error_Message)(PJRT_Error_Message_Args* args);
#define HLOGRAPH_PJRT_SLOT(name) PJRT_Error* (*name)(name##_Args * args);
  HLOGRAPH_PJRT_ERROR_RETURNING_SLOTS(HLOGRAPH_PJRT_SLOT)
#undef HLOGRAPH_PJRT_SLOT
} PJRT_Api;

// --------------------------------------------------------- shared records

typedef struct PJRT_NamedValue {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  const char* name;
  size_t name_size;
  PJRT_NamedValue_Type type;
  union {
    const char* string_value;
    int64_t int64_value;
    const int64_t* int64_array_value;
    float float_value;
    bool bool_value;
  };
  size_t value_size;  // characters, list elements, or 1
} PJRT_NamedValue;

typedef struct PJRT_Buffer_MemoryLayout_Tiled {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  const int64_t* minor_to_major;
  size_t minor_to_major_size;
  const int64_t* tile_dims;
  const size_t* tile_dim_sizes;
  size_t num_tiles;
} PJRT_Buffer_MemoryLayout_Tiled;

typedef struct PJRT_Buffer_MemoryLayout_Strides {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  const int64_t* byte_strides;
  size_t num_byte_strides;
} PJRT_Buffer_MemoryLayout_Strides;

typedef struct PJRT_Buffer_MemoryLayout {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  union {
    PJRT_Buffer_MemoryLayout_Tiled tiled;
    PJRT_Buffer_MemoryLayout_Strides strides;
  };
  PJRT_Buffer_MemoryLayout_Type type;
} PJRT_Buffer_MemoryLayout;

typedef struct PJRT_Program {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  char* code;
  size_t code_size;
  const char* format;  // "mlir": MLIR bytecode or text; "hlo": HloModuleProto
  size_t format_size;
} PJRT_Program;

// The leading fields of the execute options, as far as hlograph reads them
// (later fields: context, call location, task ids, ...; their size is in
// struct_size).
typedef struct PJRT_ExecuteOptions {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  void* send_callbacks;  // PJRT_SendCallbackInfo**: host send/recv, not supported
  void* recv_callbacks;
  size_t num_send_ops;
  size_t num_recv_ops;
  int launch_id;
  const int64_t* non_donatable_input_indices;  // inputs the caller keeps although the program may alias them
  size_t num_non_donatable_input_indices;
} PJRT_ExecuteOptions;

// Callback types of the events and the client's key-value store.
typedef void (*PJRT_Event_OnReadyCallback)(PJRT_Error* error, void* user_arg);
typedef PJRT_Error* (*PJRT_CallbackError)(PJRT_Error_Code code, const char* message, size_t message_size);

// The client's key-value store (PJRT_Client_Create): the framework's
// callbacks, each passed its user_arg. An error is made by calling
// *callback_error, which the plugin supplies (the error is the plugin's).
typedef void (*PJRT_KeyValueGetCallback_ValueDeleter)(char* value);
typedef struct PJRT_KeyValueGetCallback_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  const char* key;
  size_t key_size;
  int timeout_in_ms;
  PJRT_CallbackError* callback_error;
  void* user_arg;
  char* value;                                                   // out
  size_t value_size;                                             // out
  PJRT_KeyValueGetCallback_ValueDeleter value_deleter_callback;  // out: frees `value`
} PJRT_KeyValueGetCallback_Args;
typedef PJRT_Error* (*PJRT_KeyValueGetCallback)(PJRT_KeyValueGetCallback_Args* args);

typedef struct PJRT_KeyValuePutCallback_Args {
  size_t struct_size;
  PJRT_Extension_Base* extension_start;
  const char* key;
  size_t key_size;
  const char* value;  // needs to live only during the call
  size_t value_size;
  PJRT_CallbackError* callback_error;
  void* user_arg;
} PJRT_KeyValuePutCallback_Args;
typedef PJRT_Error* (*PJRT_KeyValuePutCallback)(PJRT_KeyValuePutCallback_Args* args);

typedef void* PJRT_KeyValueTryGetCallback;  // never called by hlograph

// ------------------------------------------------------------ the args

#define HLOGRAPH_PJRT_ARGS_HEAD \
  size_t struct_size;           \
  PJRT_Extension_Base* extension_start

struct PJRT_Error_Destroy_Args { HLOGRAPH_PJRT_ARGS_HEAD; PJRT_Error* error; };
struct PJRT_Error_Message_Args {
  HLOGRAPH_PJRT_ARGS_HEAD;
  const PJRT_Error* error;
  const char* message;  // out, lives as long as `error`
  size_t message_size;  // out
};
struct PJRT_Error_GetCode_Args { HLOGRAPH_PJRT_ARGS_HEAD; const PJRT_Error* error; PJRT_Error_Code code; };

struct PJRT_Plugin_Initialize_Args { HLOGRAPH_PJRT_ARGS_HEAD; };
struct PJRT_Plugin_Attributes_Args {
  HLOGRAPH_PJRT_ARGS_HEAD;
  const PJRT_NamedValue* attributes;  // out, lives as long as the process
  size_t num_attributes;              // out
};

struct PJRT_Event_Destroy_Args { HLOGRAPH_PJRT_ARGS_HEAD; PJRT_Event* event; };
struct PJRT_Event_IsReady_Args { HLOGRAPH_PJRT_ARGS_HEAD; PJRT_Event* event; bool is_ready; };
struct PJRT_Event_Error_Args { HLOGRAPH_PJRT_ARGS_HEAD; PJRT_Event* event; };
struct PJRT_Event_Await_Args { HLOGRAPH_PJRT_ARGS_HEAD; PJRT_Event* event; };
struct PJRT_Event_OnReady_Args {
  HLOGRAPH_PJRT_ARGS_HEAD;
  PJRT_Event* event;
  PJRT_Event_OnReadyCallback callback;  // gets the event's error, and owns it
  void* user_arg;
};

struct PJRT_Client_Create_Args {
  HLOGRAPH_PJRT_ARGS_HEAD;
  const PJRT_NamedValue* create_options;
  size_t num_options;
  PJRT_KeyValueGetCallback kv_get_callback;  // null: no store (one process)
  void* kv_get_user_arg;
  PJRT_KeyValuePutCallback kv_put_callback;
  void* kv_put_user_arg;
  PJRT_Client* client;  // out
  PJRT_KeyValueTryGetCallback kv_try_get_callback;
  void* kv_try_get_user_arg;
};
struct PJRT_Client_Destroy_Args { HLOGRAPH_PJRT_ARGS_HEAD; PJRT_Client* client; };
struct PJRT_Client_PlatformName_Args {
  HLOGRAPH_PJRT_ARGS_HEAD;
  PJRT_Client* client;
  const char* platform_name;  // out
  size_t platform_name_size;  // out
};
struct PJRT_Client_ProcessIndex_Args { HLOGRAPH_PJRT_ARGS_HEAD; PJRT_Client* client; int process_index; };
struct PJRT_Client_PlatformVersion_Args {
  HLOGRAPH_PJRT_ARGS_HEAD;
  PJRT_Client* client;
  const char* platform_version;  // out
  size_t platform_version_size;  // out
};
struct PJRT_Client_Devices_Args {
  HLOGRAPH_PJRT_ARGS_HEAD;
  PJRT_Client* client;
  PJRT_Device* const* devices;  // out
  size_t num_devices;           // out
};
struct PJRT_Client_AddressableDevices_Args {
  HLOGRAPH_PJRT_ARGS_HEAD;
  PJRT_Client* client;
  PJRT_Device* const* addressable_devices;  // out
  size_t num_addressable_devices;           // out
};
struct PJRT_Client_LookupDevice_Args { HLOGRAPH_PJRT_ARGS_HEAD; PJRT_Client* client; int id; PJRT_Device* device; };
struct PJRT_Client_LookupAddressableDevice_Args {
  HLOGRAPH_PJRT_ARGS_HEAD;
  PJRT_Client* client;
  int local_hardware_id;
  PJRT_Device* addressable_device;  // out
};
struct PJRT_Client_AddressableMemories_Args {
  HLOGRAPH_PJRT_ARGS_HEAD;
  PJRT_Client* client;
  PJRT_Memory* const* addressable_memories;  // out
  size_t num_addressable_memories;           // out
};
struct PJRT_Client_Compile_Args {
  HLOGRAPH_PJRT_ARGS_HEAD;
  PJRT_Client* client;
  const PJRT_Program* program;
  const char* compile_options;  // a serialized CompileOptionsProto
  size_t compile_options_size;
  PJRT_LoadedExecutable* executable;  // out
};
struct PJRT_Client_DefaultDeviceAssignment_Args {
  HLOGRAPH_PJRT_ARGS_HEAD;
  PJRT_Client* client;
  int num_replicas;
  int num_partitions;
  size_t default_assignment_size;
  int* default_assignment;  // caller's array, filled replica-major
};
struct PJRT_Client_BufferFromHostBuffer_Args {
  HLOGRAPH_PJRT_ARGS_HEAD;
  PJRT_Client* client;
  const void* data;
  PJRT_Buffer_Type type;
  const int64_t* dims;
  size_t num_dims;
  const int64_t* byte_strides;  // empty: dense, row-major
  size_t num_byte_strides;
  PJRT_HostBufferSemantics host_buffer_semantics;
  PJRT_Device* device;
  PJRT_Memory* memory;  // preferred over `device` when set
  PJRT_Buffer_MemoryLayout* device_layout;
  PJRT_Event* done_with_host_buffer;  // out
  PJRT_Buffer* buffer;                // out
};

struct PJRT_DeviceDescription_Id_Args {
  HLOGRAPH_PJRT_ARGS_HEAD;
  PJRT_DeviceDescription* device_description;
  int id;  // out
};
struct PJRT_DeviceDescription_ProcessIndex_Args {
  HLOGRAPH_PJRT_ARGS_HEAD;
  PJRT_DeviceDescription* device_description;
  int process_index;  // out
};
struct PJRT_DeviceDescription_Attributes_Args {
  HLOGRAPH_PJRT_ARGS_HEAD;
  PJRT_DeviceDescription* device_description;
  size_t num_attributes;              // out
  const PJRT_NamedValue* attributes;  // out
};
struct PJRT_DeviceDescription_Kind_Args {
  HLOGRAPH_PJRT_ARGS_HEAD;
  PJRT_DeviceDescription* device_description;
  const char* device_kind;  // out
  size_t device_kind_size;  // out
};
struct PJRT_DeviceDescription_DebugString_Args {
  HLOGRAPH_PJRT_ARGS_HEAD;
  PJRT_DeviceDescription* device_description;
  const char* debug_string;  // out
  size_t debug_string_size;  // out
};
struct PJRT_DeviceDescription_ToString_Args {
  HLOGRAPH_PJRT_ARGS_HEAD;
  PJRT_DeviceDescription* device_description;
  const char* to_string;  // out
  size_t to_string_size;  // out
};

struct PJRT_Device_GetDescription_Args {
  HLOGRAPH_PJRT_ARGS_HEAD;
  PJRT_Device* device;
  PJRT_DeviceDescription* device_description;  // out
};
struct PJRT_Device_IsAddressable_Args { HLOGRAPH_PJRT_ARGS_HEAD; PJRT_Device* device; bool is_addressable; };
struct PJRT_Device_LocalHardwareId_Args { HLOGRAPH_PJRT_ARGS_HEAD; PJRT_Device* device; int local_hardware_id; };
struct PJRT_Device_AddressableMemories_Args {
  HLOGRAPH_PJRT_ARGS_HEAD;
  PJRT_Device* device;
  PJRT_Memory* const* memories;  // out
  size_t num_memories;           // out
};
struct PJRT_Device_DefaultMemory_Args { HLOGRAPH_PJRT_ARGS_HEAD; PJRT_Device* device; PJRT_Memory* memory; };
// Every field after `device` is out; each *_is_set says whether the one
// before it was filled.
struct PJRT_Device_MemoryStats_Args {
  HLOGRAPH_PJRT_ARGS_HEAD;
  PJRT_Device* device;
  int64_t bytes_in_use;
  int64_t peak_bytes_in_use;
  bool peak_bytes_in_use_is_set;
  int64_t num_allocs;
  bool num_allocs_is_set;
  int64_t largest_alloc_size;
  bool largest_alloc_size_is_set;
  int64_t bytes_limit;
  bool bytes_limit_is_set;
  int64_t bytes_reserved;
  bool bytes_reserved_is_set;
  int64_t peak_bytes_reserved;
  bool peak_bytes_reserved_is_set;
  int64_t bytes_reservable_limit;
  bool bytes_reservable_limit_is_set;
  int64_t largest_free_block_bytes;
  bool largest_free_block_bytes_is_set;
  int64_t pool_bytes;
  bool pool_bytes_is_set;
  int64_t peak_pool_bytes;
  bool peak_pool_bytes_is_set;
};
typedef struct PJRT_Device_Attributes PJRT_Device_Attributes;  // the plugin's holder of the list
struct PJRT_Device_GetAttributes_Args {
  HLOGRAPH_PJRT_ARGS_HEAD;
  PJRT_Device* device;
  const PJRT_NamedValue* attributes;                            // out
  size_t num_attributes;                                        // out
  PJRT_Device_Attributes* device_attributes;                    // out: passed to the deleter
  void (*attributes_deleter)(PJRT_Device_Attributes* attributes);  // out: the caller calls it when done
};

struct PJRT_Memory_Id_Args { HLOGRAPH_PJRT_ARGS_HEAD; PJRT_Memory* memory; int id; };
struct PJRT_Memory_Kind_Args {
  HLOGRAPH_PJRT_ARGS_HEAD;
  PJRT_Memory* memory;
  const char* kind;  // out
  size_t kind_size;  // out
};
struct PJRT_Memory_Kind_Id_Args { HLOGRAPH_PJRT_ARGS_HEAD; PJRT_Memory* memory; int kind_id; };
struct PJRT_Memory_DebugString_Args {
  HLOGRAPH_PJRT_ARGS_HEAD;
  PJRT_Memory* memory;
  const char* debug_string;  // out
  size_t debug_string_size;  // out
};
struct PJRT_Memory_ToString_Args {
  HLOGRAPH_PJRT_ARGS_HEAD;
  PJRT_Memory* memory;
  const char* to_string;  // out
  size_t to_string_size;  // out
};
struct PJRT_Memory_AddressableByDevices_Args {
  HLOGRAPH_PJRT_ARGS_HEAD;
  PJRT_Memory* memory;
  PJRT_Device* const* devices;  // out
  size_t num_devices;           // out
};

struct PJRT_Executable_Destroy_Args { HLOGRAPH_PJRT_ARGS_HEAD; PJRT_Executable* executable; };
struct PJRT_Executable_Name_Args {
  HLOGRAPH_PJRT_ARGS_HEAD;
  PJRT_Executable* executable;
  const char* executable_name;  // out
  size_t executable_name_size;  // out
};
struct PJRT_Executable_NumReplicas_Args { HLOGRAPH_PJRT_ARGS_HEAD; PJRT_Executable* executable; size_t num_replicas; };
struct PJRT_Executable_NumPartitions_Args {
  HLOGRAPH_PJRT_ARGS_HEAD;
  PJRT_Executable* executable;
  size_t num_partitions;  // out
};
struct PJRT_Executable_NumOutputs_Args { HLOGRAPH_PJRT_ARGS_HEAD; PJRT_Executable* executable; size_t num_outputs; };
struct PJRT_Executable_OutputElementTypes_Args {
  HLOGRAPH_PJRT_ARGS_HEAD;
  PJRT_Executable* executable;
  PJRT_Buffer_Type* output_types;  // out
  size_t num_output_types;         // out
};
struct PJRT_Executable_OutputDimensions_Args {
  HLOGRAPH_PJRT_ARGS_HEAD;
  PJRT_Executable* executable;
  size_t num_outputs;        // out
  const int64_t* dims;       // out: every output's dimensions, concatenated
  const size_t* dim_sizes;   // out: each output's rank
};
struct PJRT_Executable_OutputMemoryKinds_Args {
  HLOGRAPH_PJRT_ARGS_HEAD;
  PJRT_Executable* executable;
  size_t num_outputs;               // out
  const char* const* memory_kinds;  // out
  const size_t* memory_kind_sizes;  // out
};
// The compiled program: format and code set by the plugin; with code null
// the call only sets code_size, else it copies the code there.
struct PJRT_Executable_OptimizedProgram_Args {
  HLOGRAPH_PJRT_ARGS_HEAD;
  PJRT_Executable* executable;
  PJRT_Program* program;  // in/out
};
struct PJRT_Executable_Fingerprint_Args {
  HLOGRAPH_PJRT_ARGS_HEAD;
  PJRT_Executable* executable;
  const char* executable_fingerprint;  // out
  size_t executable_fingerprint_size;  // out
};

struct PJRT_LoadedExecutable_Destroy_Args { HLOGRAPH_PJRT_ARGS_HEAD; PJRT_LoadedExecutable* executable; };
struct PJRT_LoadedExecutable_GetExecutable_Args {
  HLOGRAPH_PJRT_ARGS_HEAD;
  PJRT_LoadedExecutable* loaded_executable;
  PJRT_Executable* executable;  // out, destroyed by the caller
};
struct PJRT_LoadedExecutable_AddressableDevices_Args {
  HLOGRAPH_PJRT_ARGS_HEAD;
  PJRT_LoadedExecutable* executable;
  PJRT_Device* const* addressable_devices;  // out
  size_t num_addressable_devices;           // out
};
typedef struct PJRT_LogicalDeviceIds {
  int replica;
  int partition;
} PJRT_LogicalDeviceIds;
struct PJRT_LoadedExecutable_AddressableDeviceLogicalIds_Args {
  HLOGRAPH_PJRT_ARGS_HEAD;
  PJRT_LoadedExecutable* executable;
  PJRT_LogicalDeviceIds* addressable_device_logical_ids;  // out, one per addressable device
  size_t num_addressable_device_logical_ids;              // out
};
typedef struct PJRT_DeviceAssignmentSerialized PJRT_DeviceAssignmentSerialized;
struct PJRT_LoadedExecutable_GetDeviceAssignment_Args {
  HLOGRAPH_PJRT_ARGS_HEAD;
  PJRT_LoadedExecutable* executable;
  const char* serialized_bytes;  // out: a serialized xla.DeviceAssignmentProto
  size_t serialized_bytes_size;  // out
  PJRT_DeviceAssignmentSerialized* serialized_device_assignment;  // out: passed to the deleter
  void (*serialized_device_assignment_deleter)(PJRT_DeviceAssignmentSerialized* assignment);  // out
};
struct PJRT_LoadedExecutable_Delete_Args { HLOGRAPH_PJRT_ARGS_HEAD; PJRT_LoadedExecutable* executable; };
struct PJRT_LoadedExecutable_IsDeleted_Args {
  HLOGRAPH_PJRT_ARGS_HEAD;
  PJRT_LoadedExecutable* executable;
  bool is_deleted;  // out
};
struct PJRT_LoadedExecutable_Execute_Args {
  HLOGRAPH_PJRT_ARGS_HEAD;
  PJRT_LoadedExecutable* executable;
  PJRT_ExecuteOptions* options;
  PJRT_Buffer* const* const* argument_lists;  // [num_devices][num_args]
  size_t num_devices;
  size_t num_args;
  PJRT_Buffer** const* output_lists;    // [num_devices][num_outputs], arrays owned by the caller
  PJRT_Event** device_complete_events;  // [num_devices] or null
  PJRT_Device* execute_device;          // null: the devices chosen at compile time
};

struct PJRT_Buffer_Destroy_Args { HLOGRAPH_PJRT_ARGS_HEAD; PJRT_Buffer* buffer; };
struct PJRT_Buffer_ElementType_Args { HLOGRAPH_PJRT_ARGS_HEAD; PJRT_Buffer* buffer; PJRT_Buffer_Type type; };
struct PJRT_Buffer_Dimensions_Args {
  HLOGRAPH_PJRT_ARGS_HEAD;
  PJRT_Buffer* buffer;
  const int64_t* dims;  // out
  size_t num_dims;      // out
};
struct PJRT_Buffer_UnpaddedDimensions_Args {
  HLOGRAPH_PJRT_ARGS_HEAD;
  PJRT_Buffer* buffer;
  const int64_t* unpadded_dims;  // out
  size_t num_dims;               // out
};
struct PJRT_Buffer_DynamicDimensionIndices_Args {
  HLOGRAPH_PJRT_ARGS_HEAD;
  PJRT_Buffer* buffer;
  const size_t* dynamic_dim_indices;  // out
  size_t num_dynamic_dims;            // out
};
struct PJRT_Buffer_OnDeviceSizeInBytes_Args {
  HLOGRAPH_PJRT_ARGS_HEAD;
  PJRT_Buffer* buffer;
  size_t on_device_size_in_bytes;  // out
};
struct PJRT_Buffer_Device_Args { HLOGRAPH_PJRT_ARGS_HEAD; PJRT_Buffer* buffer; PJRT_Device* device; };
struct PJRT_Buffer_Memory_Args { HLOGRAPH_PJRT_ARGS_HEAD; PJRT_Buffer* buffer; PJRT_Memory* memory; };
struct PJRT_Buffer_Delete_Args { HLOGRAPH_PJRT_ARGS_HEAD; PJRT_Buffer* buffer; };
struct PJRT_Buffer_IsDeleted_Args { HLOGRAPH_PJRT_ARGS_HEAD; PJRT_Buffer* buffer; bool is_deleted; };
struct PJRT_Buffer_ToHostBuffer_Args {
  HLOGRAPH_PJRT_ARGS_HEAD;
  PJRT_Buffer* src;
  PJRT_Buffer_MemoryLayout* host_layout;  // null: the buffer's own (row-major)
  void* dst;                              // null: only report dst_size
  size_t dst_size;                        // in/out
  PJRT_Event* event;                      // out
};
struct PJRT_Buffer_IsOnCpu_Args { HLOGRAPH_PJRT_ARGS_HEAD; PJRT_Buffer* buffer; bool is_on_cpu; };
struct PJRT_Buffer_ReadyEvent_Args { HLOGRAPH_PJRT_ARGS_HEAD; PJRT_Buffer* buffer; PJRT_Event* event; };
struct PJRT_Buffer_CopyToDevice_Args {
  HLOGRAPH_PJRT_ARGS_HEAD;
  PJRT_Buffer* buffer;
  PJRT_Device* dst_device;
  PJRT_Buffer* dst_buffer;  // out, destroyed by the caller
};
struct PJRT_Buffer_CopyToMemory_Args {
  HLOGRAPH_PJRT_ARGS_HEAD;
  PJRT_Buffer* buffer;
  PJRT_Memory* dst_memory;
  PJRT_Buffer* dst_buffer;  // out, destroyed by the caller
};
struct PJRT_Buffer_UnsafePointer_Args { HLOGRAPH_PJRT_ARGS_HEAD; PJRT_Buffer* buffer; uintptr_t buffer_pointer; };

#undef HLOGRAPH_PJRT_ARGS_HEAD

// The plugin's one exported symbol.
const PJRT_Api* GetPjrtApi(void);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif  // HLOGRAPH_PJRT_PJRT_C_API_H_
