// Attention of many queries as one kernel (plan/flash_attention.h): which
// programs take it and with which key window, that its kernels compile,
// and (on a GPU) that it matches the interpreter and repeats bit for bit.
// The programs are written as JAX lowers softmax attention (jax.nn.softmax
// over scaled scores, a jnp.where mask, P cast back to the operands' type).
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>

#include "backends/gpu/codegen/fusion_emitter.h"
#include "backends/gpu/plan/flash_attention.h"
#include "backends/gpu/plan/planner.h"
#include "gpu_test_util.h"
#include "ir/verify/verify_util.h"
#include "test_util.h"

namespace hlograph::gpu {
namespace {

struct Shape {
  int64_t batch = 2, queries = 100, keys = 100, heads = 3, kv_heads = 3, depth = 64, width = 64;
  std::string type = "bf16";
};

// Replaces each {NAME} of `text` by its value.
std::string Fill(std::string text, const std::map<std::string, std::string>& values) {
  for (const char* outer : {"SCONV", "PCONV"}) {  // these hold placeholders themselves
    const auto it = values.find(outer);
    if (it == values.end()) continue;
    const std::string key = std::string("{") + outer + "}";
    for (size_t at = text.find(key); at != std::string::npos; at = text.find(key, at + it->second.size())) {
      text.replace(at, key.size(), it->second);
    }
  }
  for (const auto& [name, value] : values) {
    const std::string key = "{" + name + "}";
    for (size_t at = text.find(key); at != std::string::npos; at = text.find(key, at + value.size())) {
      text.replace(at, key.size(), value);
    }
  }
  return text;
}

std::map<std::string, std::string> Values(const Shape& s) {
  const auto n = [](int64_t x) { return std::to_string(x); };
  // f32 programs convert neither the masked scores nor P (JAX elides a
  // cast to the same type): the select is S itself, P feeds the product.
  const bool narrow = s.type != "f32";
  return {{"B", n(s.batch)},
          {"T", n(s.queries)},
          {"S", n(s.keys)},
          {"H", n(s.heads)},
          {"KV", n(s.kv_heads)},
          {"G", n(s.heads / s.kv_heads)},
          {"D", n(s.depth)},
          {"W", n(s.width)},
          {"E", s.type},
          {"MIN", s.type == "f16" ? "-6.550400e+04" : "-3.389530e+38"},
          {"SEL", narrow ? "%sm" : "%s"},
          {"PB", narrow ? "%pb" : "%p"},
          {"SCONV", narrow ? "  %s = stablehlo.convert %sm : (tensor<{SHAPE}x{E}>) -> tensor<{SHAPE}xf32>\n" : ""},
          {"PCONV", narrow ? "  %pb = stablehlo.convert %p : (tensor<{SHAPE}xf32>) -> tensor<{SHAPE}x{E}>\n" : ""}};
}

// The mask `kind` over [T, S] as %keep (i1), JAX's way: iotas compared;
// "none" keeps every key; "input" reads argument %mask.
std::string Mask(const std::string& kind) {
  if (kind == "none" || kind == "input") return "";
  std::string text = R"(
  %i0 = stablehlo.iota dim = 0 : tensor<{T}x{S}xi32>
  %i1 = stablehlo.iota dim = 1 : tensor<{T}x{S}xi32>
)";
  if (kind == "causal") {
    text += "  %keep = stablehlo.compare GE, %i0, %i1, SIGNED : (tensor<{T}x{S}xi32>, tensor<{T}x{S}xi32>) -> tensor<{T}x{S}xi1>\n";
  } else if (kind == "window") {  // causal, at most 40 keys back
    text += R"(  %ge = stablehlo.compare GE, %i0, %i1, SIGNED : (tensor<{T}x{S}xi32>, tensor<{T}x{S}xi32>) -> tensor<{T}x{S}xi1>
  %back = stablehlo.subtract %i0, %i1 : tensor<{T}x{S}xi32>
  %c40 = stablehlo.constant dense<40> : tensor<i32>
  %b40 = stablehlo.broadcast_in_dim %c40, dims = [] : (tensor<i32>) -> tensor<{T}x{S}xi32>
  %near = stablehlo.compare LT, %back, %b40, SIGNED : (tensor<{T}x{S}xi32>, tensor<{T}x{S}xi32>) -> tensor<{T}x{S}xi1>
  %keep = stablehlo.and %ge, %near : tensor<{T}x{S}xi1>
)";
  } else if (kind == "late") {  // query t sees keys up to t - 10: the first ten see none
    text += R"(  %c10 = stablehlo.constant dense<10> : tensor<i32>
  %b10 = stablehlo.broadcast_in_dim %c10, dims = [] : (tensor<i32>) -> tensor<{T}x{S}xi32>
  %late = stablehlo.subtract %i0, %b10 : tensor<{T}x{S}xi32>
  %keep = stablehlo.compare GE, %late, %i1, SIGNED : (tensor<{T}x{S}xi32>, tensor<{T}x{S}xi32>) -> tensor<{T}x{S}xi1>
)";
  }
  return text;
}

