// The devices of one multi-device run on the CPU backend
// (interpreter.run_parallel): num_replicas x num_partitions processes, each
// a thread running its own interpreter, and the rendezvous where the
// members of a process group hand each other their values for a
// collective.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "backends/cpu/tensor.h"
#include "hlograph/status.h"
#include "ir/module.h"

namespace hlograph::cpu {

// A process of the grid: (replica id, partition id).
using Process = std::pair<int64_t, int64_t>;

class DeviceGrid {
 public:
  DeviceGrid(int64_t replicas, int64_t partitions) : replicas_(replicas), partitions_(partitions) {}
  int64_t replicas() const { return replicas_; }
  int64_t partitions() const { return partitions_; }

  // Every member of `group` calls this with its values (its operands of one
  // collective, in `channel`); each gets every member's values, in group
  // order, once all have arrived. The members' k-th exchanges in one group
  // and channel meet. Fails once some device failed (Fail), instead of
  // waiting for it forever.
  StatusOr<std::vector<std::vector<Tensor>>> Exchange(const std::vector<Process>& group, const Process& me,
                                                      int64_t channel, std::vector<Tensor> values);

  // A device stopped with an error: every exchange waiting or to come fails.
  void Fail();

  // send and recv: values sent on a channel are received there in order,
  // a receive waiting for its send (or failing once a device failed).
  void Send(int64_t channel, std::vector<Tensor> values);
  StatusOr<std::vector<Tensor>> Receive(int64_t channel);

  // infeed: the run's queue of values (interpreter.run_parallel's infeed
  // functions' results), taken in order by every device's infeed ops;
  // outfeed: what the devices' outfeed ops wrote, in order.
  void SetInfeed(std::vector<Tensor> values) { infeed_ = std::move(values); }
  StatusOr<Tensor> TakeInfeed();
  void Outfeed(std::vector<Tensor> values);

 private:
  struct Meeting {
    std::vector<std::vector<Tensor>> values;  // by position in the group
    size_t arrived = 0, left = 0;
  };
  const int64_t replicas_, partitions_;
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
// for it fail). `infeed`: the grid's infeed queue.
StatusOr<std::vector<std::vector<Tensor>>> RunOnGrid(const ir::Module& module, int64_t replicas, int64_t partitions,
                                                     const DeviceWork& work, std::vector<Tensor> infeed = {});

// funcs[k] of `module` on args[k] as device k.
StatusOr<std::vector<std::vector<Tensor>>> RunOnGrid(const ir::Module& module, int64_t replicas, int64_t partitions,
                                                     const std::vector<const ir::Operation*>& funcs,
                                                     const std::vector<std::vector<Tensor>>& args,
                                                     std::vector<Tensor> infeed = {});

}  // namespace hlograph::cpu
