// The CPU interpreter as a PJRT backend: arrays are interpreter tensors,
// and a call runs to completion before Execute returns; a program for
// several devices runs each on a thread of its own. Its memory stats
// are the host bytes its live arrays hold.
#include <chrono>
#include <cstring>

#include "backends/cpu/interpreter.h"
#include "backends/cpu/spmd_entry.h"
#include "pjrt/backend.h"
#include "pjrt/call_times.h"
#include "pjrt/held_bytes.h"

namespace hlograph::pjrt {
namespace {

class CpuArray : public Array {
 public:
  CpuArray(cpu::Tensor tensor, std::shared_ptr<HeldBytes> held) : tensor_(std::move(tensor)), held_(std::move(held)) {
    held_->Hold(tensor_.bytes(), byte_size());
  }
  ~CpuArray() override { held_->Release(tensor_.bytes(), byte_size()); }
  CpuArray(const CpuArray&) = delete;
  CpuArray& operator=(const CpuArray&) = delete;
  int64_t byte_size() const override { return static_cast<int64_t>(tensor_.byte_size()); }
  Status ToHost(void* dst) const override {
    if (tensor_.byte_size() > 0) std::memcpy(dst, tensor_.bytes(), tensor_.byte_size());
    return Status::Ok();
  }
  std::shared_ptr<EventState> Ready() const override { return ReadyEventState(); }
  const cpu::Tensor& tensor() const { return tensor_; }

 private:
  cpu::Tensor tensor_;
  std::shared_ptr<HeldBytes> held_;
};

class CpuRunner : public Runner {
 public:
  CpuRunner(const ir::Module& module, std::shared_ptr<HeldBytes> held) : module_(module), held_(std::move(held)) {}

  StatusOr<Results> Execute(const std::vector<std::shared_ptr<Array>>& args, const std::vector<bool>&) override {
    std::vector<cpu::Tensor> inputs;
    inputs.reserve(args.size());
    for (const auto& a : args) inputs.push_back(static_cast<const CpuArray&>(*a).tensor());
    // A fresh interpreter per call: calls from several threads share nothing.
    const auto start = std::chrono::steady_clock::now();
    cpu::Interpreter interpreter(module_);
    HLOGRAPH_ASSIGN(std::vector<cpu::Tensor> outputs, interpreter.RunEntry(inputs));
    AddEngineExecuteTime(
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start).count());
    Results results;
    for (cpu::Tensor& t : outputs) results.arrays.push_back(std::make_shared<CpuArray>(std::move(t), held_));
    results.done = ReadyEventState;
    return results;
  }

 private:
  const ir::Module& module_;
  std::shared_ptr<HeldBytes> held_;
};

// Each device a thread of an interpreter, with the collectives and sharded
// values of backends/cpu/spmd_entry.h.
class CpuGridRunner : public GridRunner {
 public:
  CpuGridRunner(const ir::Module& module, cpu::SpmdSignature spmd, int64_t replicas, int64_t partitions,
                std::shared_ptr<HeldBytes> held)
      : module_(module), spmd_(std::move(spmd)), replicas_(replicas), partitions_(partitions), held_(std::move(held)) {
    signature_.inputs = spmd_.local_inputs;
    signature_.results = spmd_.local_results;
    for (const ir::ShardLayout& l : spmd_.inputs) signature_.input_shardings.push_back(ir::ToHloSharding(l));
    for (const ir::ShardLayout& l : spmd_.results) signature_.result_shardings.push_back(ir::ToHloSharding(l));
  }
  const Signature& signature() const override { return signature_; }

  StatusOr<std::vector<std::vector<std::shared_ptr<Array>>>> Execute(
      const std::vector<std::vector<std::shared_ptr<Array>>>& args, const cpu::ProcessSpan* span) override {
    std::vector<std::vector<cpu::Tensor>> inputs(args.size());
    for (size_t d = 0; d < args.size(); ++d) {
      for (const auto& a : args[d]) inputs[d].push_back(static_cast<const CpuArray&>(*a).tensor());
    }
    const auto start = std::chrono::steady_clock::now();
    HLOGRAPH_ASSIGN(std::vector<std::vector<cpu::Tensor>> outputs,
                    cpu::RunSpmd(module_, spmd_, replicas_, partitions_, inputs, span));
    AddEngineExecuteTime(
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start).count());
    std::vector<std::vector<std::shared_ptr<Array>>> results(outputs.size());
    for (size_t d = 0; d < outputs.size(); ++d) {
      for (cpu::Tensor& t : outputs[d]) results[d].push_back(std::make_shared<CpuArray>(std::move(t), held_));
    }
    return results;
  }

 private:
  const ir::Module& module_;
  const cpu::SpmdSignature spmd_;
  const int64_t replicas_, partitions_;
  Signature signature_;
  std::shared_ptr<HeldBytes> held_;
};

class CpuBackend : public Backend {
 public:
  std::string device_kind() const override { return "cpu"; }
  std::string description() const override { return "cpu interpreter"; }
  StatusOr<std::shared_ptr<Array>> FromHost(const ir::Type& type, const void* dense_bytes) override {
    cpu::Tensor tensor(type);
    if (tensor.byte_size() > 0) std::memcpy(tensor.mutable_bytes(), dense_bytes, tensor.byte_size());
    return std::shared_ptr<Array>(std::make_shared<CpuArray>(std::move(tensor), held_));
  }
  StatusOr<std::shared_ptr<Runner>> Load(const ir::Module& module) override {
    return std::shared_ptr<Runner>(std::make_shared<CpuRunner>(module, held_));
  }
  StatusOr<std::shared_ptr<GridRunner>> LoadGrid(const ir::Module& module, int64_t replicas,
                                                 int64_t partitions) override {
    HLOGRAPH_ASSIGN(cpu::SpmdSignature spmd, cpu::ReadSpmdSignature(module, replicas * partitions));
    return std::shared_ptr<GridRunner>(
        std::make_shared<CpuGridRunner>(module, std::move(spmd), replicas, partitions, held_));
  }
  // Only the arrays: the interpreter's temporaries live for one call.
  BackendMemoryStats MemoryStats() const override {
    const AllocationCounter::Snapshot held = held_->Read();
    BackendMemoryStats s;
    s.bytes_in_use = held.bytes_in_use;
    s.peak_bytes_in_use = held.peak_bytes_in_use;
    s.num_allocs = held.num_allocs;
    s.largest_alloc_size = held.largest_alloc_size;
    return s;
  }

 private:
  // Shared with the arrays, which may outlive the backend.
  std::shared_ptr<HeldBytes> held_ = std::make_shared<HeldBytes>();
};

}  // namespace

std::shared_ptr<Backend> MakeCpuBackend() { return std::make_shared<CpuBackend>(); }

}  // namespace hlograph::pjrt
