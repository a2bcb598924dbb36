// The block sort's bitonic network laid out for registers: plain data,
// computed on the host and unit-tested without a GPU.
//
// A run of 2^L positions is sorted by the bitonic network's L(L+1)/2
// steps; step (bit, direction bit) compares the positions that differ in
// `bit`, ascending where the position's direction bit is 0. A thread holds
// 2^e items in registers: the positions that differ only in the e
// "register bits" of the current round, so that every step on one of those
// bits is a compare-exchange of two of its registers. Between rounds the
// items go through shared memory to the layout of the next round's
// register bits: a round takes as many consecutive steps as e bits cover
// (the first round all the steps of runs of 2^e).
//
// Shared memory holds item v (v = run within the block * 2^L + position)
// in slot Swizzle::Slot(v): v with its low g bits XORed with its higher
// bits folded g at a time, g = log2 of the items in 128 bytes. The lanes
// of a warp that the hardware serves together (the first 2^g) differ in
// thread bits; each high bit flips one low bit of the slot (its class),
// and a round's layout puts thread bits of distinct classes in those
// lanes, so they hit distinct banks. The fold's rotations are chosen per
// kernel so that as many rounds as possible have such bits.
#pragma once

#include <cstdint>
#include <vector>

namespace hlograph::gpu::emit {

struct BitonicStep {
  int bit = 0;            // compares positions p and p | 1 << bit
  int direction_bit = 0;  // ascending where bit `direction_bit` of p is 0 (== L: everywhere)
};

// The L(L+1)/2 steps of a bitonic sort of 2^log2_size positions, in order.
std::vector<BitonicStep> BitonicSteps(int log2_size);

struct BitonicRound {
  std::vector<int> register_bits;  // register index bit i is position bit register_bits[i]
  std::vector<int> thread_bits;    // thread index bit i (within a run) is position bit thread_bits[i]
  std::vector<BitonicStep> steps;  // done in registers in this layout
};

// How shared memory slots are swizzled: v's low `bits` bits XORed with
// its higher bits, folded `bits` at a time, group j (bits [j*g, j*g+g),
// j >= 1) rotated left by rotations[j - 1]. A bijection on every aligned
// range of 2^bits, so on [0, 2^k) for any k >= bits.
struct Swizzle {
  int bits = 0;
  std::vector<int> rotations;
  int Class(int bit) const;  // which low bit of the slot bit `bit` of v flips
  int64_t Slot(int64_t v) const;
};

// The rounds of a sort of 2^log2_size positions with 2^log2_items items a
// thread; runs in a block sit above the position bits (v = run * 2^L +
// position, thread index = run * threads a run + thread in the run; a
// block has 32 threads or more). Thread bits are ordered so that the
// first swizzle.bits lanes flip distinct classes where the round allows.
std::vector<BitonicRound> BitonicRounds(int log2_size, int log2_items, const Swizzle& swizzle);

// Whether the lanes served together (the first 2^swizzle.bits) read and
// write distinct banks in `round`.
bool ConflictFree(const BitonicRound& round, int log2_size, const Swizzle& swizzle);

// The swizzle of `bits` bits (rotations tried per group) whose rounds have
// the fewest bank conflicts, for blocks of 2^row_bits runs.
Swizzle ChooseSwizzle(int log2_size, int log2_items, int row_bits, int bits);

// Swizzle bits for items of `item_bytes`: those of 8 and 16 bytes (16 and
// 8 to 128 bytes); 0 for others.
int SwizzleBitsFor(int64_t item_bytes);

}  // namespace hlograph::gpu::emit
