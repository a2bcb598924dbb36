#include "backends/gpu/runtime/cudnn_convolution.h"

#include <cudnn.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <map>
#include <mutex>
#include <numeric>

#include "backends/gpu/runtime/cache_file.h"
#include "backends/gpu/runtime/cuda_status.h"
#include "backends/gpu/runtime/device.h"
#include "backends/gpu/runtime/device_memory.h"
#include "ir/float_bits.h"

namespace hlograph::gpu {
namespace {

using ir::ElementType;

// How many of cuDNN's proposals (in its order) are built and timed.
constexpr int kCandidates = 8;
// Engines wanting more scratch than this are passed over.
constexpr int64_t kMaxWorkspace = int64_t{256} << 20;
// Every buffer the plan hands a convolution is aligned this well.
constexpr int64_t kAlignment = 16;

// The operation descriptor of each direction and its attributes for the
// forward convolution's x, w and y (dx, dw, dy where it writes or reads
// gradients).
struct OperationAttributes {
  cudnnBackendDescriptorType_t type;
  cudnnBackendAttributeName_t x, w, y, conv, alpha, beta;
};

OperationAttributes AttributesOf(ConvKind kind) {
  switch (kind) {
    case ConvKind::kBackwardData:
      return {CUDNN_BACKEND_OPERATION_CONVOLUTION_BACKWARD_DATA_DESCRIPTOR,
              CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_DX,        CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_W,
              CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_DY,        CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_CONV_DESC,
              CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_ALPHA,     CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_DATA_BETA};
    case ConvKind::kBackwardFilter:
      return {CUDNN_BACKEND_OPERATION_CONVOLUTION_BACKWARD_FILTER_DESCRIPTOR,
              CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_X,       CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_DW,
              CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_DY,      CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_CONV_DESC,
              CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_ALPHA,   CUDNN_ATTR_OPERATION_CONVOLUTION_BWD_FILTER_BETA};
    case ConvKind::kForward:
      break;
  }
  return {CUDNN_BACKEND_OPERATION_CONVOLUTION_FORWARD_DESCRIPTOR,
          CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_X,     CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_W,
          CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_Y,     CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_CONV_DESC,
          CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_ALPHA, CUDNN_ATTR_OPERATION_CONVOLUTION_FORWARD_BETA};
}

// Unique ids of the graph's tensors in the variant pack; an epilogue's
// operands and intermediate values count up from kEpilogueOperand and
// kEpilogueValue.
enum TensorId : int64_t { kX = 1, kW = 2, kY = 3, kConvOut = 4, kEpilogueOperand = 100, kEpilogueValue = 200 };

Status DnnStatus(cudnnStatus_t status, const std::string& call) {
  if (status == CUDNN_STATUS_SUCCESS) return Status::Ok();
  const char* description = cudnnGetErrorString(status);
  return Status::Error(call + " failed: " + (description != nullptr ? description : "unknown cuDNN error") +
                       " (cudnnStatus " + std::to_string(static_cast<int>(status)) + ")");
}

#define HLOGRAPH_CUDNN(call) HLOGRAPH_TRY(DnnStatus((call), #call))

cudnnDataType_t DataType(ElementType t) {
  switch (t) {
    case ElementType::kF64: return CUDNN_DATA_DOUBLE;
    case ElementType::kF16: return CUDNN_DATA_HALF;
    case ElementType::kBF16: return CUDNN_DATA_BFLOAT16;
    default: return CUDNN_DATA_FLOAT;
  }
}

// A backend descriptor, destroyed with its owner.
class Desc {
 public:
  Desc() = default;
  Desc(const Desc&) = delete;
  Desc& operator=(const Desc&) = delete;
  Desc(Desc&& other) noexcept : d_(other.d_) { other.d_ = nullptr; }
  Desc& operator=(Desc&& other) noexcept {
    std::swap(d_, other.d_);
    return *this;
  }
  ~Desc() {
    if (d_ != nullptr) (void)cudnnBackendDestroyDescriptor(d_);
  }
  static StatusOr<Desc> Make(cudnnBackendDescriptorType_t type) {
    Desc d;
    HLOGRAPH_CUDNN(cudnnBackendCreateDescriptor(type, &d.d_));
    return d;
  }
  cudnnBackendDescriptor_t get() const { return d_; }
  Status Set(cudnnBackendAttributeName_t name, cudnnBackendAttributeType_t type, int64_t count, const void* values,
             const char* what) {
    return DnnStatus(cudnnBackendSetAttribute(d_, name, type, count, values),
                     std::string("cudnnBackendSetAttribute(") + what + ")");
  }
  Status SetDesc(cudnnBackendAttributeName_t name, const Desc& value, const char* what) {
    cudnnBackendDescriptor_t v = value.get();
    return Set(name, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &v, what);
  }
  Status SetInts(cudnnBackendAttributeName_t name, const std::vector<int64_t>& v, const char* what) {
    return Set(name, CUDNN_TYPE_INT64, static_cast<int64_t>(v.size()), v.data(), what);
  }
  Status Finalize(const char* what) {
    return DnnStatus(cudnnBackendFinalize(d_), std::string("cudnnBackendFinalize(") + what + ")");
  }