// softmax(q k^T / sqrt(d) masked) v with q [B, T, H, D], k [B, S, H, D], v [B, S, H, W].
std::string Attention(const Shape& s, const std::string& mask) {
  std::string text = R"(
func.func @main(%q: tensor<{B}x{T}x{H}x{D}x{E}>, %k: tensor<{B}x{S}x{H}x{D}x{E}>, %v: tensor<{B}x{S}x{H}x{W}x{E}>)"
                     + std::string(mask == "input" ? ", %keep: tensor<{T}x{S}xi1>" : "") +
                     R"() -> tensor<{B}x{T}x{H}x{W}x{E}> {)" + Mask(mask) + R"(
  %c = stablehlo.constant dense<1.250000e-01> : tensor<{E}>
  %cb = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<{E}>) -> tensor<{B}x{T}x{H}x{D}x{E}>
  %qs = stablehlo.multiply %q, %cb : tensor<{B}x{T}x{H}x{D}x{E}>
  %s0 = stablehlo.dot_general %qs, %k, batching_dims = [0, 2] x [0, 2], contracting_dims = [3] x [3] : (tensor<{B}x{T}x{H}x{D}x{E}>, tensor<{B}x{S}x{H}x{D}x{E}>) -> tensor<{B}x{H}x{T}x{S}x{E}>
)";
  if (mask == "none") {
    text += "  {SEL} = stablehlo.add %s0, %s0 : tensor<{B}x{H}x{T}x{S}x{E}>\n";  // some op of S's own
  } else {
    text += R"(  %mb = stablehlo.broadcast_in_dim %keep, dims = [2, 3] : (tensor<{T}x{S}xi1>) -> tensor<{B}x{H}x{T}x{S}xi1>
  %neg = stablehlo.constant dense<{MIN}> : tensor<{E}>
  %nb = stablehlo.broadcast_in_dim %neg, dims = [] : (tensor<{E}>) -> tensor<{B}x{H}x{T}x{S}x{E}>
  {SEL} = stablehlo.select %mb, %s0, %nb : tensor<{B}x{H}x{T}x{S}xi1>, tensor<{B}x{H}x{T}x{S}x{E}>
)";
  }
  text += R"({SCONV}  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %mx = stablehlo.reduce(%s init: %ninf) applies stablehlo.maximum across dimensions = [3] : (tensor<{B}x{H}x{T}x{S}xf32>, tensor<f32>) -> tensor<{B}x{H}x{T}xf32>
  %bi = stablehlo.broadcast_in_dim %ninf, dims = [] : (tensor<f32>) -> tensor<{B}x{H}x{T}xf32>
  %mm = stablehlo.maximum %bi, %mx : tensor<{B}x{H}x{T}xf32>
  %x = stablehlo.broadcast_in_dim %mm, dims = [0, 1, 2] : (tensor<{B}x{H}x{T}xf32>) -> tensor<{B}x{H}x{T}x{S}xf32>
  %d = stablehlo.subtract %s, %x : tensor<{B}x{H}x{T}x{S}xf32>
  %e = stablehlo.exponential %d : tensor<{B}x{H}x{T}x{S}xf32>
  %zero = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %sum = stablehlo.reduce(%e init: %zero) applies stablehlo.add across dimensions = [3] : (tensor<{B}x{H}x{T}x{S}xf32>, tensor<f32>) -> tensor<{B}x{H}x{T}xf32>
  %y = stablehlo.broadcast_in_dim %sum, dims = [0, 1, 2] : (tensor<{B}x{H}x{T}xf32>) -> tensor<{B}x{H}x{T}x{S}xf32>
  %p = stablehlo.divide %e, %y : tensor<{B}x{H}x{T}x{S}xf32>
{PCONV}  %o = stablehlo.dot_general %v, {PB}, batching_dims = [0, 2] x [0, 1], contracting_dims = [1] x [3] : (tensor<{B}x{S}x{H}x{W}x{E}>, tensor<{B}x{H}x{T}x{S}x{E}>) -> tensor<{B}x{H}x{W}x{T}x{E}>
  %r = stablehlo.transpose %o, dims = [0, 3, 1, 2] : (tensor<{B}x{H}x{W}x{T}x{E}>) -> tensor<{B}x{T}x{H}x{W}x{E}>
  return %r : tensor<{B}x{T}x{H}x{W}x{E}>
})";
  std::map<std::string, std::string> values = Values(s);
  values["SHAPE"] = "{B}x{H}x{T}x{S}";
  return Fill(Fill(text, values), values);
}

