// The CPU reference backend: walks a module's ops in order and runs each
// through its kernel. It defines what "correct" means for hlograph; the GPU
// backend is tested against it.
#pragma once

#include <unordered_map>
#include <vector>

#include "backends/cpu/tensor.h"
#include "hlograph/status.h"
#include "ir/module.h"

namespace hlograph::cpu {

struct DeviceContext;  // backends/cpu/device_grid.h

class Interpreter {
 public:
  explicit Interpreter(const ir::Module& module) : module_(module) {}

  // Runs the module's entry function (@main, or the only function).
  StatusOr<std::vector<Tensor>> RunEntry(const std::vector<Tensor>& args);
  // Runs a func.func; arguments must match its signature.
  StatusOr<std::vector<Tensor>> Call(const ir::Operation& func, const std::vector<Tensor>& args);
  // Runs a region's entry block with `args` bound to its arguments and
  // returns the operands of its terminator. Values of the enclosing regions
  // stay visible (StableHLO regions may capture them).
  StatusOr<std::vector<Tensor>> RunRegion(const ir::Region& region, const std::vector<Tensor>& args);
  // Runs one op on operand values given in order (an op whose regions read
  // nothing from outside them): what the GPU backend uses for ops it runs
  // on the host.
  StatusOr<std::vector<Tensor>> RunSingleOp(const ir::Operation& op, const std::vector<Tensor>& operands);

  const ir::Module& module() const { return module_; }

  // The device this interpreter runs as in a multi-device run
  // (interpreter.run_parallel); null on one device, where collectives are
  // identities and the ids 0.
  void set_device(const DeviceContext* device) { device_ = device; }
  const DeviceContext* device() const { return device_; }

 private:
  struct Frame {
    std::unordered_map<const ir::Value*, Tensor> values;
    const Frame* parent = nullptr;
  };
  const Tensor* Lookup(const Frame& frame, const ir::Value* v) const;
  StatusOr<std::vector<Tensor>> RunBlock(const ir::Block& block, Frame& frame);
  Status RunOp(const ir::Operation& op, Frame& frame);

  const ir::Module& module_;
  const Frame* current_ = nullptr;  // the innermost frame, parent of region frames
  int depth_ = 0;
  const DeviceContext* device_ = nullptr;
};

// Checks that `args` match the types `expected` (count, element type,
// shape), naming the first argument that does not.
Status CheckArguments(const std::vector<ir::Type>& expected, const std::vector<Tensor>& args);

}  // namespace hlograph::cpu