 private:
  cudnnBackendDescriptor_t d_ = nullptr;
};

// The handle attributes are deprecated in cuDNN 9 but still honoured; by
// value, so that the deprecation does not warn.
constexpr auto kOperationGraphHandle = static_cast<cudnnBackendAttributeName_t>(800);
constexpr auto kExecutionPlanHandle = static_cast<cudnnBackendAttributeName_t>(400);

StatusOr<Desc> MakeTensor(int64_t id, ElementType type, const std::vector<int64_t>& dims,
                          const std::vector<int64_t>& strides, bool is_virtual) {
  HLOGRAPH_ASSIGN(Desc t, Desc::Make(CUDNN_BACKEND_TENSOR_DESCRIPTOR));
  const cudnnDataType_t dt = DataType(type);
  HLOGRAPH_TRY(t.Set(CUDNN_ATTR_TENSOR_DATA_TYPE, CUDNN_TYPE_DATA_TYPE, 1, &dt, "tensor type"));
  HLOGRAPH_TRY(t.SetInts(CUDNN_ATTR_TENSOR_DIMENSIONS, dims, "tensor dims"));
  HLOGRAPH_TRY(t.SetInts(CUDNN_ATTR_TENSOR_STRIDES, strides, "tensor strides"));
  HLOGRAPH_TRY(t.Set(CUDNN_ATTR_TENSOR_UNIQUE_ID, CUDNN_TYPE_INT64, 1, &id, "tensor id"));
  HLOGRAPH_TRY(t.Set(CUDNN_ATTR_TENSOR_BYTE_ALIGNMENT, CUDNN_TYPE_INT64, 1, &kAlignment, "tensor alignment"));
  const bool v = is_virtual;
  HLOGRAPH_TRY(t.Set(CUDNN_ATTR_TENSOR_IS_VIRTUAL, CUDNN_TYPE_BOOLEAN, 1, &v, "tensor virtual"));
  HLOGRAPH_TRY(t.Finalize("tensor"));
  return t;
}

// Engines from cuDNN's notes: whether one may serve this convolution.
struct EngineNotes {
  bool nondeterministic = false, tensor_cores = false, down_converts = false;
};

StatusOr<EngineNotes> NotesOf(const Desc& config) {
  HLOGRAPH_ASSIGN(Desc engine, Desc::Make(CUDNN_BACKEND_ENGINE_DESCRIPTOR));
  cudnnBackendDescriptor_t e = engine.get();
  int64_t count = 0;
  HLOGRAPH_CUDNN(cudnnBackendGetAttribute(config.get(), CUDNN_ATTR_ENGINECFG_ENGINE, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1,
                                          &count, &e));
  cudnnBackendNumericalNote_t notes[CUDNN_NUMERICAL_NOTE_TYPE_COUNT];
  HLOGRAPH_CUDNN(cudnnBackendGetAttribute(e, CUDNN_ATTR_ENGINE_NUMERICAL_NOTE, CUDNN_TYPE_NUMERICAL_NOTE,
                                          CUDNN_NUMERICAL_NOTE_TYPE_COUNT, &count, notes));
  EngineNotes n;
  for (int64_t i = 0; i < count; ++i) {
    n.nondeterministic |= notes[i] == CUDNN_NUMERICAL_NOTE_NONDETERMINISTIC;
    n.tensor_cores |= notes[i] == CUDNN_NUMERICAL_NOTE_TENSOR_CORE;
    n.down_converts |= notes[i] == CUDNN_NUMERICAL_NOTE_DOWN_CONVERT_INPUTS;
  }
  return n;
}

// cuDNN's proposals for `graph`, in its order of preference.
StatusOr<std::vector<Desc>> Proposals(const Desc& graph, cudnnBackendHeurMode_t mode) {
  HLOGRAPH_ASSIGN(Desc heur, Desc::Make(CUDNN_BACKEND_ENGINEHEUR_DESCRIPTOR));
  HLOGRAPH_TRY(heur.SetDesc(CUDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH, graph, "heuristics graph"));
  HLOGRAPH_TRY(heur.Set(CUDNN_ATTR_ENGINEHEUR_MODE, CUDNN_TYPE_HEUR_MODE, 1, &mode, "heuristics mode"));
  HLOGRAPH_TRY(heur.Finalize("heuristics"));
  int64_t count = 0;
  HLOGRAPH_CUDNN(cudnnBackendGetAttribute(heur.get(), CUDNN_ATTR_ENGINEHEUR_RESULTS, CUDNN_TYPE_BACKEND_DESCRIPTOR, 0,
                                          &count, nullptr));
  std::vector<Desc> configs;
  std::vector<cudnnBackendDescriptor_t> raw;
  for (int64_t i = 0; i < count; ++i) {
    HLOGRAPH_ASSIGN(Desc c, Desc::Make(CUDNN_BACKEND_ENGINECFG_DESCRIPTOR));
    raw.push_back(c.get());
    configs.push_back(std::move(c));
  }
  if (count > 0) {
    HLOGRAPH_CUDNN(cudnnBackendGetAttribute(heur.get(), CUDNN_ATTR_ENGINEHEUR_RESULTS, CUDNN_TYPE_BACKEND_DESCRIPTOR,
                                            count, &count, raw.data()));
    configs.resize(static_cast<size_t>(count));
  }
  return configs;
}

// The choice made for a convolution on a device: which of cuDNN's
// proposals (its place in the heuristics' order, which depends only on the
// graph, the GPU and cuDNN's version) won the timing. Kept for the process
// and in the on-disk cache, so that a program compiled again, in this
// process or another, builds and times only that engine.
std::mutex& ChoiceMutex() {
  static std::mutex m;
  return m;
}
std::map<std::string, int>& Choices() {
  static std::map<std::string, int> choices;
  return choices;
}

const std::string kChoiceMagic = "HLGDNN01";  // cache entries holding an engine choice

std::filesystem::path ChoicePath(const std::string& key, Digest& digest) {
  const std::filesystem::path dir = CacheDirectory();
  if (dir.empty()) return {};
  Sha256 h;
  h.UpdateField("hlograph cudnn engine choice v1");
  h.UpdateField(std::to_string(cudnnGetVersion()));
  h.UpdateField(key);
  digest = h.Finish();
  return CacheEntryPath(dir, "cudnn", digest, ".choice");
}

int RememberedChoice(const std::string& key) {
  {
    std::lock_guard<std::mutex> lock(ChoiceMutex());
    const auto it = Choices().find(key);
    if (it != Choices().end()) return it->second;
  }
  Digest digest{};
  const std::filesystem::path path = ChoicePath(key, digest);
  if (path.empty()) return -1;
  const std::optional<std::string> entry = ReadCacheEntry(path, kChoiceMagic, digest);
  if (!entry || entry->empty() || entry->size() > 4 ||
      !std::all_of(entry->begin(), entry->end(), [](char ch) { return ch >= '0' && ch <= '9'; })) {
    return -1;
  }
  return std::stoi(*entry);
}

void RememberChoice(const std::string& key, int place) {
  {
    std::lock_guard<std::mutex> lock(ChoiceMutex());
    Choices()[key] = place;
  }
  Digest digest{};
  const std::filesystem::path path = ChoicePath(key, digest);
  if (!path.empty()) WriteCacheEntry(path, kChoiceMagic, digest, std::to_string(place));
}

}  // namespace

StatusOr<std::shared_ptr<DnnHandle>> DnnHandle::Create() {
  cudnnHandle_t handle = nullptr;
  HLOGRAPH_CUDNN(cudnnCreate(&handle));
  std::shared_ptr<DnnHandle> result(new DnnHandle());
  result->handle_ = handle;
  return result;
}

DnnHandle::~DnnHandle() {
  if (handle_ != nullptr) (void)cudnnDestroy(handle_);
}

struct ConvPlan::Graph {
  std::vector<Desc> keep;  // tensors, operations and the graph the plan refers to
  Desc plan;
  // The last call's variant pack and the addresses it binds (x, w, y,
  // workspace): calls with the same buffers, most of them, reuse it.
  std::mutex pack_mutex;
  Desc pack;
  std::vector<void*> bound;
  int64_t workspace = 0;
  std::string engine;
};

namespace {

// Appends the pointwise op `mode` (y = x mode b, or y = mode(x)) to `ops`.
Status AddPointwise(cudnnPointwiseMode_t mode, cudnnDataType_t compute, const Desc& x, const Desc* b, const Desc& y,
                    std::vector<Desc>& keep, std::vector<cudnnBackendDescriptor_t>& ops) {
  HLOGRAPH_ASSIGN(Desc pw, Desc::Make(CUDNN_BACKEND_POINTWISE_DESCRIPTOR));
  HLOGRAPH_TRY(pw.Set(CUDNN_ATTR_POINTWISE_MODE, CUDNN_TYPE_POINTWISE_MODE, 1, &mode, "pointwise mode"));
  HLOGRAPH_TRY(pw.Set(CUDNN_ATTR_POINTWISE_MATH_PREC, CUDNN_TYPE_DATA_TYPE, 1, &compute, "pointwise precision"));
  HLOGRAPH_TRY(pw.Finalize("pointwise"));
  HLOGRAPH_ASSIGN(Desc op, Desc::Make(CUDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR));
  HLOGRAPH_TRY(op.SetDesc(CUDNN_ATTR_OPERATION_POINTWISE_PW_DESCRIPTOR, pw, "pointwise descriptor"));
  HLOGRAPH_TRY(op.SetDesc(CUDNN_ATTR_OPERATION_POINTWISE_XDESC, x, "pointwise x"));
  if (b != nullptr) HLOGRAPH_TRY(op.SetDesc(CUDNN_ATTR_OPERATION_POINTWISE_BDESC, *b, "pointwise b"));
  HLOGRAPH_TRY(op.SetDesc(CUDNN_ATTR_OPERATION_POINTWISE_YDESC, y, "pointwise y"));
  HLOGRAPH_TRY(op.Finalize("pointwise operation"));
  ops.push_back(op.get());
  keep.push_back(std::move(pw));
  keep.push_back(std::move(op));
  return Status::Ok();
}

cudnnPointwiseMode_t ModeOf(ConvPointwise op) {
  switch (op) {
    case ConvPointwise::kSubtract: return CUDNN_POINTWISE_SUB;
    case ConvPointwise::kMultiply: return CUDNN_POINTWISE_MUL;
    case ConvPointwise::kRelu: return CUDNN_POINTWISE_RELU_FWD;
    case ConvPointwise::kAdd: break;
  }
  return CUDNN_POINTWISE_ADD;
}

// What an epilogue operand is to cuDNN: y's dims and strides, or a vector
// along its channels (every other dim 1).
ConvTensor EpilogueOperand(const ConvConfig& c, const ConvEpilogueOp& e) {
  ConvTensor t;
  t.type = e.type;
  if (e.operand == ConvOperand::kTensor) {
    t.dims = c.y.dims;
    t.strides = c.y.strides;
    return t;
  }
  const int64_t k = c.y.dims[1];
  t.dims.assign(c.y.dims.size(), 1);
  t.dims[1] = k;
  t.strides.assign(c.y.dims.size(), k);
  t.strides[1] = 1;
  return t;
}

// The operation graph of `c`: the convolution alone, or writing f32 into a
// virtual tensor that its epilogue, or (`cast`) an identity pointwise op
// for engines that only write their input type, stores in y's type.
Status BuildGraph(const ConvConfig& c, cudnnHandle_t handle, bool cast, std::vector<Desc>& keep, Desc& graph) {
  const ConvTensor& out = c.result();
  const int64_t out_id = c.kind == ConvKind::kForward ? kY : c.kind == ConvKind::kBackwardData ? kX : kW;
  const bool f64 = c.x.type == ElementType::kF64;
  const ElementType accumulate = f64 ? ElementType::kF64 : ElementType::kF32;
  const bool chained = cast || !c.epilogue.empty();
  // `keep` holds what the descriptors point to: it must not reallocate.
  keep.reserve(16 + 4 * c.epilogue.size());
  auto add = [&](StatusOr<Desc> d) -> StatusOr<const Desc*> {
    if (!d.ok()) return d.status();
    keep.push_back(std::move(*d));
    return &keep.back();
  };
  auto tensor = [&](int64_t id, const ConvTensor& t) -> StatusOr<const Desc*> {
    const bool written = id == out_id;
    return add(written && chained ? MakeTensor(kConvOut, accumulate, t.dims, t.strides, true)
                                  : MakeTensor(id, t.type, t.dims, t.strides, false));
  };
  HLOGRAPH_ASSIGN(const Desc* x, tensor(kX, c.x));
  HLOGRAPH_ASSIGN(const Desc* w, tensor(kW, c.w));
  HLOGRAPH_ASSIGN(const Desc* y, tensor(kY, c.y));

  HLOGRAPH_ASSIGN(Desc conv, Desc::Make(CUDNN_BACKEND_CONVOLUTION_DESCRIPTOR));
  const cudnnDataType_t compute = DataType(accumulate);
  const cudnnConvolutionMode_t mode = CUDNN_CROSS_CORRELATION;
  const int64_t spatial = c.spatial_rank();
  HLOGRAPH_TRY(conv.Set(CUDNN_ATTR_CONVOLUTION_COMP_TYPE, CUDNN_TYPE_DATA_TYPE, 1, &compute, "conv compute type"));
  HLOGRAPH_TRY(conv.Set(CUDNN_ATTR_CONVOLUTION_CONV_MODE, CUDNN_TYPE_CONVOLUTION_MODE, 1, &mode, "conv mode"));
  HLOGRAPH_TRY(conv.Set(CUDNN_ATTR_CONVOLUTION_SPATIAL_DIMS, CUDNN_TYPE_INT64, 1, &spatial, "conv spatial dims"));
  HLOGRAPH_TRY(conv.SetInts(CUDNN_ATTR_CONVOLUTION_PRE_PADDINGS, c.pre_padding, "conv pre paddings"));
  HLOGRAPH_TRY(conv.SetInts(CUDNN_ATTR_CONVOLUTION_POST_PADDINGS, c.post_padding, "conv post paddings"));
  HLOGRAPH_TRY(conv.SetInts(CUDNN_ATTR_CONVOLUTION_FILTER_STRIDES, c.strides, "conv strides"));
  HLOGRAPH_TRY(conv.SetInts(CUDNN_ATTR_CONVOLUTION_DILATIONS, c.dilations, "conv dilations"));
  HLOGRAPH_TRY(conv.Finalize("convolution"));

  // Scales in the accumulation type (double for f64 data).
  const double one64 = 1.0, zero64 = 0.0;
  const float one32 = 1.0f, zero32 = 0.0f;
  const cudnnBackendAttributeType_t scale = f64 ? CUDNN_TYPE_DOUBLE : CUDNN_TYPE_FLOAT;
  const void* one = f64 ? static_cast<const void*>(&one64) : &one32;
  const void* zero = f64 ? static_cast<const void*>(&zero64) : &zero32;
  std::vector<cudnnBackendDescriptor_t> ops;
  const OperationAttributes a = AttributesOf(c.kind);
  HLOGRAPH_ASSIGN(Desc op, Desc::Make(a.type));
  HLOGRAPH_TRY(op.SetDesc(a.x, *x, "operation x"));
  HLOGRAPH_TRY(op.SetDesc(a.w, *w, "operation w"));
  HLOGRAPH_TRY(op.SetDesc(a.y, *y, "operation y"));
  HLOGRAPH_TRY(op.SetDesc(a.conv, conv, "operation convolution"));
  HLOGRAPH_TRY(op.Set(a.alpha, scale, 1, one, "operation alpha"));
  HLOGRAPH_TRY(op.Set(a.beta, scale, 1, zero, "operation beta"));
  HLOGRAPH_TRY(op.Finalize("convolution operation"));
  ops.push_back(op.get());
  keep.push_back(std::move(conv));
  keep.push_back(std::move(op));
  if (chained) {
    const Desc* value = out_id == kX ? x : out_id == kW ? w : y;  // the accumulated result
    const size_t n = c.epilogue.size();
    int64_t operands = 0;
    for (size_t i = 0; i < std::max<size_t>(n, 1); ++i) {
      const bool last = i + 1 >= n;
      HLOGRAPH_ASSIGN(const Desc* next, add(last ? MakeTensor(out_id, out.type, out.dims, out.strides, false)
                                                 : MakeTensor(kEpilogueValue + static_cast<int64_t>(i), accumulate,
                                                              out.dims, out.strides, true)));
      if (n == 0) {  // the cast
        HLOGRAPH_TRY(AddPointwise(CUDNN_POINTWISE_IDENTITY, compute, *value, nullptr, *next, keep, ops));
        break;
      }
      const ConvEpilogueOp& e = c.epilogue[i];
      const Desc* b = nullptr;
      if (e.operand != ConvOperand::kNone) {
        const ConvTensor t = EpilogueOperand(c, e);
        HLOGRAPH_ASSIGN(b, add(MakeTensor(kEpilogueOperand + operands++, t.type, t.dims, t.strides, false)));
      }
      HLOGRAPH_TRY(AddPointwise(ModeOf(e.op), compute, *value, b, *next, keep, ops));
      value = next;
    }
  }
  HLOGRAPH_ASSIGN(graph, Desc::Make(CUDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR));
  HLOGRAPH_TRY(graph.Set(CUDNN_ATTR_OPERATIONGRAPH_OPS, CUDNN_TYPE_BACKEND_DESCRIPTOR,
                         static_cast<int64_t>(ops.size()), ops.data(), "graph ops"));
  HLOGRAPH_TRY(graph.Set(kOperationGraphHandle, CUDNN_TYPE_HANDLE, 1, &handle, "graph handle"));
  return graph.Finalize("operation graph");
}

StatusOr<Desc> MakePlan(const Desc& config, cudnnHandle_t handle) {
  HLOGRAPH_ASSIGN(Desc plan, Desc::Make(CUDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR));
  HLOGRAPH_TRY(plan.SetDesc(CUDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG, config, "plan engine"));
  HLOGRAPH_TRY(plan.Set(kExecutionPlanHandle, CUDNN_TYPE_HANDLE, 1, &handle, "plan handle"));
  HLOGRAPH_TRY(plan.Finalize("execution plan"));
  return plan;
}

StatusOr<int64_t> WorkspaceOf(const Desc& plan) {
  int64_t bytes = 0, count = 0;
  HLOGRAPH_CUDNN(cudnnBackendGetAttribute(plan.get(), CUDNN_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE, CUDNN_TYPE_INT64, 1,
                                          &count, &bytes));
  return bytes;
}

// The addresses a run binds: x, w, y, the epilogue's operands, then the
// workspace.
using Binding = std::vector<void*>;

// The variant pack binding the graph's tensors to these addresses.
StatusOr<Desc> MakePack(const Binding& bind) {
  HLOGRAPH_ASSIGN(Desc pack, Desc::Make(CUDNN_BACKEND_VARIANT_PACK_DESCRIPTOR));
  std::vector<int64_t> ids = {kX, kW, kY};
  for (size_t i = 3; i + 1 < bind.size(); ++i) ids.push_back(kEpilogueOperand + static_cast<int64_t>(i - 3));
  std::vector<void*> pointers(bind.begin(), bind.end() - 1);
  void* workspace = bind.back();
  const auto n = static_cast<int64_t>(ids.size());
  HLOGRAPH_TRY(pack.Set(CUDNN_ATTR_VARIANT_PACK_UNIQUE_IDS, CUDNN_TYPE_INT64, n, ids.data(), "variant ids"));
  HLOGRAPH_TRY(pack.Set(CUDNN_ATTR_VARIANT_PACK_DATA_POINTERS, CUDNN_TYPE_VOID_PTR, n, pointers.data(), "variant pointers"));
  HLOGRAPH_TRY(pack.Set(CUDNN_ATTR_VARIANT_PACK_WORKSPACE, CUDNN_TYPE_VOID_PTR, 1, &workspace, "variant workspace"));
  HLOGRAPH_TRY(pack.Finalize("variant pack"));
  return pack;
}

Status Execute(cudnnHandle_t handle, const Desc& plan, const Binding& bind) {
  HLOGRAPH_ASSIGN(const Desc pack, MakePack(bind));
  return DnnStatus(cudnnBackendExecute(handle, plan.get(), pack.get()), "cudnnBackendExecute");
}

// Milliseconds per run of `plan` on the scratch buffers (the best of three).
StatusOr<float> Time(cudnnHandle_t handle, const Desc& plan, const Binding& bind, cudaStream_t stream) {
  HLOGRAPH_TRY(Execute(handle, plan, bind));  // warm-up (and any lazy set-up)
  cudaEvent_t start = nullptr, stop = nullptr;
  HLOGRAPH_CUDA(cudaEventCreate(&start));
  HLOGRAPH_CUDA(cudaEventCreate(&stop));
  float best = -1;
  Status status = Status::Ok();
  for (int rep = 0; rep < 3 && status.ok(); ++rep) {
    float ms = 0;
    if (cudaEventRecord(start, stream) != cudaSuccess) break;
    status = Execute(handle, plan, bind);
    if (!status.ok() || cudaEventRecord(stop, stream) != cudaSuccess || cudaEventSynchronize(stop) != cudaSuccess ||
        cudaEventElapsedTime(&ms, start, stop) != cudaSuccess) {
      break;
    }
    best = best < 0 ? ms : std::min(best, ms);
  }
  (void)cudaEventDestroy(start);
  (void)cudaEventDestroy(stop);
  HLOGRAPH_TRY(status);
  if (best < 0) return Status::Error("timing a cuDNN engine failed");
  return best;
}

// Scratch operands for choosing an engine: a tensor's span of small
// pseudo-random values (constant bytes would hide an engine that reads the
// wrong elements, and zeros would also run cooler).
StatusOr<DeviceBuffer> RandomScratch(const ConvTensor& t, uint64_t seed, cudaStream_t stream) {
  const int64_t n = std::max<int64_t>(t.span(), 1);
  const int bytes = ir::StorageBytes(t.type);
  std::vector<unsigned char> host(static_cast<size_t>(n * bytes));
  uint64_t state = seed * 0x9E3779B97F4A7C15ull + 1;
  for (int64_t i = 0; i < n; ++i) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    const double v = static_cast<double>(static_cast<int64_t>(state >> 40) % 17 - 8) / 8.0;  // -1 .. 1 in eighths
    const uint64_t bits = ir::DoubleToFloatBits(v, t.type);
    std::memcpy(&host[static_cast<size_t>(i * bytes)], &bits, static_cast<size_t>(bytes));  // little-endian
  }
  HLOGRAPH_ASSIGN(DeviceBuffer d, DeviceBuffer::Allocate(n * bytes));
  HLOGRAPH_TRY(CopyHostToDevice(d.data(), host.data(), n * bytes, stream));
  return d;
}

// The elements of `t` in `buffer`, as doubles.
StatusOr<std::vector<double>> Read(const ConvTensor& t, const DeviceBuffer& buffer, cudaStream_t stream) {
  const int64_t n = std::max<int64_t>(t.span(), 1);
  const int bytes = ir::StorageBytes(t.type);
  std::vector<unsigned char> host(static_cast<size_t>(n * bytes));
  HLOGRAPH_TRY(CopyDeviceToHost(host.data(), buffer.data(), n * bytes, stream));
  HLOGRAPH_CUDA(cudaStreamSynchronize(stream));
  std::vector<double> values(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    uint64_t bits = 0;
    std::memcpy(&bits, &host[static_cast<size_t>(i * bytes)], static_cast<size_t>(bytes));
    values[static_cast<size_t>(i)] = ir::FloatBitsToDouble(bits, t.type);
  }
  return values;
}

// Whether two engines' results agree: within a few roundings of the
// operands' precision (TF32 and 16-bit products), relative to the largest.
bool Agree(const std::vector<double>& a, const std::vector<double>& b, ElementType operands) {
  const double tolerance = operands == ElementType::kF64 ? 1e-9 : operands == ElementType::kF32 ? 1e-2 : 3e-2;
  double scale = 0;
  for (double v : a) scale = std::max(scale, std::fabs(v));
  for (size_t i = 0; i < a.size(); ++i) {
    if (!(std::fabs(a[i] - b[i]) <= tolerance * scale)) return false;  // NaN disagrees
  }
  return true;
}

std::string DeviceKey() {
  int device = 0;
  if (cudaGetDevice(&device) != cudaSuccess) return "?";
  auto info = GetDeviceInfo(device);
  return info.ok() ? info->ToString() : "?";
}

}  // namespace