// Grouped-query attention as JAX lowers it: q reshaped to [B, T, KV, G,
// D], the scores product (keys first) transposed to [B, KV, G, T, S], the
// values product [B, KV, W, G, T] transposed and reshaped back.
std::string GroupedAttention(const Shape& s, const std::string& mask) {
  std::string text = R"(
func.func @main(%q: tensor<{B}x{T}x{H}x{D}x{E}>, %k: tensor<{B}x{S}x{KV}x{D}x{E}>, %v: tensor<{B}x{S}x{KV}x{W}x{E}>) -> tensor<{B}x{T}x{H}x{W}x{E}> {)" +
                     Mask(mask) + R"(
  %c = stablehlo.constant dense<1.250000e-01> : tensor<{E}>
  %cb = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<{E}>) -> tensor<{B}x{T}x{H}x{D}x{E}>
  %qs = stablehlo.multiply %q, %cb : tensor<{B}x{T}x{H}x{D}x{E}>
  %qr = stablehlo.reshape %qs : (tensor<{B}x{T}x{H}x{D}x{E}>) -> tensor<{B}x{T}x{KV}x{G}x{D}x{E}>
  %s0 = stablehlo.dot_general %k, %qr, batching_dims = [0, 2] x [0, 2], contracting_dims = [3] x [4] : (tensor<{B}x{S}x{KV}x{D}x{E}>, tensor<{B}x{T}x{KV}x{G}x{D}x{E}>) -> tensor<{B}x{KV}x{S}x{T}x{G}x{E}>
  %st = stablehlo.transpose %s0, dims = [0, 1, 4, 3, 2] : (tensor<{B}x{KV}x{S}x{T}x{G}x{E}>) -> tensor<{B}x{KV}x{G}x{T}x{S}x{E}>
  %mb = stablehlo.broadcast_in_dim %keep, dims = [3, 4] : (tensor<{T}x{S}xi1>) -> tensor<{B}x{KV}x{G}x{T}x{S}xi1>
  %neg = stablehlo.constant dense<{MIN}> : tensor<{E}>
  %nb = stablehlo.broadcast_in_dim %neg, dims = [] : (tensor<{E}>) -> tensor<{B}x{KV}x{G}x{T}x{S}x{E}>
  {SEL} = stablehlo.select %mb, %st, %nb : tensor<{B}x{KV}x{G}x{T}x{S}xi1>, tensor<{B}x{KV}x{G}x{T}x{S}x{E}>
{SCONV}  %ninf = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %mx = stablehlo.reduce(%s init: %ninf) applies stablehlo.maximum across dimensions = [4] : (tensor<{B}x{KV}x{G}x{T}x{S}xf32>, tensor<f32>) -> tensor<{B}x{KV}x{G}x{T}xf32>
  %x = stablehlo.broadcast_in_dim %mx, dims = [0, 1, 2, 3] : (tensor<{B}x{KV}x{G}x{T}xf32>) -> tensor<{B}x{KV}x{G}x{T}x{S}xf32>
  %d = stablehlo.subtract %s, %x : tensor<{B}x{KV}x{G}x{T}x{S}xf32>
  %e = stablehlo.exponential %d : tensor<{B}x{KV}x{G}x{T}x{S}xf32>
  %zero = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %sum = stablehlo.reduce(%e init: %zero) applies stablehlo.add across dimensions = [4] : (tensor<{B}x{KV}x{G}x{T}x{S}xf32>, tensor<f32>) -> tensor<{B}x{KV}x{G}x{T}xf32>
  %y = stablehlo.broadcast_in_dim %sum, dims = [0, 1, 2, 3] : (tensor<{B}x{KV}x{G}x{T}xf32>) -> tensor<{B}x{KV}x{G}x{T}x{S}xf32>
  %p = stablehlo.divide %e, %y : tensor<{B}x{KV}x{G}x{T}x{S}xf32>
{PCONV}  %o = stablehlo.dot_general %v, {PB}, batching_dims = [0, 2] x [0, 1], contracting_dims = [1] x [4] : (tensor<{B}x{S}x{KV}x{W}x{E}>, tensor<{B}x{KV}x{G}x{T}x{S}x{E}>) -> tensor<{B}x{KV}x{W}x{G}x{T}x{E}>
  %ot = stablehlo.transpose %o, dims = [0, 4, 1, 3, 2] : (tensor<{B}x{KV}x{W}x{G}x{T}x{E}>) -> tensor<{B}x{T}x{KV}x{G}x{W}x{E}>
  %r = stablehlo.reshape %ot : (tensor<{B}x{T}x{KV}x{G}x{W}x{E}>) -> tensor<{B}x{T}x{H}x{W}x{E}>
  return %r : tensor<{B}x{T}x{H}x{W}x{E}>
})";
  std::map<std::string, std::string> values = Values(s);
  values["SHAPE"] = "{B}x{KV}x{G}x{T}x{S}";
  return Fill(Fill(text, values), values);
}

