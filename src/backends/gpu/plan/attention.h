// Attention of one query as one kernel: the product of the scores
// (q . K), their softmax and the product with the values (P . V) in the
// kernel of the last, as flash decoding computes it. A block takes one
// batch element (a head) and a chunk of the keys: it computes the chunk's
// scores, their maximum m, e = exp(s - m), their sum l and u = sum of e * V,
// and leaves (m, l, u); the last block of the head to arrive rescales the
// chunks' sums to the head's maximum and divides. Four kernels of the
// chain (scores, max, sum, values) become one, and no block repeats
// another's reductions.
//
// The pattern (jax.nn.softmax between two dot_generals, as JAX emits it):
//   S = elementwise ops of dot1, the scores (a mask, a scale)
//   X = ops of reduce_max(S over the keys) alone, broadcast back
//   E = exp(S - X)
//   Y = ops of reduce_add(E over the keys) alone, broadcast back
//   P = E / Y
//   dot2 = P . V
// (P maybe rounded to a narrower float by a convert before dot2)
// with one query per batch element (neither product has free lhs dims),
// the batch dims leading, the keys the last dim of S, f32 scores, the
// max from -inf and the sum from 0, and nothing outside reading S, E, X,
// Y or the reductions.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <unordered_map>
#include <vector>

#include "ir/operation.h"

namespace hlograph::gpu {

using ValueUsers = std::unordered_map<const ir::Value*, std::vector<const ir::Operation*>>;

struct SoftmaxAttention {
  const ir::Operation* scores = nullptr;  // dot1: q . K
  const ir::Operation* max = nullptr;     // the reduce_max of S
  const ir::Operation* sum = nullptr;     // the reduce_add of E
  const ir::Operation* values = nullptr;  // dot2: P . V
  // P's convert to a narrower float before dot2 (bf16 attention), or
  // null. The kernel keeps the weights in f32: the chunks are rescaled and
  // divided at the end, so P itself is never formed to round.
  const ir::Operation* rounding = nullptr;
  const ir::Value* s = nullptr;
  const ir::Value* x = nullptr;
  const ir::Value* e = nullptr;
  const ir::Value* y = nullptr;
  std::vector<int64_t> batch_shape;  // the batch dims (heads)
  int64_t keys = 0;                  // the contraction of dot2
  std::vector<int64_t> depth_shape;  // the contraction of dot1 (a head's dims)
  std::vector<int64_t> width_shape;  // dot2's free rhs dims (the values' dims)
  // The ops the kernel computes besides the two products: S's, X's and
  // Y's ops, the reductions, the subtract, exp and divide (and the
  // rounding and the scores' transpose).
  std::vector<const ir::Operation*> inside;
  // The transpose of the scores product that S's ops read instead of the
  // product (JAX's grouped-query scores), or null: the many-query kernel
  // only (plan/flash_attention.h).
  const ir::Operation* scores_transpose = nullptr;
};

// The softmax between two products that both attention kernels compute:
// dot2's operand `p_operand` is P as above, the scores product an op
// `is_scores` accepts, read by S's ops directly or, with
// `scores_transposed`, through one transpose. Fills a's ops and values
// (not its shapes); false if anything else reads what the kernel keeps.
bool MatchSoftmaxBetweenProducts(const ir::Operation& dot2, int p_operand,
                                 const std::function<bool(const ir::Operation&)>& is_scores, bool scores_transposed,
                                 const ValueUsers& users, SoftmaxAttention& a);

// Every op of `block` that reads each value.
ValueUsers UsersInBlock(const ir::Block& block);

// The attention whose values product is `dot2` (a generated product), or
// nothing. `users`: every op of dot2's block that reads each value.
// HLOGRAPH_GPU_ATTENTION=0 matches none.
std::optional<SoftmaxAttention> MatchSoftmaxAttention(const ir::Operation& dot2, const ValueUsers& users);

// The same, finding the users in dot2's block.
std::optional<SoftmaxAttention> MatchSoftmaxAttention(const ir::Operation& dot2);

// The keys or values of `a` (a product's rhs) that `dus`, a
// dynamic_update_slice, writes into its array, moved there by row-major
// reshapes alone (a reshape, a broadcast_in_dim that only adds dims of
// size 1): a KV cache's layer, this step's row in it, stacked into a
// scan's output. The attention kernel then stores each element as it
// loads it, instead of a kernel of its own reading them all again. Null
// otherwise, and with HLOGRAPH_GPU_ATTENTION_STORES=0.
const ir::Value* StoredByAttention(const ir::Operation& dus, const SoftmaxAttention& a);

// The keys a block of the attention kernel takes (a multiple of 8, at
// least 8): enough chunks for about kAttentionBlocksPerSm blocks per SM.
// With kernels launched early and their loads before the wait, fewer
// blocks, each loading its caches while the producers finish, win
// (docs/PERF.md, "32 keys a block"). HLOGRAPH_GPU_ATTENTION_CHUNK=N sets it.
// At most kMaxAttentionChunk keys a block (1024 with the variable): more
// heads' keys go to more blocks.
constexpr int kAttentionBlocksPerSm = 3;
constexpr int64_t kMaxAttentionChunk = 64;
int64_t AttentionChunk(const SoftmaxAttention& a, int sm_count);

// Whether the attention kernel loads, before it waits for its producers,
// what its keys and values read from the inputs it prefetches (the caches
// a step's row is written into), and its combining block loads its first
// chunk sums with the chunks' maxima and sums. On by default
// (HLOGRAPH_GPU_ATTENTION_EARLY_LOADS=0 turns it off).
bool AttentionEarlyLoadsWanted();

// Limits of the kernel, beyond which the four kernels stay: each thread
// loads a key's dims a warp apart and the last block keeps two floats a
// chunk in shared memory.
constexpr int64_t kMaxAttentionDepth = 256;
constexpr int64_t kMaxAttentionChunks = 2048;

}  // namespace hlograph::gpu