StatusOr<std::unique_ptr<ConvPlan>> ConvPlan::Create(const ConvConfig& config, std::shared_ptr<DnnHandle> handle,
                                                     cudaStream_t stream, bool* no_engine) {
  if (handle == nullptr) return Status::Error("no cuDNN handle for " + config.ToString());
  const ConvConfig& c = config;
  const size_t rank = static_cast<size_t>(c.spatial_rank()) + 2;
  for (const ConvTensor* t : {&c.x, &c.w, &c.y}) {
    if ((rank != 4 && rank != 5) || t->dims.size() != rank || t->strides.size() != rank) {
      return Status::Error("internal error: malformed " + c.ToString());
    }
  }
  if (!c.epilogue.empty() && c.kind != ConvKind::kForward) {
    return Status::Error("internal error: an epilogue on a " + c.ToString());
  }
  std::unique_ptr<ConvPlan> plan(new ConvPlan());
  plan->config_ = config;
  plan->handle_ = std::move(handle);
  cudnnHandle_t h = plan->handle_->get();
  HLOGRAPH_CUDNN(cudnnSetStream(h, stream));

  HLOGRAPH_ASSIGN(DeviceBuffer x, RandomScratch(c.x, 1, stream));
  HLOGRAPH_ASSIGN(DeviceBuffer w, RandomScratch(c.w, 2, stream));
  HLOGRAPH_ASSIGN(DeviceBuffer y, RandomScratch(c.y, 3, stream));
  std::vector<DeviceBuffer> operands;
  for (const ConvEpilogueOp& e : c.epilogue) {
    if (e.operand == ConvOperand::kNone) continue;
    HLOGRAPH_ASSIGN(DeviceBuffer d, RandomScratch(EpilogueOperand(c, e), 4 + operands.size(), stream));
    operands.push_back(std::move(d));
  }
  const ConvTensor& written = c.result();
  const DeviceBuffer& result = c.kind == ConvKind::kForward ? y : c.kind == ConvKind::kBackwardData ? x : w;

  const std::string key = DeviceKey() + " " + c.ToString();
  const int remembered = RememberedChoice(key);
  const bool strict_f32 = c.x.type == ElementType::kF32 && !c.allow_tf32;
  const bool mixed = c.result().type != c.x.type && c.epilogue.empty();
  std::string why_not;  // what each attempt said, for the error
  for (bool cast : mixed ? std::vector<bool>{false, true} : std::vector<bool>{false}) {
    auto graph = std::make_unique<Graph>();
    Desc op_graph;
    if (Status built = BuildGraph(c, h, cast, graph->keep, op_graph); !built.ok()) {
      why_not += (why_not.empty() ? "" : "; ") + built.message();
      continue;
    }
    std::vector<Desc> proposals;
    for (cudnnBackendHeurMode_t mode : {CUDNN_HEUR_MODE_A, CUDNN_HEUR_MODE_FALLBACK}) {
      auto p = Proposals(op_graph, mode);
      if (p.ok() && !p->empty()) {
        proposals = std::move(*p);
        break;
      }
    }
    // Deterministic engines first (results must not change from call to
    // call), within the precision asked for; then any.
    struct Candidate {
      int place;
      Desc plan;
      int64_t workspace;
      bool tensor_cores;
    };
    std::vector<Candidate> candidates;
    auto gather = [&](int only) {
      for (bool need_deterministic : {true, false}) {
        for (size_t i = 0; i < proposals.size() && static_cast<int>(candidates.size()) < kCandidates; ++i) {
          if (only >= 0 && static_cast<int>(i) != only) continue;
          auto notes = NotesOf(proposals[i]);
          if (!notes.ok() || notes->nondeterministic == need_deterministic) continue;
          if (strict_f32 && (notes->tensor_cores || notes->down_converts)) continue;
          auto p = MakePlan(proposals[i], h);
          if (!p.ok()) continue;
          auto ws = WorkspaceOf(*p);
          if (!ws.ok() || *ws > kMaxWorkspace) continue;
          candidates.push_back({static_cast<int>(i), std::move(*p), *ws, notes->tensor_cores});
        }
        if (!candidates.empty()) return;
      }
    };
    gather(remembered);
    if (candidates.empty() && remembered >= 0) gather(-1);
    if (candidates.empty()) {
      why_not += std::string(why_not.empty() ? "" : "; ") + "no engine" + (cast ? " with a cast" : "") + " (" +
                 std::to_string(proposals.size()) + " proposed)";
      continue;
    }
    int64_t most = 0;
    for (const Candidate& k : candidates) most = std::max(most, k.workspace);
    HLOGRAPH_ASSIGN(DeviceBuffer workspace, DeviceBuffer::Allocate(std::max<int64_t>(most, 1)));
    // Every candidate's result is compared with the others': an engine
    // that disagrees with most of them computes something else for these
    // shapes and is passed over (two that disagree are both refused).
    size_t best = candidates.size();
    float best_ms = 0;
    std::vector<std::vector<double>> results(candidates.size());
    std::vector<float> times(candidates.size(), -1);
    for (size_t i = 0; i < candidates.size(); ++i) {
      Binding bind = {x.data(), w.data(), y.data()};
      for (const DeviceBuffer& d : operands) bind.push_back(d.data());
      bind.push_back(workspace.data());
      auto ms = Time(h, candidates[i].plan, bind, stream);
      if (!ms.ok()) continue;
      auto r = Read(written, result, stream);
      if (!r.ok()) continue;
      times[i] = *ms;
      results[i] = std::move(*r);
    }
    int rejected = 0;
    for (size_t i = 0; i < candidates.size(); ++i) {
      if (times[i] < 0) continue;
      size_t agree = 0, ran = 0;
      for (size_t j = 0; j < candidates.size(); ++j) {
        if (j == i || times[j] < 0) continue;
        ++ran;
        agree += Agree(results[j], results[i], c.x.type) ? 1 : 0;
      }
      if (ran > 0 && 2 * agree < ran) {
        ++rejected;
        continue;
      }
      if (best == candidates.size() || times[i] < best_ms) {
        best = i;
        best_ms = times[i];
      }
    }
    if (best == candidates.size()) {
      why_not += std::string(why_not.empty() ? "" : "; ") + "no engine ran";
      continue;
    }
    HLOGRAPH_CUDA(cudaStreamSynchronize(stream));  // the scratch buffers are freed on return
    Candidate& won = candidates[best];
    graph->keep.push_back(std::move(op_graph));
    graph->plan = std::move(won.plan);
    graph->workspace = won.workspace;
    graph->engine = "cuDNN proposal " + std::to_string(won.place) + (won.tensor_cores ? " (tensor cores)" : "") +
                    (won.place == remembered ? " (chosen before, not timed against others)" : "") +
                    (rejected > 0 ? ", " + std::to_string(rejected) + " disagreeing passed over" : "") +
                    (cast ? " with a cast to " + std::string(ir::ElementTypeName(c.result().type)) : "") + ", " +
                    std::to_string(won.workspace) + " bytes of workspace";
    if (best_ms > 0) graph->engine += ", " + std::to_string(best_ms) + " ms";
    if (won.place != remembered) RememberChoice(key, won.place);
    plan->graph_ = std::move(graph);
    return plan;
  }
  if (no_engine != nullptr) *no_engine = true;
  return Status::Error(why_not);
}

