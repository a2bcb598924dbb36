#include "backends/gpu/codegen/sort_network.h"

#include <algorithm>
#include <set>

namespace hlograph::gpu::emit {

std::vector<BitonicStep> BitonicSteps(int log2_size) {
  std::vector<BitonicStep> steps;
  for (int q = 0; q < log2_size; ++q) {
    for (int b = q; b >= 0; --b) steps.push_back({b, q + 1});
  }
  return steps;
}

int Swizzle::Class(int bit) const {
  if (bits <= 0) return -1;
  if (bit < bits) return bit;
  const size_t group = static_cast<size_t>(bit / bits - 1);
  const int rotation = group < rotations.size() ? rotations[group] : 0;
  return (bit % bits + rotation) % bits;
}

// The same formula as the kernels' hlo_slot (codegen/sort_kernel.cpp):
// each group of `bits` bits above the low ones, rotated, XORed in.
int64_t Swizzle::Slot(int64_t v) const {
  if (bits <= 0) return v;
  const int64_t mask = (int64_t{1} << bits) - 1;
  int64_t h = 0;
  for (int j = 1; (v >> (bits * j)) != 0; ++j) {
    const int64_t x = (v >> (bits * j)) & mask;
    const size_t group = static_cast<size_t>(j - 1);
    const int s = group < rotations.size() ? rotations[group] % bits : 0;
    h ^= s == 0 ? x : ((x << s) | (x >> (bits - s))) & mask;
  }
  return v ^ h;
}

int SwizzleBitsFor(int64_t item_bytes) {
  if (item_bytes == 8) return 4;
  if (item_bytes == 16) return 3;
  return 0;
}

namespace {

// The class of lane bit `lane` of a round whose runs have `thread_bits`
// thread bits: a thread bit, or a run bit above them.
int LaneClass(const std::vector<int>& thread_bits, int lane, int log2_size, const Swizzle& swizzle) {
  const int t = static_cast<int>(thread_bits.size());
  return swizzle.Class(lane < t ? thread_bits[static_cast<size_t>(lane)] : log2_size + lane - t);
}

}  // namespace

bool ConflictFree(const BitonicRound& round, int log2_size, const Swizzle& swizzle) {
  std::set<int> classes;
  for (int lane = 0; lane < swizzle.bits; ++lane) classes.insert(LaneClass(round.thread_bits, lane, log2_size, swizzle));
  return static_cast<int>(classes.size()) == swizzle.bits;
}

std::vector<BitonicRound> BitonicRounds(int log2_size, int log2_items, const Swizzle& swizzle) {
  const int l = log2_size;
  const int e = std::min(log2_items, l);
  const std::vector<BitonicStep> steps = BitonicSteps(l);
  std::vector<BitonicRound> rounds;
  size_t i = 0;
  while (i < steps.size()) {
    // The next e distinct bits the steps use (then any others).
    std::vector<int> bits;
    for (size_t j = i; j < steps.size() && static_cast<int>(bits.size()) < e; ++j) {
      if (std::find(bits.begin(), bits.end(), steps[j].bit) == bits.end()) bits.push_back(steps[j].bit);
    }
    for (int b = 0; b < l && static_cast<int>(bits.size()) < e; ++b) {
      if (std::find(bits.begin(), bits.end(), b) == bits.end()) bits.push_back(b);
    }
    std::sort(bits.begin(), bits.end());
    BitonicRound round;
    round.register_bits = bits;
    while (i < steps.size() && std::find(bits.begin(), bits.end(), steps[i].bit) != bits.end()) {
      round.steps.push_back(steps[i++]);
    }
    // Thread bits: the first lanes get bits of distinct classes, avoiding
    // the classes of the run bits that fill the lanes above the thread
    // bits when a run has few threads.
    std::vector<int> rest;
    for (int b = 0; b < l; ++b) {
      if (std::find(bits.begin(), bits.end(), b) == bits.end()) rest.push_back(b);
    }
    const int t = static_cast<int>(rest.size());
    std::set<int> used;
    for (int lane = t; lane < swizzle.bits; ++lane) used.insert(swizzle.Class(l + lane - t));
    std::vector<int> order;
    for (int lane = 0; lane < swizzle.bits && !rest.empty(); ++lane) {
      auto pick = std::find_if(rest.begin(), rest.end(), [&](int b) { return !used.count(swizzle.Class(b)); });
      if (pick == rest.end()) pick = rest.begin();
      used.insert(swizzle.Class(*pick));
      order.push_back(*pick);
      rest.erase(pick);
    }
    order.insert(order.end(), rest.begin(), rest.end());
    round.thread_bits = order;
    rounds.push_back(std::move(round));
  }
  return rounds;
}

Swizzle ChooseSwizzle(int log2_size, int log2_items, int row_bits, int bits) {
  Swizzle best;
  best.bits = bits;
  if (bits <= 0) return best;
  const int groups = std::max(0, (log2_size + row_bits + bits - 1) / bits - 1);
  int best_conflicts = -1;
  int64_t combinations = 1;
  for (int g = 0; g < groups && combinations <= 4096; ++g) combinations *= bits;
  for (int64_t c = 0; c < combinations; ++c) {
    Swizzle s;
    s.bits = bits;
    for (int64_t x = c, g = 0; g < groups; ++g, x /= bits) s.rotations.push_back(static_cast<int>(x % bits));
    int conflicts = 0;
    for (const BitonicRound& r : BitonicRounds(log2_size, log2_items, s)) {
      conflicts += !ConflictFree(r, log2_size, s);
    }
    if (best_conflicts < 0 || conflicts < best_conflicts) {
      best = s;
      best_conflicts = conflicts;
    }
  }
  return best;
}

}  // namespace hlograph::gpu::emit
