// Sharded values on the devices of a multi-device run (device_grid.h):
// every device computes the program's global values, a manual computation
// or the entry function's signature cuts them into the pieces each device
// holds (ir::ShardLayout), and the devices hand each other their pieces to
// make the global value again.
#pragma once

#include <vector>

#include "backends/cpu/device_grid.h"
#include "backends/cpu/tensor.h"
#include "hlograph/status.h"
#include "ir/sharding.h"

namespace hlograph::cpu {

// The device's logical id: replica * partitions + partition.
int64_t LogicalId(const DeviceContext& device);

// The piece of `global` the device holds under `layout`.
StatusOr<Tensor> LocalPiece(const DeviceContext& device, const ir::ShardLayout& layout, const Tensor& global);

// The global values of `types` whose pieces the devices hold under
// `layouts`. Every device of the grid makes the same calls in the same
// order; each gets every value whole, put together from the devices that
// share its coordinates off each layout's axes. Replicated layouts keep the
// device's own value and exchange nothing.
StatusOr<std::vector<Tensor>> Assemble(const DeviceContext& device, const std::vector<ir::ShardLayout>& layouts,
                                       const std::vector<ir::Type>& types, std::vector<Tensor> pieces);

}  // namespace hlograph::cpu