struct Case {
  std::string name, text;
  std::string window;  // KeyWindow::ToString of the kernel
};

std::vector<Case> Cases() {
  std::vector<Case> cases;
  Shape plain;  // 100 queries and keys: ragged tiles
  cases.push_back({"plain_bf16", Attention(plain, "none"), "every key"});
  Shape causal;
  causal.queries = causal.keys = 150;
  causal.depth = causal.width = 128;
  cases.push_back({"causal_bf16_d128", Attention(causal, "causal"), "key <= t (t: query dim 0)"});
  Shape f16 = causal;
  f16.type = "f16";
  f16.depth = 32;
  f16.width = 48;
  cases.push_back({"window_f16_d32_w48", Attention(f16, "window"), "key >= t - 39, key <= t (t: query dim 0)"});
  Shape late = plain;
  cases.push_back({"rows_seeing_no_key", Attention(late, "late"), "every key"});
  Shape masked = plain;
  masked.keys = 70;
  cases.push_back({"mask_from_an_argument", Attention(masked, "input"), "every key"});
  Shape f32 = plain;
  f32.type = "f32";
  f32.depth = 32;
  f32.width = 40;
  cases.push_back({"causal_f32_tf32", Attention(f32, "causal"), "key <= t (t: query dim 0)"});
  // Two query tiles of 1000 keys: the keys split among 8 blocks of 128
  // (FlashKeyChunk), the causal mask leaving the first tiles' later
  // splits without a key.
  Shape split;
  split.batch = 1;
  split.heads = 2;
  split.queries = split.keys = 1000;
  cases.push_back({"causal_keys_split", Attention(split, "causal"), "key <= t (t: query dim 0)"});
  Shape grouped;
  grouped.batch = 1;
  grouped.queries = grouped.keys = 130;
  grouped.heads = 8;
  grouped.kv_heads = 2;
  grouped.depth = grouped.width = 64;
  cases.push_back({"grouped_causal", GroupedAttention(grouped, "causal"), "key <= t (t: query dim 1)"});
  return cases;
}

TEST(GpuFlashAttention, ScoresSoftmaxAndValuesAreOneKernel) {
  for (const Case& c : Cases()) {
    Planned p = Plan(c.text);
    ASSERT_TRUE(p.program.ok()) << c.name << ": " << p.program.status().message();
    const auto flash = OfKind(*p.program, FusionKind::kFlashAttention);
    ASSERT_EQ(flash.size(), 1u) << c.name << "\n" << p.program->ToString();
    EXPECT_EQ(GemmSteps(*p.program), 0) << c.name << "\n" << p.program->ToString();
    EXPECT_TRUE(OfKind(*p.program, FusionKind::kReduction).empty()) << c.name;
    EXPECT_TRUE(OfKind(*p.program, FusionKind::kRows).empty()) << c.name;
    const ir::Operation* values = LastProduct(*flash[0]);
    ASSERT_NE(values, nullptr);
    const auto a = MatchFlashAttention(*values);
    ASSERT_TRUE(a.has_value()) << c.name;
    EXPECT_EQ(a->window.ToString(), c.window) << c.name;
    // The queries, keys and values are in memory, the scores are not.
    EXPECT_EQ(flash[0]->outputs.size(), 1u);
    EXPECT_TRUE(testing::HasSubstr(p.program->ToString(), "flash attention")) << c.name;
  }
}

