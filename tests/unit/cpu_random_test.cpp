// The CPU interpreter's random kernels. The block functions are checked
// against Random123's published known-answer vectors; rng_bit_generator
// against bits produced by XLA:CPU itself (constants below, each with the
// call that produced it); rng, whose values the spec leaves open, against
// its range and distribution.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "backends/cpu/interpreter.h"
#include "backends/cpu/kernels/random_bits.h"
#include "backends/cpu/tensor.h"
#include "test_util.h"

namespace hlograph::testing {
namespace {

using cpu::Tensor;
using E = ir::ElementType;

Tensor State(const std::vector<uint64_t>& words) {
  Tensor t(ir::Type::Tensor(E::kU64, {static_cast<int64_t>(words.size())}));
  std::memcpy(t.mutable_bytes(), words.data(), words.size() * 8);
  return t;
}

template <typename T>
Tensor Scalar(E e, T value) {
  Tensor t(ir::Type::Tensor(e, {}));
  std::memcpy(t.mutable_bytes(), &value, sizeof(T));
  return t;
}

template <typename T>
std::vector<T> Get(const Tensor& t) {
  std::vector<T> v(static_cast<size_t>(t.num_elements()));
  EXPECT_EQ(t.byte_size(), v.size() * sizeof(T));
  if (!v.empty() && t.byte_size() == v.size() * sizeof(T)) std::memcpy(v.data(), t.bytes(), t.byte_size());
  return v;
}

// Parses, verifies and runs `text`; `error` receives a run error instead of
// failing the test when given.
std::vector<Tensor> RunText(const std::string& text, const std::vector<Tensor>& args, std::string* error = nullptr) {
  auto modules = ParseOrDie(text);
  if (modules.empty()) return {};
  Status verified = ir::VerifyModule(*modules[0]);
  EXPECT_TRUE(verified.ok()) << verified.message() << "\n" << text;
  if (!verified.ok()) return {};
  cpu::Interpreter interpreter(*modules[0]);
  auto results = interpreter.RunEntry(args);
  if (error) {
    *error = results.ok() ? std::string() : results.status().message();
    return results.ok() ? *results : std::vector<Tensor>{};
  }
  EXPECT_TRUE(results.ok()) << results.status().message() << "\n" << text;
  return results.ok() ? *results : std::vector<Tensor>{};
}

// rng_bit_generator on a ui64 state of `words` words, giving `out_type`.
std::string BitGenProgram(const std::string& algorithm, size_t words, const std::string& out_type) {
  const std::string st = "tensor<" + std::to_string(words) + "xui64>";
  return "func.func @main(%s0: " + st + ") -> (" + st + ", " + out_type + ") {\n" +
         "  %s, %o = stablehlo.rng_bit_generator %s0, algorithm = " + algorithm + " : (" + st + ") -> (" + st +
         ", " + out_type + ")\n" + "  return %s, %o : " + st + ", " + out_type + "\n}\n";
}

// The new state and the output's bits (each element zero-extended).
struct BitGenResult {
  std::vector<uint64_t> state;
  std::vector<uint64_t> bits;
};

BitGenResult BitGen(const std::string& algorithm, const std::vector<uint64_t>& state, const std::string& out_type) {
  auto results = RunText(BitGenProgram(algorithm, state.size(), out_type), {State(state)});
  if (results.size() != 2) {
    ADD_FAILURE() << "rng_bit_generator produced " << results.size() << " results";
    return {};
  }
  BitGenResult r;
  r.state = Get<uint64_t>(results[0]);
  const Tensor& out = results[1];
  const size_t bytes = static_cast<size_t>(ir::StorageBytes(out.element()));
  for (int64_t i = 0; i < out.num_elements(); ++i) {
    uint64_t v = 0;
    std::memcpy(&v, out.bytes() + static_cast<size_t>(i) * bytes, bytes);
    r.bits.push_back(v);
  }
  return r;
}

// ---------------------------------------------------------------------------
// Block functions: Random123's kat_vectors (Salmon et al., SC 2011).

TEST(RandomBits, Threefry2x32KnownAnswers) {
  using W2 = std::array<uint32_t, 2>;
  EXPECT_EQ(cpu::random::Threefry2x32({0, 0}, {0, 0}), (W2{0x6b200159u, 0x99ba4efeu}));
  EXPECT_EQ(cpu::random::Threefry2x32({0xffffffffu, 0xffffffffu}, {0xffffffffu, 0xffffffffu}),
            (W2{0x1cb996fcu, 0xbb002be7u}));
  EXPECT_EQ(cpu::random::Threefry2x32({0x13198a2eu, 0x03707344u}, {0x243f6a88u, 0x85a308d3u}),
            (W2{0xc4923a9cu, 0x483df7a0u}));
}

TEST(RandomBits, Philox4x32KnownAnswers) {
  using W4 = std::array<uint32_t, 4>;
  EXPECT_EQ(cpu::random::Philox4x32({0, 0}, {0, 0, 0, 0}), (W4{0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu, 0x9b00dbd8u}));
  EXPECT_EQ(cpu::random::Philox4x32({0xffffffffu, 0xffffffffu}, {0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu}),
            (W4{0x408f276du, 0x41c83b0eu, 0xa20bc7c6u, 0x6d5451fdu}));
  EXPECT_EQ(cpu::random::Philox4x32({0xa4093822u, 0x299f31d0u}, {0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u}),
            (W4{0xd16cfe09u, 0x94fdccebu, 0x5001e420u, 0x24126ea1u}));
}

// ---------------------------------------------------------------------------
// rng_bit_generator against XLA:CPU (jax 0.11.2, JAX_PLATFORMS=cpu, x64 on).

struct XlaCase {
  const char* algorithm;
  std::vector<uint64_t> state;
  const char* out_type;
  std::vector<uint64_t> want_state;
  std::vector<uint64_t> want_bits;
};

// Cases with a 2-word state come from
//   jax.jit(lambda k: jax.lax.rng_bit_generator(k, shape, dtype, algorithm=A))(
//       jnp.array(state, jnp.uint64))
// with A one of jax.lax.RandomAlgorithm.RNG_THREE_FRY / RNG_PHILOX /
// RNG_DEFAULT. jax.lax only takes 2-word states, so the 3-word ones come from
// compiling the same one-op StableHLO module with XLA:CPU directly
// (jax's backend.compile_and_load) and executing it.
const std::vector<XlaCase>& XlaCases() {
  static const std::vector<XlaCase> cases = {
      // An odd shape: XLA halves the largest dimension.
      {"THREE_FRY", {0x0123456789abcdefu, 42}, "tensor<3x5xui32>", {0x0123456789abcdefu, 0x33},
       {0x892c25c1, 0x93887604, 0x02e2c389, 0x7403a6bb, 0xf72baafd, 0x4e63df35, 0x4c8414c8, 0x3da776fd, 0x00b61b0b,
        0x70cf275e, 0xea769edb, 0x94b031e5, 0x76f47899, 0x3f7b3619, 0x2c104a32}},
      // The counter wraps around 2^64.
      {"THREE_FRY", {7, 0xfffffffffffffffeu}, "tensor<2x3xui8>", {7, 1}, {0x97, 0x07, 0x6a, 0xea, 0x93, 0xb9}},
      {"THREE_FRY", {1, 2}, "tensor<5xui64>", {1, 7},
       {0x802fd53b0296e954u, 0xdf435003ed3492d3u, 0xfcc0f26163b40bd3u, 0x24e4d3347dbb1d60u, 0xe3f04ce59718c0adu}},
      {"THREE_FRY", {1, 2}, "tensor<ui32>", {1, 3}, {0x0296e954}},
      {"THREE_FRY", {1, 2}, "tensor<0x3xui32>", {1, 2}, {}},
      {"PHILOX", {0x0123456789abcdefu, 42}, "tensor<7xui32>", {0x0123456789abcdefu, 0x2c},
       {0xe203ebe1, 0xf287f658, 0xdae0160f, 0x5db52277, 0xcd63a532, 0x40d5e3b5, 0xe4892e4e}},
      {"PHILOX", {5, 0xffffffffffffffffu}, "tensor<3xui64>", {5, 1},
       {0xf08b44004e5aa1bau, 0xf8215f0c979e52b9u, 0xd8ab4d5303dae66bu}},
      {"PHILOX", {5, 0xfffffffffffffffeu}, "tensor<5xui16>", {5, 0}, {0x7a50, 0xe003, 0x133a, 0x5587, 0xa1ba}},
      {"DEFAULT", {3, 4}, "tensor<2x2xui16>", {3, 5}, {0x9018, 0x2e6a, 0xfd12, 0x5eaf}},
      {"DEFAULT", {3, 4}, "tensor<6xui8>", {3, 6}, {0x18, 0x6a, 0x12, 0xaf, 0x9c, 0xd5}},
      // 3-word states (compiled module); the first carries into the high word.
      {"PHILOX", {5, 0xffffffffffffffffu, 9}, "tensor<3xui64>", {5, 1, 10},
       {0x61720f63ef6f6e7cu, 0xe4e5853c0bfc03a2u, 0xf67a75df4d0bbb27u}},
      {"DEFAULT", {3, 0xfffffffffffffffeu, 0xffffffffffffffffu}, "tensor<5xui32>", {3, 0, 0},
       {0x258ab181, 0x4928947a, 0x9e6550d2, 0x018dc525, 0xcdba4c57}},
  };
  return cases;
}

TEST(RngBitGenerator, MatchesXla) {
  for (const XlaCase& c : XlaCases()) {
    SCOPED_TRACE(std::string(c.algorithm) + " " + c.out_type);
    BitGenResult r = BitGen(c.algorithm, c.state, c.out_type);
    EXPECT_EQ(r.state, c.want_state);
    EXPECT_EQ(r.bits, c.want_bits);
  }
}

// XLA writes the same raw bits whatever the result's element type (checked
// against the compiled module for i32 and f32: both give the ui32 bits).
TEST(RngBitGenerator, SignedAndFloatResultsTakeRawBits) {
  const std::vector<uint64_t> want = {0x0296e954, 0x802fd53b, 0xed3492d3, 0xdf435003, 0x63b40bd3};
  for (const char* type : {"tensor<5xi32>", "tensor<5xf32>", "tensor<5xui32>"}) {
    SCOPED_TRACE(type);
    BitGenResult r = BitGen("THREE_FRY", {1, 2}, type);
    EXPECT_EQ(r.state, (std::vector<uint64_t>{1, 5}));
    EXPECT_EQ(r.bits, want);
  }
}

// Sub-byte results keep the low bits of each word (XLA, compiled module, state
// [5, 7], 6 elements: THREE_FRY ui4 gives 3 8 5 2 1 10, PHILOX 1 8 7 9 12 1);
// i4 is stored sign-extended.
TEST(RngBitGenerator, SubByteResults) {
  EXPECT_EQ(BitGen("THREE_FRY", {5, 7}, "tensor<6xui4>").bits, (std::vector<uint64_t>{3, 8, 5, 2, 1, 10}));
  EXPECT_EQ(BitGen("PHILOX", {5, 7}, "tensor<6xui4>").bits, (std::vector<uint64_t>{1, 8, 7, 9, 12, 1}));
  auto results = RunText(BitGenProgram("PHILOX", 2, "tensor<6xi4>"), {State({5, 7})});
  ASSERT_EQ(results.size(), 2u);
  EXPECT_EQ(Get<int8_t>(results[1]), (std::vector<int8_t>{1, -8, 7, -7, -4, 1}));
}

// The new state continues the stream: two calls of 4 equal one call of 8
// (for 1-D results both algorithms number blocks in element order).
TEST(RngBitGenerator, StateContinuesTheStream) {
  for (const char* algorithm : {"THREE_FRY", "PHILOX"}) {
    SCOPED_TRACE(algorithm);
    BitGenResult whole = BitGen(algorithm, {11, 100}, "tensor<8xui32>");
    BitGenResult first = BitGen(algorithm, {11, 100}, "tensor<4xui32>");
    BitGenResult second = BitGen(algorithm, first.state, "tensor<4xui32>");
    std::vector<uint64_t> joined = first.bits;
    joined.insert(joined.end(), second.bits.begin(), second.bits.end());
    EXPECT_EQ(joined, whole.bits);
    EXPECT_EQ(second.state, whole.state);
  }
}

TEST(RngBitGenerator, RejectsStatesXlaRejects) {
  const std::string text =
      "func.func @main(%s0: tensor<4xui32>) -> (tensor<4xui32>, tensor<5xui32>) {\n"
      "  %s, %o = stablehlo.rng_bit_generator %s0, algorithm = PHILOX : (tensor<4xui32>) -> (tensor<4xui32>, "
      "tensor<5xui32>)\n"
      "  return %s, %o : tensor<4xui32>, tensor<5xui32>\n}\n";
  Tensor state(ir::Type::Tensor(E::kU32, {4}));
  std::string error;
  RunText(text, {state}, &error);
  EXPECT_TRUE(HasSubstr(error, "ui64 state"));
}

// ---------------------------------------------------------------------------
// rng: values are implementation-defined; check range and distribution.

std::string RngProgram(const std::string& distribution, const std::string& scalar, const std::string& shape) {
  std::string dims = shape, list;
  const std::string result = "tensor<" + shape + "x" + scalar + ">";
  int rank = 0;
  for (size_t at = 0; !dims.empty(); ++rank) {
    at = dims.find('x');
    list += (rank ? ", " : "") + dims.substr(0, at);
    dims = at == std::string::npos ? "" : dims.substr(at + 1);
  }
  const std::string st = "tensor<" + scalar + ">";
  const std::string shape_type = "tensor<" + std::to_string(rank) + "xi64>";
  return "func.func @main(%a: " + st + ", %b: " + st + ") -> " + result + " {\n" +
         "  %shape = stablehlo.constant dense<[" + list + "]> : " + shape_type + "\n" +
         "  %r = stablehlo.rng %a, %b, %shape, distribution = " + distribution + " : (" + st + ", " + st + ", " +
         shape_type + ") -> " + result + "\n" + "  return %r : " + result + "\n}\n";
}

template <typename T>
std::vector<T> Rng(const std::string& distribution, E e, const std::string& scalar, T a, T b,
                   const std::string& shape) {
  auto results = RunText(RngProgram(distribution, scalar, shape), {Scalar(e, a), Scalar(e, b)});
  if (results.size() != 1) return {};
  return Get<T>(results[0]);
}

TEST(Rng, UniformFloatInRange) {
  const std::vector<float> v = Rng<float>("UNIFORM", E::kF32, "f32", -2.0f, 3.0f, "100x100");
  ASSERT_EQ(v.size(), 10000u);
  double sum = 0;
  for (float x : v) {
    ASSERT_GE(x, -2.0f);
    ASSERT_LT(x, 3.0f);
    sum += x;
  }
  EXPECT_NEAR(sum / 10000, 0.5, 0.05);  // 5 standard errors
  EXPECT_GT(std::set<float>(v.begin(), v.end()).size(), 9900u);
}

TEST(Rng, UniformFloatNeverReachesB) {
  // f16 1.0 and the next f16 after it: only 1.0 lies in [a, b).
  const std::vector<uint16_t> h = Rng<uint16_t>("UNIFORM", E::kF16, "f16", 0x3c00, 0x3c01, "1000");
  ASSERT_EQ(h.size(), 1000u);
  for (uint16_t x : h) ASSERT_EQ(x, 0x3c00);
  // f64 over its whole finite range, where b - a overflows.
  const double max = 1.7976931348623157e308;
  for (double x : Rng<double>("UNIFORM", E::kF64, "f64", -max, max, "1000")) {
    ASSERT_TRUE(std::isfinite(x));
    ASSERT_LT(x, max);
  }
}

TEST(Rng, UniformIntInRangeAndCovers) {
  const std::vector<int32_t> v = Rng<int32_t>("UNIFORM", E::kI32, "i32", -5, 5, "2000");
  ASSERT_EQ(v.size(), 2000u);
  for (int32_t x : v) {
    ASSERT_GE(x, -5);
    ASSERT_LT(x, 5);
  }
  EXPECT_EQ(std::set<int32_t>(v.begin(), v.end()).size(), 10u);

  for (uint8_t x : Rng<uint8_t>("UNIFORM", E::kU8, "ui8", 250, 255, "500")) {
    ASSERT_GE(x, 250);
    ASSERT_LT(x, 255);
  }
  const std::vector<int8_t> i4 = Rng<int8_t>("UNIFORM", E::kI4, "i4", -8, 7, "500");
  for (int8_t x : i4) {
    ASSERT_GE(x, -8);
    ASSERT_LT(x, 7);
  }
  EXPECT_EQ(std::set<int8_t>(i4.begin(), i4.end()).size(), 15u);
  const int64_t lo = INT64_MIN, hi = INT64_MAX;
  for (int64_t x : Rng<int64_t>("UNIFORM", E::kI64, "i64", lo, hi, "500")) ASSERT_LT(x, hi);
  // An empty range gives a.
  for (int32_t x : Rng<int32_t>("UNIFORM", E::kI32, "i32", 4, 4, "10")) ASSERT_EQ(x, 4);
}

TEST(Rng, NormalMeanAndDeviation) {
  const std::vector<double> v = Rng<double>("NORMAL", E::kF64, "f64", 3.0, 2.0, "20000");
  ASSERT_EQ(v.size(), 20000u);
  double sum = 0, sq = 0;
  for (double x : v) {
    ASSERT_TRUE(std::isfinite(x));
    sum += x;
    sq += x * x;
  }
  const double mean = sum / 20000, sd = std::sqrt(sq / 20000 - mean * mean);
  EXPECT_NEAR(mean, 3.0, 0.075);  // 5 standard errors
  EXPECT_NEAR(sd, 2.0, 0.06);
}

// Each invocation draws new numbers; resetting the count repeats them.
TEST(Rng, InvocationsDifferAndRepeatAfterReset) {
  cpu::random::ResetRngInvocationCount();
  const std::vector<float> first = Rng<float>("UNIFORM", E::kF32, "f32", 0.0f, 1.0f, "16");
  const std::vector<float> second = Rng<float>("UNIFORM", E::kF32, "f32", 0.0f, 1.0f, "16");
  EXPECT_NE(first, second);
  cpu::random::ResetRngInvocationCount();
  EXPECT_EQ(Rng<float>("UNIFORM", E::kF32, "f32", 0.0f, 1.0f, "16"), first);
}

}  // namespace
}  // namespace hlograph::testing
