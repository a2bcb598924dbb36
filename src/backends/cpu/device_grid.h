// The devices of one multi-device run on the CPU backend
// (interpreter.run_parallel): num_replicas x num_partitions processes, each
// a thread running its own interpreter, and the rendezvous where the
// members of a process group hand each other their values for a
// collective. When the run spans several OS processes (process_span.h),
// this process runs only its own devices, and a group with a device of
// another process exchanges through the span's key-value store.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "backends/cpu/process_span.h"
#include "backends/cpu/tensor.h"
#include "hlograph/status.h"
#include "ir/module.h"

namespace hlograph::cpu {

// A process of the grid: (replica id, partition id).
using Process = std::pair<int64_t, int64_t>;

class DeviceGrid {
 public:
  // `span`: where the devices are when other processes run some (kept
  // by the caller for the grid's lifetime); null when all are here.
  DeviceGrid(int64_t replicas, int64_t partitions, const ProcessSpan* span = nullptr);
  int64_t replicas() const { return replicas_; }
  int64_t partitions() const { return partitions_; }
  // Whether other processes run some of the grid's devices.
  bool spans_processes() const { return span_ != nullptr; }

  // Every member of `group` calls this with its values (its operands of one
  // collective, in `channel`); each gets every member's values, in group
  // order, once all have arrived. The members' k-th exchanges in one group
  // and channel meet. Fails once some device here failed (Fail), instead
  // of waiting for it forever, and when a device of another process keeps
  // the group waiting past the span's timeout.
  StatusOr<std::vector<std::vector<Tensor>>> Exchange(const std::vector<Process>& group, const Process& me,
                                                      int64_t channel, std::vector<Tensor> values);

  // A device stopped with an error: every exchange waiting or to come fails.
  void Fail();

  // send and recv: values sent on a channel are received there in order,
  // a receive waiting for its send (or failing once a device failed). Only
  // among the devices of one process: the kernels refuse them on a grid
  // that spans processes.
  void Send(int64_t channel, std::vector<Tensor> values);
  StatusOr<std::vector<Tensor>> Receive(int64_t channel);

  // infeed: the run's queue of values (interpreter.run_parallel's infeed
  // functions' results), taken in order by every device's infeed ops;
  // outfeed: what the devices' outfeed ops wrote, in order.
  void SetInfeed(std::vector<Tensor> values) { infeed_ = std::move(values); }
  StatusOr<Tensor> TakeInfeed();
  void Outfeed(std::vector<Tensor> values);

 private:
  // Exchange for a group with members in other processes: each member puts
  // its values under `key`/its position and reads the others'.
  StatusOr<std::vector<std::vector<Tensor>>> ExchangeAcrossProcesses(const std::string& key, size_t position,
                                                                     const std::vector<Process>& group,
                                                                     std::vector<Tensor> values);
  // The value another process's device put under `key`, waiting for it up
  // to the span's timeout while no device here has failed.
  StatusOr<std::string> Await(const std::string& key, const Process& from);
  bool IsLocal(const Process& p) const;

  struct Meeting {
    std::vector<std::vector<Tensor>> values;  // by position in the group
    size_t arrived = 0, left = 0;
  };
  const int64_t replicas_, partitions_;
  const ProcessSpan* const span_;
  std::vector<bool> local_;  // by logical id, with a span
  std::mutex mutex_;
  std::condition_variable changed_;
  bool failed_ = false;
  std::map<std::string, Meeting> meetings_;
  std::map<std::pair<Process, std::string>, int64_t> sequence_;  // exchanges made so far, per member and group
  std::map<int64_t, std::vector<std::vector<Tensor>>> sent_;      // per channel, oldest first
  std::vector<Tensor> infeed_, outfeed_;
  size_t infeed_taken_ = 0;
};

// The device an interpreter runs as (Interpreter::set_device).
struct DeviceContext {
  Process process;
  DeviceGrid* grid = nullptr;
};

class Interpreter;

// What device k of a run does with its interpreter (set to run as device k).
using DeviceWork = std::function<StatusOr<std::vector<Tensor>>(Interpreter& interpreter, size_t k)>;

// Runs `work` as each device k = replica * partitions + partition of a
// replicas x partitions grid, each on a thread with an interpreter of its
// own over `module`; returns each device's results. The first device to
// fail ends the run with its error, named by its place (the others' waits
// for it fail). `infeed`: the grid's infeed queue. With `span`, only the
// devices k of span->local run here, and the results are theirs, in that
// order (`work` is still called with the device's logical id k).
StatusOr<std::vector<std::vector<Tensor>>> RunOnGrid(const ir::Module& module, int64_t replicas, int64_t partitions,
                                                     const DeviceWork& work, std::vector<Tensor> infeed = {},
                                                     const ProcessSpan* span = nullptr);

// funcs[k] of `module` on args[k] as device k.
StatusOr<std::vector<std::vector<Tensor>>> RunOnGrid(const ir::Module& module, int64_t replicas, int64_t partitions,
                                                     const std::vector<const ir::Operation*>& funcs,
                                                     const std::vector<std::vector<Tensor>>& args,
                                                     std::vector<Tensor> infeed = {});

}  // namespace hlograph::cpu
