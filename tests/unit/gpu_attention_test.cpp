// Attention of one query per head as one kernel (plan/attention.h): which
// programs take it, what it computes, and (on a GPU) that it matches the
// interpreter, repeats bit for bit, and agrees between graph and stream
// mode.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "backends/gpu/codegen/fusion_emitter.h"
#include "backends/gpu/plan/attention.h"
#include "backends/gpu/plan/planner.h"
#include "gpu_test_util.h"
#include "test_util.h"

namespace hlograph::gpu {
namespace {

struct Case {
  const char* name;
  const char* text;
};

// jax.nn.softmax as JAX lowers it: the max from -inf, maximum(-inf, max),
// two broadcasts back, the sum from 0.
const Case kCases[] = {
    {"masked_decode_ragged_keys", R"(
func.func @main(%q: tensor<12x64xf32>, %k: tensor<300x12x64xf32>, %v: tensor<300x12x64xf32>, %mask: tensor<300xi1>) -> tensor<12x64xf32> {
  %s0 = stablehlo.dot_general %q, %k, batching_dims = [0] x [1], contracting_dims = [1] x [2] : (tensor<12x64xf32>, tensor<300x12x64xf32>) -> tensor<12x300xf32>
  %c8 = stablehlo.constant dense<8.0> : tensor<f32>
  %b8 = stablehlo.broadcast_in_dim %c8, dims = [] : (tensor<f32>) -> tensor<12x300xf32>
  %s1 = stablehlo.divide %s0, %b8 : tensor<12x300xf32>
  %m1 = stablehlo.broadcast_in_dim %mask, dims = [1] : (tensor<300xi1>) -> tensor<12x300xi1>
  %neg = stablehlo.constant dense<-1.0e30> : tensor<f32>
  %bn = stablehlo.broadcast_in_dim %neg, dims = [] : (tensor<f32>) -> tensor<12x300xf32>
  %s = stablehlo.select %m1, %s1, %bn : tensor<12x300xi1>, tensor<12x300xf32>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %mx = stablehlo.reduce(%s init: %ninf) applies stablehlo.maximum across dimensions = [1] : (tensor<12x300xf32>, tensor<f32>) -> tensor<12xf32>
  %bi = stablehlo.broadcast_in_dim %ninf, dims = [] : (tensor<f32>) -> tensor<12xf32>
  %mm = stablehlo.maximum %bi, %mx : tensor<12xf32>
  %x1 = stablehlo.broadcast_in_dim %mm, dims = [0] : (tensor<12xf32>) -> tensor<12x1xf32>
  %x = stablehlo.broadcast_in_dim %x1, dims = [0, 1] : (tensor<12x1xf32>) -> tensor<12x300xf32>
  %d = stablehlo.subtract %s, %x : tensor<12x300xf32>
  %e = stablehlo.exponential %d : tensor<12x300xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %sum = stablehlo.reduce(%e init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<12x300xf32>, tensor<f32>) -> tensor<12xf32>
  %y1 = stablehlo.broadcast_in_dim %sum, dims = [0] : (tensor<12xf32>) -> tensor<12x1xf32>
  %y = stablehlo.broadcast_in_dim %y1, dims = [0, 1] : (tensor<12x1xf32>) -> tensor<12x300xf32>
  %p = stablehlo.divide %e, %y : tensor<12x300xf32>
  %o = stablehlo.dot_general %p, %v, batching_dims = [0] x [1], contracting_dims = [1] x [0] : (tensor<12x300xf32>, tensor<300x12x64xf32>) -> tensor<12x64xf32>
  return %o : tensor<12x64xf32>
})"},
    {"two_batch_dims_ragged_depth_epilogue", R"(
func.func @main(%q: tensor<2x3x40xf32>, %k: tensor<2x3x40x77xf32>, %v: tensor<2x3x77x24xf32>, %r: tensor<2x3x24xf32>) -> tensor<2x3x24xf32> {
  %s = stablehlo.dot_general %q, %k, batching_dims = [0, 1] x [0, 1], contracting_dims = [2] x [2] : (tensor<2x3x40xf32>, tensor<2x3x40x77xf32>) -> tensor<2x3x77xf32>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %mx = stablehlo.reduce(%s init: %ninf) applies stablehlo.maximum across dimensions = [2] : (tensor<2x3x77xf32>, tensor<f32>) -> tensor<2x3xf32>
  %x = stablehlo.broadcast_in_dim %mx, dims = [0, 1] : (tensor<2x3xf32>) -> tensor<2x3x77xf32>
  %d = stablehlo.subtract %s, %x : tensor<2x3x77xf32>
  %e = stablehlo.exponential %d : tensor<2x3x77xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %sum = stablehlo.reduce(%e init: %zero) applies stablehlo.add across dimensions = [2] : (tensor<2x3x77xf32>, tensor<f32>) -> tensor<2x3xf32>
  %y = stablehlo.broadcast_in_dim %sum, dims = [0, 1] : (tensor<2x3xf32>) -> tensor<2x3x77xf32>
  %p = stablehlo.divide %e, %y : tensor<2x3x77xf32>
  %o = stablehlo.dot_general %p, %v, batching_dims = [0, 1] x [0, 1], contracting_dims = [2] x [2] : (tensor<2x3x77xf32>, tensor<2x3x77x24xf32>) -> tensor<2x3x24xf32>
  %t = stablehlo.tanh %o : tensor<2x3x24xf32>
  %out = stablehlo.add %t, %r : tensor<2x3x24xf32>
  return %out : tensor<2x3x24xf32>
})"},
    {"bf16_weights_rounded_before_the_values", R"(
func.func @main(%q: tensor<4x32xbf16>, %k: tensor<4x90x32xbf16>, %v: tensor<4x90x48xbf16>) -> tensor<4x48xf32> {
  %s = stablehlo.dot_general %q, %k, batching_dims = [0] x [0], contracting_dims = [1] x [2] : (tensor<4x32xbf16>, tensor<4x90x32xbf16>) -> tensor<4x90xf32>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %mx = stablehlo.reduce(%s init: %ninf) applies stablehlo.maximum across dimensions = [1] : (tensor<4x90xf32>, tensor<f32>) -> tensor<4xf32>
  %x = stablehlo.broadcast_in_dim %mx, dims = [0] : (tensor<4xf32>) -> tensor<4x90xf32>
  %d = stablehlo.subtract %s, %x : tensor<4x90xf32>
  %e = stablehlo.exponential %d : tensor<4x90xf32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %sum = stablehlo.reduce(%e init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<4x90xf32>, tensor<f32>) -> tensor<4xf32>
  %y = stablehlo.broadcast_in_dim %sum, dims = [0] : (tensor<4xf32>) -> tensor<4x90xf32>
  %p = stablehlo.divide %e, %y : tensor<4x90xf32>
  %pb = stablehlo.convert %p : (tensor<4x90xf32>) -> tensor<4x90xbf16>
  %o = stablehlo.dot_general %pb, %v, batching_dims = [0] x [0], contracting_dims = [1] x [1] : (tensor<4x90xbf16>, tensor<4x90x48xbf16>) -> tensor<4x48xf32>
  return %o : tensor<4x48xf32>
})"},
};

// A scan over 3 layers of KV caches as JAX lowers it (gpt_decode's
// shape, smaller and ragged): each layer's keys and values get this
// step's row at `pos`, the attention reads them, and the scan stacks them
// into two outputs updated in place, the values through a reshape rather
// than a broadcast_in_dim.
const char* const kKvCacheScan = R"(
func.func @main(%q: tensor<3x16xf32>, %kc: tensor<3x50x3x16xf32>, %vc: tensor<3x50x3x16xf32>, %kn: tensor<3x48xf32>, %vn: tensor<3x48xf32>, %pos: tensor<i32>) -> (tensor<3x16xf32>, tensor<3x50x3x16xf32>, tensor<3x50x3x16xf32>) {
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %z = stablehlo.broadcast_in_dim %zero, dims = [] : (tensor<f32>) -> tensor<3x50x3x16xf32>
  %c0 = stablehlo.constant dense<0> : tensor<i32>
  %r:6 = stablehlo.while(%i = %c0, %x = %q, %ks = %z, %vs = %z, %kc_ = %kc, %vc_ = %vc) : tensor<i32>, tensor<3x16xf32>, tensor<3x50x3x16xf32>, tensor<3x50x3x16xf32>, tensor<3x50x3x16xf32>, tensor<3x50x3x16xf32>
  cond {
    %c3 = stablehlo.constant dense<3> : tensor<i32>
    %lt = stablehlo.compare LT, %i, %c3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %lt : tensor<i1>
  } do {
    %z0 = stablehlo.constant dense<0> : tensor<i32>
    %k1 = stablehlo.dynamic_slice %kc_, %i, %z0, %z0, %z0, sizes = [1, 50, 3, 16] : (tensor<3x50x3x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x50x3x16xf32>
    %k = stablehlo.reshape %k1 : (tensor<1x50x3x16xf32>) -> tensor<50x3x16xf32>
    %v1 = stablehlo.dynamic_slice %vc_, %i, %z0, %z0, %z0, sizes = [1, 50, 3, 16] : (tensor<3x50x3x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<1x50x3x16xf32>
    %v = stablehlo.reshape %v1 : (tensor<1x50x3x16xf32>) -> tensor<50x3x16xf32>
    %kr1 = stablehlo.dynamic_slice %kn, %i, %z0, sizes = [1, 48] : (tensor<3x48xf32>, tensor<i32>, tensor<i32>) -> tensor<1x48xf32>
    %kr = stablehlo.reshape %kr1 : (tensor<1x48xf32>) -> tensor<1x3x16xf32>
    %vr1 = stablehlo.dynamic_slice %vn, %i, %z0, sizes = [1, 48] : (tensor<3x48xf32>, tensor<i32>, tensor<i32>) -> tensor<1x48xf32>
    %vr = stablehlo.reshape %vr1 : (tensor<1x48xf32>) -> tensor<1x3x16xf32>
    %kk = stablehlo.dynamic_update_slice %k, %kr, %pos, %z0, %z0 : (tensor<50x3x16xf32>, tensor<1x3x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<50x3x16xf32>
    %vv = stablehlo.dynamic_update_slice %v, %vr, %pos, %z0, %z0 : (tensor<50x3x16xf32>, tensor<1x3x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<50x3x16xf32>
    %s0 = stablehlo.dot_general %x, %kk, batching_dims = [0] x [1], contracting_dims = [1] x [2] : (tensor<3x16xf32>, tensor<50x3x16xf32>) -> tensor<3x50xf32>
    %c4 = stablehlo.constant dense<4.0> : tensor<f32>
    %b4 = stablehlo.broadcast_in_dim %c4, dims = [] : (tensor<f32>) -> tensor<3x50xf32>
    %s = stablehlo.divide %s0, %b4 : tensor<3x50xf32>
    %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
    %mx = stablehlo.reduce(%s init: %ninf) applies stablehlo.maximum across dimensions = [1] : (tensor<3x50xf32>, tensor<f32>) -> tensor<3xf32>
    %xb = stablehlo.broadcast_in_dim %mx, dims = [0] : (tensor<3xf32>) -> tensor<3x50xf32>
    %d = stablehlo.subtract %s, %xb : tensor<3x50xf32>
    %e = stablehlo.exponential %d : tensor<3x50xf32>
    %zf = stablehlo.constant dense<0.0> : tensor<f32>
    %sum = stablehlo.reduce(%e init: %zf) applies stablehlo.add across dimensions = [1] : (tensor<3x50xf32>, tensor<f32>) -> tensor<3xf32>
    %yb = stablehlo.broadcast_in_dim %sum, dims = [0] : (tensor<3xf32>) -> tensor<3x50xf32>
    %p = stablehlo.divide %e, %yb : tensor<3x50xf32>
    %o = stablehlo.dot_general %p, %vv, batching_dims = [0] x [1], contracting_dims = [1] x [0] : (tensor<3x50xf32>, tensor<50x3x16xf32>) -> tensor<3x16xf32>
    %xn = stablehlo.tanh %o : tensor<3x16xf32>
    %kb = stablehlo.broadcast_in_dim %kk, dims = [1, 2, 3] : (tensor<50x3x16xf32>) -> tensor<1x50x3x16xf32>
    %ks2 = stablehlo.dynamic_update_slice %ks, %kb, %i, %z0, %z0, %z0 : (tensor<3x50x3x16xf32>, tensor<1x50x3x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<3x50x3x16xf32>
    %vb = stablehlo.reshape %vv : (tensor<50x3x16xf32>) -> tensor<1x50x3x16xf32>
    %vs2 = stablehlo.dynamic_update_slice %vs, %vb, %i, %z0, %z0, %z0 : (tensor<3x50x3x16xf32>, tensor<1x50x3x16xf32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<3x50x3x16xf32>
    %one = stablehlo.constant dense<1> : tensor<i32>
    %i2 = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %i2, %xn, %ks2, %vs2, %kc_, %vc_ : tensor<i32>, tensor<3x16xf32>, tensor<3x50x3x16xf32>, tensor<3x50x3x16xf32>, tensor<3x50x3x16xf32>, tensor<3x50x3x16xf32>
  }
  return %r#1, %r#2, %r#3 : tensor<3x16xf32>, tensor<3x50x3x16xf32>, tensor<3x50x3x16xf32>
})";

const Case& Named(const std::string& name) {
  for (const Case& c : kCases) {
    if (name == c.name) return c;
  }
  ADD_FAILURE() << "no case " << name;
  return kCases[0];
}

TEST(GpuAttention, ScoresSoftmaxAndValuesAreOneKernel) {
  for (const Case& c : kCases) {
    Planned p = Plan(c.text);
    ASSERT_TRUE(p.program.ok()) << c.name << ": " << p.program.status().message();
    // One kernel in all: no product, reduction or loop kernel beside it.
    ASSERT_EQ(p.program->fusions.size(), 1u) << c.name << "\n" << p.program->ToString();
    const Fusion& f = p.program->fusions[0];
    EXPECT_EQ(f.kind, FusionKind::kAttention) << c.name;
    EXPECT_EQ(std::count_if(f.ops.begin(), f.ops.end(), [](const ir::Operation* op) { return op->name() == "stablehlo.reduce"; }), 2)
        << c.name;
    EXPECT_TRUE(testing::HasSubstr(p.program->ToString(), "attention")) << c.name;
    ASSERT_EQ(f.scratch_bytes.size(), 2u) << c.name;
    EXPECT_GT(f.key_chunk, 0) << c.name;
    EXPECT_EQ(f.key_chunk % 8, 0) << c.name;
  }
  // 12 heads: about three blocks per SM, 33 chunks of the 300 keys,
  // rounded up to 16 each: 19 chunks.
  Planned p = Plan(Named("masked_decode_ragged_keys").text);
  ASSERT_TRUE(p.program.ok());
  const Fusion& f = p.program->fusions[0];
  EXPECT_EQ(f.key_chunk, 16);
  EXPECT_EQ(f.scratch_bytes[0], 12 * 19 * (2 + 64) * 4);  // (max, sum, 64 weighted values) per chunk
  EXPECT_EQ(f.scratch_bytes[1], 12 * 4);                  // an arrival counter per head
  // Its keys and values are read where they are: the four arguments.
  EXPECT_EQ(f.inputs.size(), 4u);
  auto k = EmitKernel(f);
  ASSERT_TRUE(k.ok()) << k.status().message();
  EXPECT_EQ(k->launch.grid[0], 12u * 19u);
  {
    const testing::ScopedEnv chunk("HLOGRAPH_GPU_ATTENTION_CHUNK", "24");
    Planned set = Plan(Named("masked_decode_ragged_keys").text);
    ASSERT_TRUE(set.program.ok());
    EXPECT_EQ(set.program->fusions[0].key_chunk, 24);
  }
  EXPECT_EQ(k->launch.block[0], 256u);
}

TEST(GpuAttention, OtherReadersOfTheSoftmaxKeepTheKernelsApart) {
  // The max also returned: it must be stored, so no attention kernel.
  std::string text = Named("masked_decode_ragged_keys").text;
  const std::string ret = "return %o : tensor<12x64xf32>";
  std::string with_max = text;
  with_max.replace(with_max.find(ret), ret.size(), "return %o, %mx : tensor<12x64xf32>, tensor<12xf32>");
  with_max.replace(with_max.find("-> tensor<12x64xf32> {"), 22, "-> (tensor<12x64xf32>, tensor<12xf32>) {");
  Planned p = Plan(with_max);
  ASSERT_TRUE(p.program.ok()) << p.program.status().message();
  EXPECT_TRUE(OfKind(*p.program, FusionKind::kAttention).empty()) << p.program->ToString();
  EXPECT_FALSE(OfKind(*p.program, FusionKind::kReduction).empty()) << p.program->ToString();
  // A sum from 1 is not a softmax's.
  std::string from_one = text;
  from_one.replace(from_one.find("dense<0.0> : tensor<f32>"), 24, "dense<1.0> : tensor<f32>");
  Planned q = Plan(from_one);
  ASSERT_TRUE(q.program.ok()) << q.program.status().message();
  EXPECT_TRUE(OfKind(*q.program, FusionKind::kAttention).empty()) << q.program->ToString();
  // The environment turns it off.
  const testing::ScopedEnv off("HLOGRAPH_GPU_ATTENTION", "0");
  Planned r = Plan(text);
  ASSERT_TRUE(r.program.ok());
  EXPECT_TRUE(OfKind(*r.program, FusionKind::kAttention).empty());
  EXPECT_EQ(OfKind(*r.program, FusionKind::kReduction).size(), 2u) << r.program->ToString();
}

// The plain softmax attention of `heads` heads of `depth` dims over `keys` keys.
std::string Attention(int64_t heads, int64_t keys, int64_t depth) {
  std::string text = R"(
func.func @main(%q: tensor<HxDxf32>, %k: tensor<HxDxTxf32>, %v: tensor<HxTxDxf32>) -> tensor<HxDxf32> {
  %s = stablehlo.dot_general %q, %k, batching_dims = [0] x [0], contracting_dims = [1] x [1] : (tensor<HxDxf32>, tensor<HxDxTxf32>) -> tensor<HxTxf32>
  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %mx = stablehlo.reduce(%s init: %ninf) applies stablehlo.maximum across dimensions = [1] : (tensor<HxTxf32>, tensor<f32>) -> tensor<Hxf32>
  %x = stablehlo.broadcast_in_dim %mx, dims = [0] : (tensor<Hxf32>) -> tensor<HxTxf32>
  %d = stablehlo.subtract %s, %x : tensor<HxTxf32>
  %e = stablehlo.exponential %d : tensor<HxTxf32>
  %zero = stablehlo.constant dense<0.0> : tensor<f32>
  %sum = stablehlo.reduce(%e init: %zero) applies stablehlo.add across dimensions = [1] : (tensor<HxTxf32>, tensor<f32>) -> tensor<Hxf32>
  %y = stablehlo.broadcast_in_dim %sum, dims = [0] : (tensor<Hxf32>) -> tensor<HxTxf32>
  %p = stablehlo.divide %e, %y : tensor<HxTxf32>
  %o = stablehlo.dot_general %p, %v, batching_dims = [0] x [0], contracting_dims = [1] x [1] : (tensor<HxTxf32>, tensor<HxTxDxf32>) -> tensor<HxDxf32>
  return %o : tensor<HxDxf32>
})";
  for (const auto& [from, to] : {std::pair<std::string, int64_t>{"H", heads}, {"T", keys}, {"D", depth}}) {
    for (size_t at = text.find(from + "x"); at != std::string::npos; at = text.find(from + "x", at)) {
      text.replace(at, from.size(), std::to_string(to));
    }
  }
  return text;
}

TEST(GpuAttention, BeyondTheKernelsLimitsTheFourKernelsStay) {
  const auto kinds = [](const std::string& text) {
    Planned p = Plan(text);
    EXPECT_TRUE(p.program.ok()) << p.program.status().message();
    return p.program.ok() ? OfKind(*p.program, FusionKind::kAttention).size() : 99u;
  };
  EXPECT_EQ(kinds(Attention(4, 100, 32)), 1u);
  EXPECT_EQ(kinds(Attention(4, 100, kMaxAttentionDepth)), 1u);
  EXPECT_EQ(kinds(Attention(4, 100, kMaxAttentionDepth + 8)), 0u);  // dims a thread loads unrolled
  // One head: at most 64 keys a block, at most 2048 chunks.
  EXPECT_EQ(kinds(Attention(1, kMaxAttentionChunk * kMaxAttentionChunks, 8)), 1u);
  EXPECT_EQ(kinds(Attention(1, kMaxAttentionChunk * kMaxAttentionChunks + 1, 8)), 0u);
}

TEST(GpuAttention, WeightsRoundedToANarrowerFloatStayInTheKernel) {
  // The convert before the values product is the kernel's: the weights
  // stay f32 (they are rescaled and divided at the end).
  Planned p = Plan(Named("bf16_weights_rounded_before_the_values").text);
  ASSERT_TRUE(p.program.ok()) << p.program.status().message();
  const auto attention = OfKind(*p.program, FusionKind::kAttention);
  ASSERT_EQ(attention.size(), 1u) << p.program->ToString();
  const ir::Operation* values = nullptr;
  for (const ir::Operation* op : attention[0]->ops) {
    if (op->name() == "stablehlo.dot_general") values = op;
  }
  ASSERT_NE(values, nullptr);
  const auto a = MatchSoftmaxAttention(*values);
  ASSERT_TRUE(a.has_value());
  ASSERT_NE(a->rounding, nullptr);
  EXPECT_EQ(a->rounding->name(), "stablehlo.convert");
  // Anything else between the division and the product keeps the kernels apart.
  std::string negated = Named("bf16_weights_rounded_before_the_values").text;
  const std::string convert = "%pb = stablehlo.convert %p : (tensor<4x90xf32>) -> tensor<4x90xbf16>";
  negated.replace(negated.find(convert), convert.size(),
                  "%pn = stablehlo.negate %p : tensor<4x90xf32>\n  "
                  "%pb = stablehlo.convert %pn : (tensor<4x90xf32>) -> tensor<4x90xbf16>");
  Planned q = Plan(negated);
  ASSERT_TRUE(q.program.ok()) << q.program.status().message();
  EXPECT_TRUE(OfKind(*q.program, FusionKind::kAttention).empty()) << q.program->ToString();
}

TEST(GpuAttention, GptDecodeTakesOneAttentionKernelPerLayer) {
  // gpt_decode_bf16 too (its weights rounded to bf16 before the values).
  Planned b = Plan(BenchProgram("gpt_decode_bf16"));
  ASSERT_TRUE(b.program.ok()) << b.program.status().message();
  EXPECT_EQ(OfKind(*b.program, FusionKind::kAttention).size(), 1u) << b.program->ToString();
  EXPECT_TRUE(OfKind(*b.program, FusionKind::kUpdateSliceInPlace).empty()) << b.program->ToString();
  Planned p = Plan(BenchProgram("gpt_decode"));
  ASSERT_TRUE(p.program.ok()) << p.program.status().message();
  const auto attention = OfKind(*p.program, FusionKind::kAttention);
  ASSERT_EQ(attention.size(), 1u) << p.program->ToString();
  EXPECT_TRUE(OfKind(*p.program, FusionKind::kReduction).empty()) << p.program->ToString();
  // The KV caches, the counter and the position are read before the
  // kernel waits: their layer's rows are prefetched into L2 and loaded
  // while the qkv product finishes.
  const Fusion& f = *attention[0];
  EXPECT_EQ(f.key_chunk, 32);  // 12 heads of 1024 keys: 384 blocks
  EXPECT_EQ(f.early_inputs.size(), 4u) << p.program->ToString();
  // It also stores the layer's keys and values into the stacked caches.
  EXPECT_EQ(f.outputs.size(), 3u);
  EXPECT_TRUE(OfKind(*p.program, FusionKind::kUpdateSliceInPlace).empty()) << p.program->ToString();
  auto k = EmitKernel(f);
  ASSERT_TRUE(k.ok()) << k.status().message();
  const size_t body = k->code.find(f.name + "(");
  const size_t wait = k->code.find("hlo_wait_for_producers();", body);
  size_t prefetches = 0;
  for (size_t at = k->code.find("hlo_prefetch_l2(", body); at < wait; at = k->code.find("hlo_prefetch_l2(", at + 1)) {
    ++prefetches;
  }
  EXPECT_EQ(prefetches, 2u) << k->code;
}

TEST(GpuAttention, TheMlpWeightsAreAskedOfL2OnceTheAttentionHasWaited) {
  // gpt_decode's layer: attention, output projection, MLP up, MLP down.
  // The attention asks L2 for the up product's weights (its layer's
  // 768x3072 slice of the stacked weights) after its wait, reading that
  // product's weights buffer; turned off, neither.
  const auto plan = [](const char* setting) {
    const testing::ScopedEnv env("HLOGRAPH_GPU_PREFETCH_AHEAD", setting);
    return Plan(BenchProgram("gpt_decode"));
  };
  Planned p = plan(nullptr);
  ASSERT_TRUE(p.program.ok()) << p.program.status().message();
  const auto attention = OfKind(*p.program, FusionKind::kAttention);
  ASSERT_EQ(attention.size(), 1u);
  const Fusion& f = *attention[0];
  ASSERT_EQ(f.prefetched_after_wait.size(), 1u) << p.program->ToString();
  const ir::Value* weights = f.prefetched_after_wait[0];
  EXPECT_EQ(weights->type().shape(), (std::vector<int64_t>{768, 3072}));
  const Fusion* up = nullptr;
  for (const Fusion* d : OfKind(*p.program, FusionKind::kDot)) {
    for (const ir::Operation* op : d->ops) {
      if (op->name() == "stablehlo.dot_general" && op->operand(1) == weights) up = d;
    }
  }
  ASSERT_NE(up, nullptr) << "no product reads the weights prefetched";
  EXPECT_EQ(up->tiling.dims.n, 3072);
  // Its steps read the same buffer for the stacked weights.
  std::vector<BufferId> attention_reads, up_reads;
  ForEachStep(p.program->main, [&](const Step& step, int) {
    const auto* k = std::get_if<KernelStep>(&step.action);
    if (k == nullptr) return;
    const Fusion& g = p.program->fusions[static_cast<size_t>(k->fusion)];
    if (&g == &f) attention_reads = k->inputs;
    if (&g == up) up_reads = k->inputs;
  });
  ASSERT_EQ(attention_reads.size(), f.inputs.size());
  const ir::Value* stacked = f.inputs.back();
  const auto in_up = std::find(up->inputs.begin(), up->inputs.end(), stacked);
  ASSERT_NE(in_up, up->inputs.end());
  EXPECT_EQ(attention_reads.back(), up_reads[static_cast<size_t>(in_up - up->inputs.begin())]);
  auto k = EmitKernel(f);
  ASSERT_TRUE(k.ok()) << k.status().message();
  const std::string body = k->code.substr(k->code.find("__global__"));
  const std::string after = body.substr(body.find("hlo_wait_for_producers();"));
  const std::string param = "p" + std::to_string(f.inputs.size() - 1);
  EXPECT_TRUE(testing::HasSubstr(after, "hlo_prefetch_l2((const char*)(" + param + " + ")) << after.substr(0, 2000);
  EXPECT_TRUE(testing::HasSubstr(p.program->ToString(), "asks L2 for a later product's weights"));

  Planned off = plan("0");
  ASSERT_TRUE(off.program.ok()) << off.program.status().message();
  const auto plain = OfKind(*off.program, FusionKind::kAttention);
  ASSERT_EQ(plain.size(), 1u);
  EXPECT_TRUE(plain[0]->prefetched_after_wait.empty());
  EXPECT_EQ(plain[0]->inputs.size() + 1, f.inputs.size());
}

// The kernels of `text`'s plan, by kind.
std::map<FusionKind, int> KernelKinds(const std::string& text) {
  Planned p = Plan(text);
  EXPECT_TRUE(p.program.ok()) << p.program.status().message();
  std::map<FusionKind, int> kinds;
  if (p.program.ok()) {
    for (const Fusion& f : p.program->fusions) ++kinds[f.kind];
  }
  return kinds;
}

TEST(GpuAttention, TheKernelStoresTheKeysAndValuesAScanStacks) {
  // The layer is one kernel: the attention, writing the stacked keys and
  // values in place (outputs 1 and 2) as it loads them.
  Planned p = Plan(kKvCacheScan);
  ASSERT_TRUE(p.program.ok()) << p.program.status().message();
  const auto attention = OfKind(*p.program, FusionKind::kAttention);
  ASSERT_EQ(attention.size(), 1u) << p.program->ToString();
  EXPECT_TRUE(OfKind(*p.program, FusionKind::kUpdateSliceInPlace).empty()) << p.program->ToString();
  const Fusion& f = *attention[0];
  ASSERT_EQ(f.outputs.size(), 3u);
  for (size_t i : {1u, 2u}) EXPECT_EQ(f.outputs[i]->defining_op()->name(), "stablehlo.dynamic_update_slice");
  auto k = EmitKernel(f);
  ASSERT_TRUE(k.ok()) << k.status().message();
  EXPECT_TRUE(testing::HasSubstr(k->code, "o1[")) << k->code;
  EXPECT_TRUE(testing::HasSubstr(k->code, "o2[")) << k->code;
  EXPECT_TRUE(testing::HasSubstr(p.program->ToString(), "stores its keys or values into 2 loop states updated in place"))
      << p.program->ToString();
  // Turned off, or with the window's start computed from the attention's
  // result, the updates are kernels of their own.
  {
    const testing::ScopedEnv off("HLOGRAPH_GPU_ATTENTION_STORES", "0");
    EXPECT_EQ(KernelKinds(kKvCacheScan)[FusionKind::kUpdateSliceInPlace], 2);
  }
  std::string from_result = kKvCacheScan;
  const std::string at = "%ks2 = stablehlo.dynamic_update_slice %ks, %kb, %i,";
  from_result.replace(from_result.find(at), at.size(),
                      "%o0 = stablehlo.slice %o [0:1, 0:1] : (tensor<3x16xf32>) -> tensor<1x1xf32>\n"
                      "    %o1 = stablehlo.reshape %o0 : (tensor<1x1xf32>) -> tensor<f32>\n"
                      "    %oi = stablehlo.convert %o1 : (tensor<f32>) -> tensor<i32>\n"
                      "    %ks2 = stablehlo.dynamic_update_slice %ks, %kb, %oi,");
  const auto kinds = KernelKinds(from_result);
  EXPECT_EQ(kinds.count(FusionKind::kAttention) ? kinds.at(FusionKind::kAttention) : 0, 1);
  EXPECT_EQ(kinds.count(FusionKind::kUpdateSliceInPlace) ? kinds.at(FusionKind::kUpdateSliceInPlace) : 0, 1);
}

// Every case runs with the caches loaded before the wait (the default)
// and without.
constexpr const char* kEarlyLoads[] = {nullptr, "0"};

TEST(GpuAttention, EveryCaseCompiles) {
  for (const char* early : kEarlyLoads) {
    const testing::ScopedEnv loads("HLOGRAPH_GPU_ATTENTION_EARLY_LOADS", early);
    for (const Case& c : kCases) ExpectEveryKernelCompiles(c.name, c.text);
    ExpectEveryKernelCompiles("keys_along_the_last_dim", Attention(4, 100, 40));
    ExpectEveryKernelCompiles("kv_cache_scan", kKvCacheScan);
  }
}

TEST(GpuAttention, TheCachesAreLoadedBeforeTheWait) {
  // The scan's attention reads its keys and values from the stacked
  // caches with this step's row written in: by default the caches' loads
  // come before the wait for the producers, and so does the row's
  // position (an argument); this step's rows come after.
  struct Loads {
    int caches = 0;
    bool position = false;
  };
  const auto before_wait = [&](const char* early) {
    const testing::ScopedEnv setting("HLOGRAPH_GPU_ATTENTION_EARLY_LOADS", early);
    Loads loads;
    Planned p = Plan(kKvCacheScan);
    EXPECT_TRUE(p.program.ok()) << p.program.status().message();
    const auto attention = OfKind(*p.program, FusionKind::kAttention);
    EXPECT_EQ(attention.size(), 1u);
    if (!p.program.ok() || attention.size() != 1) return loads;
    const Fusion& f = *attention[0];
    EXPECT_FALSE(f.early_inputs.empty()) << p.program->ToString();
    auto k = EmitKernel(f);
    EXPECT_TRUE(k.ok()) << k.status().message();
    const std::string body = k->code.substr(k->code.find("__global__"));
    const std::string before = body.substr(0, body.find("hlo_wait_for_producers();"));
    const ir::Block& entry = p.program->module->EntryFunction()->region(0).front();
    for (size_t i = 0; i < f.inputs.size(); ++i) {
      const std::string param = "p" + std::to_string(i) + "[";
      const bool read_before = before.find(param) != std::string::npos;
      if (f.inputs[i] == entry.argument(5)) loads.position = read_before;
      if (f.input_types[i].NumElements() == 1) continue;  // the layer's index, the position
      for (size_t at = before.find(param); at != std::string::npos; at = before.find(param, at + 1)) ++loads.caches;
    }
    return loads;
  };
  const Loads plain = before_wait("0"), early = before_wait(nullptr);
  EXPECT_EQ(plain.caches, 0);
  EXPECT_FALSE(plain.position);
  EXPECT_GT(early.caches, 0);
  EXPECT_TRUE(early.position);
}

TEST(GpuAttention, EveryCaseMatchesTheInterpreterAndRepeats) {
  if (!GpuAvailable()) GTEST_SKIP() << "no GPU";
  // The planned chunks and chunks of 48 (6 keys a warp, 12 a quarter of
  // the block) with a ragged last chunk, each with the caches loaded
  // before the wait and without.
  for (const char* early : kEarlyLoads) {
    const testing::ScopedEnv early_loads("HLOGRAPH_GPU_ATTENTION_EARLY_LOADS", early);
    for (const char* chunk : {static_cast<const char*>(nullptr), "48"}) {
      const testing::ScopedEnv chunked("HLOGRAPH_GPU_ATTENTION_CHUNK", chunk);
      for (const Case& c : kCases) {
        for (uint64_t seed : {11u, 12u}) ExpectMatchesInterpreterAndRepeats(c.name, c.text, seed);
      }
      ExpectMatchesInterpreterAndRepeats("keys_along_the_last_dim", Attention(4, 100, 40), 13);
      ExpectMatchesInterpreterAndRepeats("kv_cache_scan", kKvCacheScan, 14);
    }
  }
}

}  // namespace
}  // namespace hlograph::gpu
