// How graph mode keeps a graph bound to arguments and results that may sit
// at new addresses on every call:
//   update nodes   give the nodes that touch a moved buffer new parameters
//                  in the instance (runtime/graph_exec.h); free while the
//                  addresses stay, a few microseconds per node when not;
//   stable copies  bind the graph once to buffers of the executable's own
//                  and copy the arguments in and the results out each call;
//                  costs a copy per buffer, no host work per node.
// The chooser watches the first calls and switches to stable copies when
// addresses keep moving, many nodes follow them and the data is small.
// HLOGRAPH_GPU_BINDING=update|copy|auto picks (auto by default).
#pragma once

#include <cstdint>
#include <string>

namespace hlograph::gpu {

enum class BindingPolicy { kUpdateNodes, kStableCopies };
const char* BindingPolicyName(BindingPolicy policy);

class BindingChooser {
 public:
  enum class Mode { kUpdate, kCopy, kAuto };
  // io_bytes, io_buffers: the program's arguments and results together.
  BindingChooser(Mode mode, int64_t io_bytes, int io_buffers);
  // The mode HLOGRAPH_GPU_BINDING asks for.
  static Mode ModeFromEnvironment();

  // One call bound by updating nodes: whether addresses moved, and how many
  // nodes that took.
  void Observe(bool moved, int64_t node_updates);
  BindingPolicy policy() const { return policy_; }
  const std::string& why() const { return why_; }

  // Calls watched before deciding, and the limits of the switch.
  static constexpr int kWindow = 16;
  static constexpr int64_t kMaxCopyBytes = int64_t{4} << 20;

 private:
  Mode mode_;
  int64_t io_bytes_;
  int io_buffers_;
  int calls_ = 0, moved_calls_ = 0;
  int64_t node_updates_ = 0;
  BindingPolicy policy_ = BindingPolicy::kUpdateNodes;
  std::string why_;
};

}  // namespace hlograph::gpu