TEST(GpuFlashAttention, TheGeometryFollowsTheProducts) {
  Shape s;
  s.batch = 2;
  s.queries = 100;
  s.keys = 70;
  s.heads = 3;
  s.depth = 32;
  s.width = 48;
  Planned p = Plan(Attention(s, "none"));
  ASSERT_TRUE(p.program.ok()) << p.program.status().message();
  const auto flash = OfKind(*p.program, FusionKind::kFlashAttention);
  ASSERT_EQ(flash.size(), 1u) << p.program->ToString();
  const auto a = MatchFlashAttention(*LastProduct(*flash[0]));
  ASSERT_TRUE(a.has_value());
  EXPECT_EQ(a->softmax.batch_shape, (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(a->query_shape, (std::vector<int64_t>{100}));
  EXPECT_EQ(a->softmax.keys, 70);
  EXPECT_EQ(a->depth, 32);
  EXPECT_EQ(a->width, 48);
  EXPECT_EQ(a->q_operand, 0);
  EXPECT_EQ(a->p_operand, 1);
  // q [2, 100, 3, 32]: batch dims b and h, the query t.
  EXPECT_EQ(a->q.batch, (std::vector<int64_t>{100 * 3 * 32, 32}));
  EXPECT_EQ(a->q.query, (std::vector<int64_t>{3 * 32}));
  EXPECT_EQ(a->k.key, 3 * 32);
  EXPECT_EQ(a->v.key, 3 * 48);
  // The values product's result [2, 3, 48, 100]: the queries contiguous.
  EXPECT_EQ(a->out.batch, (std::vector<int64_t>{3 * 48 * 100, 48 * 100}));
  EXPECT_EQ(a->out.query, (std::vector<int64_t>{1}));
  EXPECT_EQ(a->out_width, 100);
  auto k = EmitKernel(*flash[0]);
  ASSERT_TRUE(k.ok()) << k.status().message();
  EXPECT_EQ(k->launch.grid[0], 2u * 3u * 2u);  // two tiles of 64 queries per head
  EXPECT_EQ(k->launch.block[0], static_cast<uint32_t>(32 * kFlashWarps));
  EXPECT_EQ(k->launch.shared_bytes, static_cast<uint32_t>(FlashSharedBytes(*a)));
}

TEST(GpuFlashAttention, FewQueryTilesSplitTheirKeys) {
  Shape s;
  s.batch = 1;
  s.heads = 2;
  s.queries = s.keys = 1000;
  Planned p = Plan(Attention(s, "causal"));
  ASSERT_TRUE(p.program.ok()) << p.program.status().message();
  const auto flash = OfKind(*p.program, FusionKind::kFlashAttention);
  ASSERT_EQ(flash.size(), 1u);
  const Fusion& f = *flash[0];
  // 32 (query tile, head) pairs: 9 blocks each would fill 132 SMs twice;
  // 16 key tiles allow 8 splits of 2.
  EXPECT_EQ(f.key_chunk, 2 * kFlashKeyTile);
  ASSERT_EQ(f.scratch_bytes.size(), 2u);
  EXPECT_EQ(f.scratch_bytes[0], 32 * 8 * kFlashQueryTile * (2 + 64) * 4);
  EXPECT_EQ(f.scratch_bytes[1], 32 * 4);
  auto k = EmitKernel(f);
  ASSERT_TRUE(k.ok()) << k.status().message();
  EXPECT_EQ(k->launch.grid[0], 32u * 8u);
  EXPECT_TRUE(testing::HasSubstr(p.program->ToString(), "128 keys a block, the last combining")) << p.program->ToString();
  // Enough pairs: one block takes all the keys.
  s.batch = 8;
  s.heads = 8;
  Planned q = Plan(Attention(s, "causal"));
  ASSERT_TRUE(q.program.ok());
  const auto whole = OfKind(*q.program, FusionKind::kFlashAttention);
  ASSERT_EQ(whole.size(), 1u);
  EXPECT_GE(whole[0]->key_chunk, 1000);
  EXPECT_TRUE(whole[0]->scratch_bytes.empty());
}

// The moves from the values product to the kernel's output, in order.
std::vector<const ir::Operation*> MovesToOutput(const Fusion& f, const ir::Operation& values) {
  std::vector<const ir::Operation*> moves;
  for (const ir::Value* v = f.outputs[0]; v != values.result(0); v = v->defining_op()->operand(0)) {
    moves.insert(moves.begin(), v->defining_op());
  }
  return moves;
}

TEST(GpuFlashAttention, TheKernelStoresThroughTheTransposesAfterIt) {
  // Each case's output is put back to [batch, queries, heads, dims] by
  // transposes (and a reshape for grouped heads); the kernel writes each
  // element where they put it: the offset from the strides equals the
  // element's place found by moving its index through the transposes.
  for (const Case& c : Cases()) {
    Planned p = Plan(c.text);
    ASSERT_TRUE(p.program.ok()) << c.name;
    const auto flash = OfKind(*p.program, FusionKind::kFlashAttention);
    ASSERT_EQ(flash.size(), 1u) << c.name;
    EXPECT_EQ(p.program->fusions.size(), 1u + (c.text.find("stablehlo.multiply %q") != std::string::npos))
        << c.name << "\n" << p.program->ToString();  // the queries' scaling, a kernel of its own
    const ir::Operation& values = *LastProduct(*flash[0]);
    const std::vector<const ir::Operation*> moves = MovesToOutput(*flash[0], values);
    ASSERT_FALSE(moves.empty()) << c.name;
    auto a = MatchFlashAttention(values);
    ASSERT_TRUE(a.has_value());
    StoreStridesThrough(*a, moves);
    const std::vector<int64_t> shape = values.result(0)->type().shape();
    for (int64_t sample = 0; sample < 50; ++sample) {
      std::vector<int64_t> idx(shape.size());
      for (size_t d = 0; d < shape.size(); ++d) idx[d] = (sample * 7919 + static_cast<int64_t>(d) * 104729) % shape[d];
      int64_t got = idx[static_cast<size_t>(a->out_width_dim)] * a->out_width;
      for (size_t i = 0; i < a->out_batch_dims.size(); ++i) got += idx[static_cast<size_t>(a->out_batch_dims[i])] * a->out.batch[i];
      for (size_t i = 0; i < a->out_query_dims.size(); ++i) got += idx[static_cast<size_t>(a->out_query_dims[i])] * a->out.query[i];
      std::vector<int64_t> at = idx, dims = shape;
      for (const ir::Operation* op : moves) {
        if (op->name() != "stablehlo.transpose") break;
        const std::vector<int64_t> perm = ir::verify::I64ArrayAttr(*op, "permutation");
        std::vector<int64_t> moved_at, moved_dims;
        for (int64_t d : perm) {
          moved_at.push_back(at[static_cast<size_t>(d)]);
          moved_dims.push_back(dims[static_cast<size_t>(d)]);
        }
        at = moved_at;
        dims = moved_dims;
      }
      int64_t want = 0;
      for (size_t d = 0; d < dims.size(); ++d) want = want * dims[d] + at[d];
      ASSERT_EQ(got, want) << c.name << " sample " << sample;
    }
  }
}

TEST(GpuFlashAttention, WhatTheKernelCannotTakeStaysApart) {
  const auto flash_kernels = [](const std::string& text) {
    Planned p = Plan(text);
    EXPECT_TRUE(p.program.ok()) << p.program.status().message();
    return p.program.ok() ? OfKind(*p.program, FusionKind::kFlashAttention).size() : 99u;
  };
  Shape s;
  EXPECT_EQ(flash_kernels(Attention(s, "causal")), 1u);
  // A head dim the tensor-core tiles do not divide.
  Shape odd = s;
  odd.depth = 72;
  EXPECT_EQ(flash_kernels(Attention(odd, "causal")), 0u);
  Shape wide = s;
  wide.width = kMaxFlashDim + 16;
  EXPECT_EQ(flash_kernels(Attention(wide, "none")), 0u);
  // f32 operands: TF32 products where the program allows them, not at HIGHEST.
  Shape f32 = s;
  f32.type = "f32";
  const std::string tf32 = Attention(f32, "causal");
  EXPECT_EQ(flash_kernels(tf32), 1u);
  std::string highest = tf32;
  const std::string contracting = "contracting_dims = [1] x [3]";
  ASSERT_NE(highest.find(contracting), std::string::npos);
  highest.replace(highest.find(contracting), contracting.size(), contracting + ", precision = [HIGHEST, HIGHEST]");
  EXPECT_EQ(flash_kernels(highest), 0u);
  // The maximum also returned: it must be stored.
  std::string text = Attention(s, "none");
  const std::string ret = "return %r : tensor<2x100x3x64xbf16>";
  ASSERT_NE(text.find(ret), std::string::npos);
  text.replace(text.find(ret), ret.size(), "return %r, %mx : tensor<2x100x3x64xbf16>, tensor<2x3x100xf32>");
  const std::string sig = "-> tensor<2x100x3x64xbf16> {";
  text.replace(text.find(sig), sig.size(), "-> (tensor<2x100x3x64xbf16>, tensor<2x3x100xf32>) {");
  EXPECT_EQ(flash_kernels(text), 0u);
  // Turned off.
  const testing::ScopedEnv off("HLOGRAPH_GPU_FLASH_ATTENTION", "0");
  EXPECT_EQ(flash_kernels(Attention(s, "causal")), 0u);
}

TEST(GpuFlashAttention, EveryCaseCompiles) {
  for (const Case& c : Cases()) ExpectEveryKernelCompiles(c.name, c.text);
  // gpt_prefill's twelve heads of 128 queries (f32: TF32 products).
  const std::string prefill = BenchProgram("gpt_prefill");
  Planned p = Plan(prefill);
  ASSERT_TRUE(p.program.ok()) << p.program.status().message();
  EXPECT_EQ(OfKind(*p.program, FusionKind::kFlashAttention).size(), 1u) << p.program->ToString();
  ExpectEveryKernelCompiles("gpt_prefill", prefill);
}

// jax.nn.dot_product_attention as JAX 0.11 exports it (tests/corpus): the
// queries reshaped with a group dim, the scaled f32 scores transposed
// before the mask, the maximum taken before that transpose.
struct CorpusCase {
  const char* name;
  const char* window;
};
constexpr CorpusCase kCorpusCases[] = {
    {"dot_product_attention_bf16", "every key"},
    {"dot_product_attention_gqa_causal_bf16", "key <= t (t: query dim 1)"},
    {"dot_product_attention_causal_f32", "key <= t (t: query dim 1)"},
};

std::string CorpusProgram(const std::string& name) {
  std::ifstream in(testing::SourceDir() + "/tests/corpus/" + name + ".mlir");
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

TEST(GpuFlashAttention, JaxDotProductAttentionTakesIt) {
  for (const CorpusCase& c : kCorpusCases) {
    const std::string text = CorpusProgram(c.name);
    ASSERT_FALSE(text.empty()) << c.name;
    Planned p = Plan(text);
    ASSERT_TRUE(p.program.ok()) << c.name << ": " << p.program.status().message();
    const auto flash = OfKind(*p.program, FusionKind::kFlashAttention);
    ASSERT_EQ(flash.size(), 1u) << c.name << "\n" << p.program->ToString();
    EXPECT_EQ(GemmSteps(*p.program), 0) << c.name;
    const auto a = MatchFlashAttention(*LastProduct(*flash[0]));
    ASSERT_TRUE(a.has_value()) << c.name;
    EXPECT_NE(a->softmax.scores_transpose, nullptr) << c.name;
    EXPECT_EQ(a->window.ToString(), c.window) << c.name;
    // The queries' reshape (a group dim added) is read in place, and the
    // kernel stores through the output's two transposes and reshape: it is
    // the program's only kernel.
    EXPECT_EQ(p.program->fusions.size(), 1u) << c.name << "\n" << p.program->ToString();
    ExpectEveryKernelCompiles(c.name, text);
  }
}

TEST(GpuFlashAttention, EveryCaseMatchesTheInterpreterAndRepeats) {
  if (!GpuAvailable()) GTEST_SKIP() << "no GPU";
  for (const Case& c : Cases()) {
    for (uint64_t seed : {21u, 22u}) ExpectMatchesInterpreterAndRepeats(c.name, c.text, seed);
  }
  for (const CorpusCase& c : kCorpusCases) ExpectMatchesInterpreterAndRepeats(c.name, CorpusProgram(c.name), 23);
}

}  // namespace
}  // namespace hlograph::gpu
