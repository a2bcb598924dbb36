// Deterministic random tensors for running a program without input files
// (`hlograph run --random SEED`, benchmarks). Floats are uniform in [-1, 1),
// integers in [0, 8) so they are valid indices into most dimensions, bools
// are fair coins.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

#include "backends/cpu/tensor.h"
#include "hlograph/status.h"

namespace hlograph::cpu {

// A tensor of `type` with random elements; tokens and tuples are refused.
StatusOr<Tensor> RandomTensor(const ir::Type& type, std::mt19937_64& rng);

// One random tensor per type, all from one generator seeded with `seed`.
StatusOr<std::vector<Tensor>> RandomTensors(const std::vector<ir::Type>& types, uint64_t seed);

}  // namespace hlograph::cpu
