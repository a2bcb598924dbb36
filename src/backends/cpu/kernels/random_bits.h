// Counter-based bit generators (Salmon et al., "Parallel random numbers: as
// easy as 1, 2, 3", SC 2011) and the way XLA lays their output words out for
// stablehlo.rng_bit_generator, so the CPU backend produces XLA's bits.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

namespace hlograph::cpu::random {

// Threefry-2x32 with 20 rounds: one 64-bit block from a 64-bit key and a
// 64-bit counter, each as two 32-bit words (low word first).
std::array<uint32_t, 2> Threefry2x32(std::array<uint32_t, 2> key, std::array<uint32_t, 2> counter);

// Philox-4x32 with 10 rounds: one 128-bit block.
std::array<uint32_t, 4> Philox4x32(std::array<uint32_t, 2> key, std::array<uint32_t, 4> counter);

// XLA's THREE_FRY bits for a result of `shape`: 32-bit words (results of at
// most 32 bits keep the low bits of one) or 64-bit words. XLA spreads the two
// words of each block over an even dimension of the shape, so the 32-bit
// layout depends on the shape, not only on its element count. `counter` is
// advanced by the number of blocks used.
std::vector<uint32_t> ThreeFryWords32(uint64_t key, uint64_t& counter, const std::vector<int64_t>& shape);
std::vector<uint64_t> ThreeFryWords64(uint64_t key, uint64_t& counter, int64_t count);

// XLA's PHILOX bits: block i uses the 128-bit counter (lo, hi) + i; its four
// words (or two 64-bit pairs) fill consecutive elements. (lo, hi) is advanced
// by the number of blocks used.
std::vector<uint32_t> PhiloxWords32(uint64_t key, uint64_t& lo, uint64_t& hi, int64_t count);
std::vector<uint64_t> PhiloxWords64(uint64_t key, uint64_t& lo, uint64_t& hi, int64_t count);

// stablehlo.rng draws from a process-wide invocation count (XLA's rng is
// stateful too: each execution gives new numbers). Resetting it makes a
// sequence of runs repeat its values.
void ResetRngInvocationCount();

}  // namespace hlograph::cpu::random
