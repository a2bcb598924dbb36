// Attention of many queries as one kernel, as flash attention computes it:
// a block takes a tile of queries of one batch element (a head) and walks
// the keys in tiles, computing the scores on the tensor cores, their
// softmax online (a running maximum per query, earlier sums rescaled when
// it grows) and the weighted values, so that the scores never reach
// memory. The pattern is plan/attention.h's, with any number of queries:
//   S = elementwise ops of dot1 (maybe through a transpose), X from
//   reduce_max(S), E = exp(S - X), Y from reduce_add(E), P = E / Y rounded
//   to the 16-bit float of the operands, dot2 = P . V (either operand order)
// where dot1 and dot2 are the library products the plan would otherwise
// make, the operands are bf16 or f16 (or f32 where both products allow
// TF32), a query's and a key's dims (the contraction) are contiguous and
// so are a value's, and each is a multiple of 16 (8 for f32) of at most
// 256.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "backends/gpu/plan/attention.h"
#include "ir/element_type.h"

namespace hlograph::gpu {

// Element strides of one operand along S's batch dims, S's query dims and
// the keys (the depth or width dim has stride 1).
struct FlashStrides {
  std::vector<int64_t> batch, query;
  int64_t key = 0;
};

// Which keys a query sees, where S's mask is an affine comparison of the
// key and one query dim: key >= lower_scale * t + lower (each lower
// bound) and key <= upper_scale * t + upper (each upper bound), t the
// query dim `query_dim` (an index into FlashAttention::query_shape). The
// kernel skips key tiles no query of its tile sees: causal masks, sliding
// windows, a prefill's offset into its cache. Valid only where every
// query sees at least one key (checked when it is found).
struct KeyWindow {
  int query_dim = -1;  // -1: every key is visited
  struct Bound {
    int64_t scale = 0, offset = 0;
  };
  std::vector<Bound> lower, upper;
  // The mask's predicate (true: the key is seen), which tiles inside the
  // window know to hold.
  const ir::Value* kept = nullptr;
  bool active() const { return query_dim >= 0; }
  std::string ToString() const;
};

struct FlashAttention {
  SoftmaxAttention softmax;  // its batch_shape, keys and shapes too
  int q_operand = 0;         // dot1's operand holding the queries
  int p_operand = 0;         // dot2's operand P
  std::vector<int> s_batch_dims, s_query_dims;  // S's dims by role (the keys: the last)
  std::vector<int64_t> query_shape;
  int64_t queries = 1, depth = 0, width = 0;
  ir::ElementType operand_type = ir::ElementType::kBF16;
  FlashStrides q, k, v, out;  // out: dot2's result (its width stride in out_width)
  int64_t out_width = 0;
  // dot2's result dim of each of S's batch dims, of each query dim, and of
  // the width: where the kernel stores, for StoreStridesThrough.
  std::vector<int64_t> out_batch_dims, out_query_dims;
  int64_t out_width_dim = 0;
  KeyWindow window;
  // dot1's result index of S's dim i: S reads dot1 through its transpose.
  std::vector<int> scores_dim_of_s;
};

// What `v` is a row-major reshape of (through every reshape before it in
// its block): the same bytes, which the kernel reads with `v`'s strides.
const ir::Value* ReshapedFrom(const ir::Value* v);

// The moves after the values product `dot2` that its flash kernel stores
// through: transposes in a row, then row-major reshapes, each the only
// reader of the one before (the output put back to [batch, queries,
// heads, dims], grouped heads merged). The kernel writes each element
// where they put it, and no transpose kernel follows. Empty: none.
std::vector<const ir::Operation*> FlashOutputMoves(const ir::Operation& dot2, const ValueUsers& users);

// `a.out` and `a.out_width` for a kernel that stores through `moves`
// (FlashOutputMoves; none: dot2's own layout).
void StoreStridesThrough(FlashAttention& a, const std::vector<const ir::Operation*>& moves);

// The attention whose values product is `dot2` (a library product), or
// nothing. HLOGRAPH_GPU_FLASH_ATTENTION=0 matches none.
std::optional<FlashAttention> MatchFlashAttention(const ir::Operation& dot2, const ValueUsers& users);
std::optional<FlashAttention> MatchFlashAttention(const ir::Operation& dot2);

// The kernel's tiles: queries a block takes (16 per warp) and keys a step.
constexpr int kFlashQueryTile = 64;
constexpr int kFlashKeyTile = 64;
constexpr int kFlashWarps = kFlashQueryTile / 16;
constexpr int64_t kMaxFlashDim = 256;
constexpr int64_t kMaxFlashSharedBytes = 227 * 1024;  // a block's opt-in shared memory on sm_90

// The keys a block takes (a multiple of kFlashKeyTile; all of them: no
// split). Fewer (query tile, head) pairs than fill the GPU twice split
// their keys among blocks, as flash decoding does: each leaves its
// running maximum, sum and weighted values, and the last of a pair to
// arrive combines them. A split keeps at least kMinFlashSplitTiles tiles.
constexpr int64_t kMinFlashSplitTiles = 2;
int64_t FlashKeyChunk(const FlashAttention& a, int sm_count);

// The (query tile, head) pairs, the key tiles of a head, and the blocks
// that split a pair's keys, `key_chunk` keys each (0: all in one).
int64_t FlashTilePairs(const FlashAttention& a);
int64_t FlashKeyTiles(const FlashAttention& a);
int64_t FlashSplits(const FlashAttention& a, int64_t key_chunk);
// Bytes of the splits' partial results (per split: a maximum and a sum per
// query, the weighted values) and of their arrival counters, for
// `key_chunk` keys a block.
int64_t FlashPartialBytes(const FlashAttention& a, int64_t key_chunk);
int64_t FlashCounterBytes(const FlashAttention& a);

// Shared memory of the kernel: the query tile and two stages of key and
// value tiles, rows padded by FlashRowPad elements (16 bytes: no bank
// conflicts in the products' fragment loads).
int64_t FlashRowPad(const FlashAttention& a);
int64_t FlashSharedBytes(const FlashAttention& a);

}  // namespace hlograph::gpu
