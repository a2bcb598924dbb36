#include "backends/cpu/device_grid.h"

#include <algorithm>
#include <thread>

#include "backends/cpu/interpreter.h"
#include "backends/cpu/tensor_bytes.h"

namespace hlograph::cpu {
namespace {

// How long one read of the store waits before the device looks again
// whether a device here has failed.
constexpr std::chrono::milliseconds kPollSlice(200);

std::string Name(const Process& p) {  // as RunOnGrid names a failed device
  return "(replica " + std::to_string(p.first) + ", partition " + std::to_string(p.second) + ")";
}

}  // namespace

DeviceGrid::DeviceGrid(int64_t replicas, int64_t partitions, const ProcessSpan* span)
    : replicas_(replicas), partitions_(partitions), span_(span) {
  if (span_ == nullptr) return;
  local_.assign(static_cast<size_t>(replicas * partitions), false);
  for (const int64_t id : span_->local) {
    if (id >= 0 && id < replicas * partitions) local_[static_cast<size_t>(id)] = true;
  }
}

bool DeviceGrid::IsLocal(const Process& p) const {
  if (span_ == nullptr) return true;
  const int64_t id = p.first * partitions_ + p.second;
  return id >= 0 && static_cast<size_t>(id) < local_.size() && local_[static_cast<size_t>(id)];
}

StatusOr<std::vector<std::vector<Tensor>>> DeviceGrid::Exchange(const std::vector<Process>& group, const Process& me,
                                                                int64_t channel, std::vector<Tensor> values) {
  const auto at = std::find(group.begin(), group.end(), me);
  if (at == group.end()) return Status::Error("a device exchanges values with a process group it is not in");
  std::string group_key = std::to_string(channel) + ":";
  for (const Process& p : group) group_key += std::to_string(p.first) + "," + std::to_string(p.second) + ";";
  std::unique_lock<std::mutex> lock(mutex_);
  const std::string key = group_key + "#" + std::to_string(sequence_[{me, group_key}]++);
  if (!std::all_of(group.begin(), group.end(), [&](const Process& p) { return IsLocal(p); })) {
    lock.unlock();
    return ExchangeAcrossProcesses(key, static_cast<size_t>(at - group.begin()), group, std::move(values));
  }
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

StatusOr<std::vector<std::vector<Tensor>>> DeviceGrid::ExchangeAcrossProcesses(const std::string& key,
                                                                               size_t position,
                                                                               const std::vector<Process>& group,
                                                                               std::vector<Tensor> values) {
  // Every member, here or not, goes through the store: simple, and the
  // same path for all.
  const std::string prefix = span_->key + "/" + key + "/";
  HLOGRAPH_TRY(span_->link->Put(prefix + std::to_string(position), EncodeTensors(values)));
  std::vector<std::vector<Tensor>> all(group.size());
  for (size_t k = 0; k < group.size(); ++k) {
    if (k == position) continue;
    HLOGRAPH_ASSIGN(const std::string bytes, Await(prefix + std::to_string(k), group[k]));
    auto decoded = DecodeTensors(bytes, values);
    if (!decoded.ok()) return Status::Error("from device " + Name(group[k]) + ": " + decoded.status().message());
    all[k] = std::move(*decoded);
  }
  all[position] = std::move(values);
  return all;
}

StatusOr<std::string> DeviceGrid::Await(const std::string& key, const Process& from) {
  const auto deadline = std::chrono::steady_clock::now() + span_->timeout;
  while (true) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (failed_) return Status::Error("another device failed before this collective's process group met");
    }
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      const int64_t ms = span_->timeout.count();
      const std::string waited = ms % 1000 == 0 ? std::to_string(ms / 1000) + " s" : std::to_string(ms) + " ms";
      return Status::Error("waited " + waited + " for device " + Name(from) +
                           " of another process in a collective (store key \"" + key +
                           "\"); every process must run the same programs in the same order");
    }
    HLOGRAPH_ASSIGN(std::optional<std::string> value, span_->link->Get(key, std::min(left, kPollSlice)));
    if (value) return std::move(*value);
  }
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
                                                     const DeviceWork& work, std::vector<Tensor> infeed,
                                                     const ProcessSpan* span) {
  // ids[i]: the logical id of the i-th device run here.
  std::vector<int64_t> ids;
  if (span != nullptr) {
    ids = span->local;
    for (const int64_t id : ids) {
      if (id < 0 || id >= replicas * partitions) return Status::Error("a device outside the grid");
    }
    if (span->link == nullptr) return Status::Error("a run spanning processes needs a key-value store");
  } else {
    for (int64_t id = 0; id < replicas * partitions; ++id) ids.push_back(id);
  }
  const size_t devices = ids.size();
  DeviceGrid grid(replicas, partitions, span);
  grid.SetInfeed(std::move(infeed));
  std::vector<DeviceContext> contexts(devices);
  std::vector<std::vector<Tensor>> results(devices);
  std::vector<Status> status(devices, Status::Ok());
  std::mutex first_mutex;
  size_t first_failed = devices;  // the others' errors follow from it
  std::vector<std::thread> threads;
  for (size_t k = 0; k < devices; ++k) {
    contexts[k].process = {ids[k] / partitions, ids[k] % partitions};
    contexts[k].grid = &grid;
    threads.emplace_back([&, k] {
      Interpreter device(module);
      device.set_device(&contexts[k]);
      auto r = work(device, static_cast<size_t>(ids[k]));
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
