// A Fusion (plan/program.h) as a CUDA C++ kernel. Every kernel takes its
// inputs then its outputs as pointers to their storage types, in the
// fusion's order, and is launched with the dims returned here (shapes are
// static, so launch dims are fixed at compile time).
//
//   loop       one thread per output element, grid-stride; each op of the
//              fusion is an expression of the output index (index maps
//              rewrite the index, elementwise ops combine values).
//   reduction  in the layout plan/reduction_layout.h chose from the shape:
//              rows (warp or block per output), columns (lanes on
//              neighbouring outputs), the reduced extent split over blocks
//              when the outputs are few.
//   transpose  one thread per output element, reading the permuted index.
//   convolution  one thread (or warp, for few outputs with long sums) per
//              output element, summing its window and group's features.
//   scan       warp tiles scanned by shuffles with a prefix carried along
//              the axis, split into chunks joined by a look-back when lines
//              are few; a lane per line for other bodies (plan/scan_layout.h).
#pragma once

#include <string>

#include "backends/gpu/plan/program.h"
#include "backends/gpu/runtime/kernel_module.h"
#include "hlograph/status.h"

namespace hlograph::gpu {

struct KernelSource {
  std::string name;
  std::string code;   // a whole translation unit for NVRTC
  LaunchDims launch;  // grid 0 when there is nothing to compute
  std::string strategy;  // "loop", "row reduction (block per row)", ...
};

struct EmitOptions {
  int sm_count = 132;  // H200
};

StatusOr<KernelSource> EmitKernel(const Fusion& fusion, const EmitOptions& options = {});

}  // namespace hlograph::gpu
