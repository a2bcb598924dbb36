#include "backends/cpu/device_grid.h"

#include <algorithm>
#include <thread>

#include "backends/cpu/interpreter.h"

namespace hlograph::cpu {

StatusOr<std::vector<std::vector<Tensor>>> DeviceGrid::Exchange(const std::vector<Process>& group, const Process& me,
                                                                int64_t channel, std::vector<Tensor> values) {
  const auto at = std::find(group.begin(), group.end(), me);
  if (at == group.end()) return Status::Error("a device exchanges values with a process group it is not in");
  std::string group_key = std::to_string(channel) + ":";
  for (const Process& p : group) group_key += std::to_string(p.first) + "," + std::to_string(p.second) + ";";
  std::unique_lock<std::mutex> lock(mutex_);
  const std::string key = group_key + "#" + std::to_string(sequence_[{me, group_key}]++);
  Meeting& m = meetings_[key];
  if (m.values.empty()) m.values.resize(group.size());
  m.values[static_cast<size_t>(at - group.begin())] = std::move(values);
  if (++m.arrived == group.size()) changed_.notify_all();
  changed_.wait(lock, [&] { return failed_ || m.arrived == group.size(); });
  if (failed_ && m.arrived != group.size()) {
    return Status::Error("another device failed before this collective's process group met");
  }
  std::vector<std::vector<Tensor>> all = m.values;  // tensors share their bytes: cheap
  if (++m.left == group.size()) meetings_.erase(key);
  return all;
}

void DeviceGrid::Send(int64_t channel, std::vector<Tensor> values) {
  std::lock_guard<std::mutex> lock(mutex_);
  sent_[channel].push_back(std::move(values));
  changed_.notify_all();
}

StatusOr<std::vector<Tensor>> DeviceGrid::Receive(int64_t channel) {
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [&] { return failed_ || !sent_[channel].empty(); });
  auto& queue = sent_[channel];
  if (queue.empty()) return Status::Error("another device failed before a send on channel " + std::to_string(channel));
  std::vector<Tensor> values = std::move(queue.front());
  queue.erase(queue.begin());
  return values;
}

StatusOr<Tensor> DeviceGrid::TakeInfeed() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (infeed_taken_ >= infeed_.size()) {
    return Status::Error("reads the infeed past its " + std::to_string(infeed_.size()) + " values");
  }
  return infeed_[infeed_taken_++];
}

void DeviceGrid::Outfeed(std::vector<Tensor> values) {
  std::lock_guard<std::mutex> lock(mutex_);
  for (Tensor& t : values) outfeed_.push_back(std::move(t));
}

void DeviceGrid::Fail() {
  std::lock_guard<std::mutex> lock(mutex_);
  failed_ = true;
  changed_.notify_all();
}

StatusOr<std::vector<std::vector<Tensor>>> RunOnGrid(const ir::Module& module, int64_t replicas, int64_t partitions,
                                                     const std::vector<const ir::Operation*>& funcs,
                                                     const std::vector<std::vector<Tensor>>& args,
                                                     std::vector<Tensor> infeed) {
  const size_t devices = static_cast<size_t>(replicas * partitions);
  if (funcs.size() != devices || args.size() != devices) return Status::Error("a function and arguments per device");
  const DeviceWork call = [&](Interpreter& device, size_t k) { return device.Call(*funcs[k], args[k]); };
  return RunOnGrid(module, replicas, partitions, call, std::move(infeed));
}

StatusOr<std::vector<std::vector<Tensor>>> RunOnGrid(const ir::Module& module, int64_t replicas, int64_t partitions,
                                                     const DeviceWork& work, std::vector<Tensor> infeed) {
  const size_t devices = static_cast<size_t>(replicas * partitions);
  DeviceGrid grid(replicas, partitions);
  grid.SetInfeed(std::move(infeed));
  std::vector<DeviceContext> contexts(devices);
  std::vector<std::vector<Tensor>> results(devices);
  std::vector<Status> status(devices, Status::Ok());
  std::mutex first_mutex;
  size_t first_failed = devices;  // the others' errors follow from it
  std::vector<std::thread> threads;
  for (size_t k = 0; k < devices; ++k) {
    contexts[k].process = {static_cast<int64_t>(k) / partitions, static_cast<int64_t>(k) % partitions};
    contexts[k].grid = &grid;
    threads.emplace_back([&, k] {
      Interpreter device(module);
      device.set_device(&contexts[k]);
      auto r = work(device, k);
      if (r.ok()) {
        results[k] = std::move(*r);
        return;
      }
      status[k] = r.status();
      {
        std::lock_guard<std::mutex> lock(first_mutex);
        if (first_failed == devices) first_failed = k;
      }
      grid.Fail();
    });
  }
  for (std::thread& t : threads) t.join();
  if (first_failed != devices) {
    const Process& p = contexts[first_failed].process;
    return Status::Error("device (replica " + std::to_string(p.first) + ", partition " + std::to_string(p.second) +
                         "): " + status[first_failed].message());
  }
  return results;
}

}  // namespace hlograph::cpu