ConvPlan::~ConvPlan() = default;

size_t ConvPlan::workspace_bytes() const { return static_cast<size_t>(graph_->workspace); }

std::string ConvPlan::engine() const { return graph_->engine; }

Status ConvPlan::Run(const void* lhs, const void* rhs, void* result, void* workspace, cudaStream_t stream,
                     const std::vector<const void*>& operands) const {
  std::vector<const void*> all = {lhs, rhs, result};
  all.insert(all.end(), operands.begin(), operands.end());
  for (const void* p : all) {
    if (reinterpret_cast<uintptr_t>(p) % kAlignment != 0) {
      return Status::Error("a convolution operand is not " + std::to_string(kAlignment) + "-byte aligned: " +
                           config_.ToString());
    }
  }
  size_t expected = 0;
  for (const ConvEpilogueOp& e : config_.epilogue) expected += e.operand != ConvOperand::kNone;
  if (operands.size() != expected) {
    return Status::Error("internal error: " + std::to_string(operands.size()) + " epilogue operands for " +
                         config_.ToString());
  }
  cudnnHandle_t handle = handle_->get();
  HLOGRAPH_CUDNN(cudnnSetStream(handle, stream));
  void* a = const_cast<void*>(lhs);
  void* b = const_cast<void*>(rhs);
  Binding bind = config_.kind == ConvKind::kForward        ? Binding{a, b, result}
                 : config_.kind == ConvKind::kBackwardData ? Binding{result, b, a}
                                                           : Binding{a, result, b};
  for (const void* p : operands) bind.push_back(const_cast<void*>(p));
  bind.push_back(workspace);
  std::lock_guard<std::mutex> lock(graph_->pack_mutex);
  if (graph_->pack.get() == nullptr || graph_->bound != bind) {
    HLOGRAPH_ASSIGN(graph_->pack, MakePack(bind));
    graph_->bound = bind;
  }
  return DnnStatus(cudnnBackendExecute(handle, graph_->plan.get(), graph_->pack.get()), "cudnnBackendExecute");
}

}  // namespace hlograph::gpu
