// Float bit patterns (ir/float_bits.h) and their spelling
// (ir/printing_utils.h FormatFloatBits). Expected values come from the
// format definitions (IEEE 754 binary16, bfloat16, the OCP 8-bit/6-bit/4-bit
// formats and the FNUZ variants) and from the spellings JAX prints in
// tests/corpus, not from hlograph itself.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <regex>
#include <string>

#include "ir/element_type.h"
#include "ir/float_bits.h"
#include "ir/printing_utils.h"

namespace hlograph::ir {
namespace {

using E = ElementType;

double Pow2(int e) { return std::ldexp(1.0, e); }

uint32_t BitsOf(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}
uint64_t BitsOf(double d) {
  uint64_t b;
  std::memcpy(&b, &d, 8);
  return b;
}

bool IsNan(uint64_t bits, E t) { return std::isnan(FloatBitsToDouble(bits, t)); }

// Decoding `bits` gives `value`, and encoding `value` gives `bits` back.
void ExpectExact(E t, uint64_t bits, double value) {
  SCOPED_TRACE(std::string(ElementTypeName(t)) + " bits 0x" + [&] {
    char buf[20];
    std::snprintf(buf, sizeof(buf), "%llX", static_cast<unsigned long long>(bits));
    return std::string(buf);
  }());
  const double decoded = FloatBitsToDouble(bits, t);
  EXPECT_EQ(decoded, value);
  EXPECT_EQ(std::signbit(decoded), std::signbit(value));
  EXPECT_EQ(DoubleToFloatBits(value, t), bits);
}

// ---------------------------------------------------------------------------
// IEEE binary16

TEST(FloatBits, F16KnownValues) {
  ExpectExact(E::kF16, 0x0000, 0.0);
  ExpectExact(E::kF16, 0x8000, -0.0);
  ExpectExact(E::kF16, 0x3C00, 1.0);
  ExpectExact(E::kF16, 0xC000, -2.0);
  ExpectExact(E::kF16, 0x3800, 0.5);
  ExpectExact(E::kF16, 0x3555, 1365.0 / 4096.0);  // the f16 nearest to 1/3
  ExpectExact(E::kF16, 0x7BFF, 65504.0);             // largest finite
  ExpectExact(E::kF16, 0xFBFF, -65504.0);
  ExpectExact(E::kF16, 0x0400, Pow2(-14));           // smallest normal
  ExpectExact(E::kF16, 0x0001, Pow2(-24));           // smallest subnormal
  ExpectExact(E::kF16, 0x03FF, 1023 * Pow2(-24));    // largest subnormal
  ExpectExact(E::kF16, 0x8001, -Pow2(-24));
  EXPECT_EQ(FloatBitsToDouble(0x7C00, E::kF16), std::numeric_limits<double>::infinity());
  EXPECT_EQ(FloatBitsToDouble(0xFC00, E::kF16), -std::numeric_limits<double>::infinity());
  EXPECT_EQ(DoubleToFloatBits(INFINITY, E::kF16), 0x7C00u);
  EXPECT_EQ(DoubleToFloatBits(-INFINITY, E::kF16), 0xFC00u);
  for (uint64_t nan : {0x7C01u, 0x7E00u, 0x7FFFu, 0xFC01u, 0xFE00u}) EXPECT_TRUE(IsNan(nan, E::kF16)) << nan;
  const uint64_t nan_bits = DoubleToFloatBits(std::nan(""), E::kF16);
  EXPECT_EQ(nan_bits & 0x7C00u, 0x7C00u);
  EXPECT_NE(nan_bits & 0x03FFu, 0u);
}

// A NaN decodes with its sign and payload, so a total order on the decoded
// doubles is the total order on the bits (-NaN first, +NaN last).
TEST(FloatBits, NanKeepsSignAndPayloadOrder) {
  const double pos = FloatBitsToDouble(0x7E00, E::kF16), neg = FloatBitsToDouble(0xFE00, E::kF16);
  ASSERT_TRUE(std::isnan(pos) && std::isnan(neg));
  EXPECT_FALSE(std::signbit(pos));
  EXPECT_TRUE(std::signbit(neg));
  uint64_t quiet, payload;
  const double small = FloatBitsToDouble(0x7C01, E::kF16), big = FloatBitsToDouble(0x7E00, E::kF16);
  std::memcpy(&payload, &small, 8);
  std::memcpy(&quiet, &big, 8);
  EXPECT_LT(payload, quiet);
  EXPECT_TRUE(std::signbit(FloatBitsToDouble(0xFF, E::kF8E4M3FN)));
  EXPECT_FALSE(std::signbit(FloatBitsToDouble(0x7F, E::kF8E4M3FN)));
}

TEST(FloatBits, F16RoundsToNearestEven) {
  // 1 + 2^-11 lies halfway between 1.0 (even) and 1 + 2^-10.
  EXPECT_EQ(DoubleToFloatBits(1 + Pow2(-11), E::kF16), 0x3C00u);
  // 1 + 3 * 2^-11 lies halfway between 0x3C01 (odd) and 0x3C02 (even).
  EXPECT_EQ(DoubleToFloatBits(1 + 3 * Pow2(-11), E::kF16), 0x3C02u);
  // Just above the halfway point rounds up.
  EXPECT_EQ(DoubleToFloatBits(1 + Pow2(-11) + Pow2(-30), E::kF16), 0x3C01u);
  // Subnormal halfway cases: 2^-25 is halfway between 0 and 2^-24.
  EXPECT_EQ(DoubleToFloatBits(Pow2(-25), E::kF16), 0x0000u);
  EXPECT_EQ(DoubleToFloatBits(3 * Pow2(-25), E::kF16), 0x0002u);  // 1.5 ulp -> 2 (even)
  EXPECT_EQ(DoubleToFloatBits(0.75 * Pow2(-24), E::kF16), 0x0001u);
  EXPECT_EQ(DoubleToFloatBits(-Pow2(-26), E::kF16), 0x8000u);  // underflows to -0
  // Rounding up out of the subnormal range gives the smallest normal.
  EXPECT_EQ(DoubleToFloatBits(Pow2(-14) - Pow2(-26), E::kF16), 0x0400u);
  // Overflow: 65520 is halfway between 65504 and 2^16, which rounds to inf.
  EXPECT_EQ(DoubleToFloatBits(65519.0, E::kF16), 0x7BFFu);
  EXPECT_EQ(DoubleToFloatBits(65520.0, E::kF16), 0x7C00u);
  EXPECT_EQ(DoubleToFloatBits(-1e10, E::kF16), 0xFC00u);
}

TEST(FloatBits, F16EveryFinitePatternRoundTripsThroughDouble) {
  for (uint32_t b = 0; b < 0x10000; ++b) {
    const double d = FloatBitsToDouble(b, E::kF16);
    if (std::isnan(d)) continue;
    ASSERT_EQ(DoubleToFloatBits(d, E::kF16), b) << "bits " << b;
  }
}

// ---------------------------------------------------------------------------
// bfloat16

TEST(FloatBits, Bf16KnownValues) {
  ExpectExact(E::kBF16, 0x3F80, 1.0);
  ExpectExact(E::kBF16, 0xBF80, -1.0);
  ExpectExact(E::kBF16, 0x4020, 2.5);
  ExpectExact(E::kBF16, 0x0000, 0.0);
  ExpectExact(E::kBF16, 0x8000, -0.0);
  ExpectExact(E::kBF16, 0x7F7F, (2 - Pow2(-7)) * Pow2(127));  // largest finite
  ExpectExact(E::kBF16, 0x0080, Pow2(-126));                   // smallest normal
  ExpectExact(E::kBF16, 0x0001, Pow2(-133));                   // smallest subnormal
  EXPECT_EQ(FloatBitsToDouble(0x7F80, E::kBF16), INFINITY);
  EXPECT_EQ(FloatBitsToDouble(0xFF80, E::kBF16), -INFINITY);
  EXPECT_EQ(DoubleToFloatBits(-INFINITY, E::kBF16), 0xFF80u);
  EXPECT_TRUE(IsNan(0x7FC0, E::kBF16));
  EXPECT_TRUE(IsNan(0x7F81, E::kBF16));
}

TEST(FloatBits, Bf16RoundsToNearestEven) {
  EXPECT_EQ(DoubleToFloatBits(1 + Pow2(-8), E::kBF16), 0x3F80u);          // tie -> even (down)
  EXPECT_EQ(DoubleToFloatBits(1 + 3 * Pow2(-8), E::kBF16), 0x3F82u);      // tie -> even (up)
  EXPECT_EQ(DoubleToFloatBits(1 + Pow2(-8) + Pow2(-20), E::kBF16), 0x3F81u);
  EXPECT_EQ(DoubleToFloatBits(1 + Pow2(-8) - Pow2(-20), E::kBF16), 0x3F80u);
  // bf16 is the top half of f32: for values exact in bf16 the bits agree.
  for (float f : {1.0f, -3.5f, 0.15625f, 1e30f, -1e-30f}) {
    const uint32_t f32 = BitsOf(f);
    if ((f32 & 0xFFFF) != 0) continue;
    EXPECT_EQ(DoubleToFloatBits(f, E::kBF16), f32 >> 16) << f;
  }
  // Past the largest finite by at least half an ulp: inf.
  EXPECT_EQ(DoubleToFloatBits((2 - Pow2(-8)) * Pow2(127), E::kBF16), 0x7F80u);
  EXPECT_EQ(DoubleToFloatBits(1e39, E::kBF16), 0x7F80u);
}

TEST(FloatBits, Bf16EveryFinitePatternRoundTripsThroughDouble) {
  for (uint32_t b = 0; b < 0x10000; ++b) {
    const double d = FloatBitsToDouble(b, E::kBF16);
    if (std::isnan(d)) continue;
    ASSERT_EQ(DoubleToFloatBits(d, E::kBF16), b) << "bits " << b;
    // And agrees with f32's interpretation of the same top bits.
    float f;
    const uint32_t f32 = b << 16;
    std::memcpy(&f, &f32, 4);
    ASSERT_EQ(d, static_cast<double>(f)) << "bits " << b;
  }
}

// ---------------------------------------------------------------------------
// 8-bit formats

TEST(FloatBits, F8E4M3FN) {
  // OCP FP8 E4M3: bias 7, no infinities, S.1111.111 is NaN.
  ExpectExact(E::kF8E4M3FN, 0x38, 1.0);
  ExpectExact(E::kF8E4M3FN, 0x7E, 448.0);    // largest finite
  ExpectExact(E::kF8E4M3FN, 0xFE, -448.0);
  ExpectExact(E::kF8E4M3FN, 0x78, 256.0);    // exponent field 15 is still finite
  ExpectExact(E::kF8E4M3FN, 0x08, Pow2(-6)); // smallest normal
  ExpectExact(E::kF8E4M3FN, 0x01, Pow2(-9)); // smallest subnormal
  ExpectExact(E::kF8E4M3FN, 0x80, -0.0);
  EXPECT_TRUE(IsNan(0x7F, E::kF8E4M3FN));
  EXPECT_TRUE(IsNan(0xFF, E::kF8E4M3FN));
  EXPECT_TRUE(IsNan(DoubleToFloatBits(std::nan(""), E::kF8E4M3FN), E::kF8E4M3FN));
  // No infinity: anything that rounds past 448 is NaN.
  EXPECT_TRUE(IsNan(DoubleToFloatBits(INFINITY, E::kF8E4M3FN), E::kF8E4M3FN));
  EXPECT_TRUE(IsNan(DoubleToFloatBits(-INFINITY, E::kF8E4M3FN), E::kF8E4M3FN));
  EXPECT_TRUE(IsNan(DoubleToFloatBits(1e6, E::kF8E4M3FN), E::kF8E4M3FN));
  EXPECT_TRUE(IsNan(DoubleToFloatBits(470.0, E::kF8E4M3FN), E::kF8E4M3FN));  // rounds to 480
  EXPECT_EQ(DoubleToFloatBits(460.0, E::kF8E4M3FN), 0x7Eu);  // rounds down to 448
  EXPECT_EQ(DoubleToFloatBits(464.0, E::kF8E4M3FN), 0x7Eu);  // tie: 448 has the even mantissa
  EXPECT_EQ(DoubleToFloatBits(-460.0, E::kF8E4M3FN), 0xFEu);
}

TEST(FloatBits, F8E5M2) {
  // OCP FP8 E5M2: IEEE-like, bias 15, with infinities.
  ExpectExact(E::kF8E5M2, 0x3C, 1.0);
  ExpectExact(E::kF8E5M2, 0x7B, 57344.0);
  ExpectExact(E::kF8E5M2, 0xFB, -57344.0);
  ExpectExact(E::kF8E5M2, 0x04, Pow2(-14));
  ExpectExact(E::kF8E5M2, 0x01, Pow2(-16));
  EXPECT_EQ(FloatBitsToDouble(0x7C, E::kF8E5M2), INFINITY);
  EXPECT_EQ(FloatBitsToDouble(0xFC, E::kF8E5M2), -INFINITY);
  for (uint64_t nan : {0x7Du, 0x7Eu, 0x7Fu, 0xFDu, 0xFFu}) EXPECT_TRUE(IsNan(nan, E::kF8E5M2));
  EXPECT_EQ(DoubleToFloatBits(INFINITY, E::kF8E5M2), 0x7Cu);
  EXPECT_EQ(DoubleToFloatBits(1e6, E::kF8E5M2), 0x7Cu);
  EXPECT_EQ(DoubleToFloatBits(-1e6, E::kF8E5M2), 0xFCu);
  // 61440 is halfway between 57344 (odd mantissa) and 65536: rounds to inf.
  EXPECT_EQ(DoubleToFloatBits(61440.0, E::kF8E5M2), 0x7Cu);
  EXPECT_EQ(DoubleToFloatBits(61439.0, E::kF8E5M2), 0x7Bu);
}

TEST(FloatBits, F8E4M3FNUZ) {
  // bias 8, no infinities, no negative zero; 0x80 is the only NaN.
  ExpectExact(E::kF8E4M3FNUZ, 0x40, 1.0);
  ExpectExact(E::kF8E4M3FNUZ, 0x7F, 240.0);
  ExpectExact(E::kF8E4M3FNUZ, 0xFF, -240.0);
  ExpectExact(E::kF8E4M3FNUZ, 0x01, Pow2(-10));
  ExpectExact(E::kF8E4M3FNUZ, 0x00, 0.0);
  EXPECT_TRUE(IsNan(0x80, E::kF8E4M3FNUZ));
  EXPECT_FALSE(IsNan(0x7F, E::kF8E4M3FNUZ));
  EXPECT_FALSE(IsNan(0xFF, E::kF8E4M3FNUZ));
  EXPECT_EQ(DoubleToFloatBits(std::nan(""), E::kF8E4M3FNUZ), 0x80u);
  EXPECT_EQ(DoubleToFloatBits(INFINITY, E::kF8E4M3FNUZ), 0x80u);
  EXPECT_EQ(DoubleToFloatBits(-0.0, E::kF8E4M3FNUZ), 0x00u);  // no -0
  EXPECT_EQ(DoubleToFloatBits(-Pow2(-14), E::kF8E4M3FNUZ), 0x00u);  // underflow loses the sign
}

TEST(FloatBits, F8E5M2FNUZ) {
  ExpectExact(E::kF8E5M2FNUZ, 0x40, 1.0);
  ExpectExact(E::kF8E5M2FNUZ, 0x7F, 57344.0);
  ExpectExact(E::kF8E5M2FNUZ, 0x01, Pow2(-17));
  ExpectExact(E::kF8E5M2FNUZ, 0x04, Pow2(-15));
  EXPECT_TRUE(IsNan(0x80, E::kF8E5M2FNUZ));
  EXPECT_FALSE(IsNan(0x7C, E::kF8E5M2FNUZ));  // no infinity encoding
  EXPECT_EQ(FloatBitsToDouble(0x7C, E::kF8E5M2FNUZ), 32768.0);
  EXPECT_EQ(DoubleToFloatBits(-INFINITY, E::kF8E5M2FNUZ), 0x80u);
}

TEST(FloatBits, F8E4M3B11FNUZ) {
  // bias 11: max = 1.875 * 2^4 = 30.
  ExpectExact(E::kF8E4M3B11FNUZ, 0x58, 1.0);
  ExpectExact(E::kF8E4M3B11FNUZ, 0x7F, 30.0);
  ExpectExact(E::kF8E4M3B11FNUZ, 0x01, Pow2(-13));
  ExpectExact(E::kF8E4M3B11FNUZ, 0x08, Pow2(-10));
  EXPECT_TRUE(IsNan(0x80, E::kF8E4M3B11FNUZ));
  EXPECT_EQ(DoubleToFloatBits(1000.0, E::kF8E4M3B11FNUZ), 0x80u);
}

TEST(FloatBits, F8E3M4) {
  // IEEE-like, bias 3: max = 1.9375 * 2^3 = 15.5.
  ExpectExact(E::kF8E3M4, 0x30, 1.0);
  ExpectExact(E::kF8E3M4, 0x6F, 15.5);
  ExpectExact(E::kF8E3M4, 0x01, Pow2(-6));
  ExpectExact(E::kF8E3M4, 0x10, Pow2(-2));
  EXPECT_EQ(FloatBitsToDouble(0x70, E::kF8E3M4), INFINITY);
  EXPECT_EQ(FloatBitsToDouble(0xF0, E::kF8E3M4), -INFINITY);
  EXPECT_TRUE(IsNan(0x71, E::kF8E3M4));
  EXPECT_EQ(DoubleToFloatBits(100.0, E::kF8E3M4), 0x70u);
}

TEST(FloatBits, F8E4M3) {
  // IEEE-like, bias 7: max = 1.875 * 2^7 = 240.
  ExpectExact(E::kF8E4M3, 0x38, 1.0);
  ExpectExact(E::kF8E4M3, 0x77, 240.0);
  ExpectExact(E::kF8E4M3, 0x01, Pow2(-9));
  EXPECT_EQ(FloatBitsToDouble(0x78, E::kF8E4M3), INFINITY);
  EXPECT_TRUE(IsNan(0x79, E::kF8E4M3));
  EXPECT_TRUE(IsNan(0x7F, E::kF8E4M3));
  EXPECT_EQ(DoubleToFloatBits(1000.0, E::kF8E4M3), 0x78u);
  EXPECT_EQ(DoubleToFloatBits(-1000.0, E::kF8E4M3), 0xF8u);
}

TEST(FloatBits, F8E8M0FNU) {
  // OCP MX scale format: unsigned, 8 exponent bits, bias 127, powers of two
  // only, 0xFF is NaN, no zero and no infinity.
  ExpectExact(E::kF8E8M0FNU, 0x7F, 1.0);
  ExpectExact(E::kF8E8M0FNU, 0x80, 2.0);
  ExpectExact(E::kF8E8M0FNU, 0x7D, 0.25);
  ExpectExact(E::kF8E8M0FNU, 0x00, Pow2(-127));
  ExpectExact(E::kF8E8M0FNU, 0xFE, Pow2(127));
  EXPECT_TRUE(IsNan(0xFF, E::kF8E8M0FNU));
  EXPECT_EQ(DoubleToFloatBits(std::nan(""), E::kF8E8M0FNU), 0xFFu);
  EXPECT_EQ(DoubleToFloatBits(INFINITY, E::kF8E8M0FNU), 0xFFu);
  EXPECT_EQ(DoubleToFloatBits(-1.0, E::kF8E8M0FNU), 0xFFu);  // unsigned
}

TEST(FloatBits, F8E8M0FNURoundsToTheNearestPowerOfTwo) {
  // Round to nearest is a statement about distances: 2.9 is 0.9 away from 2
  // and 1.1 away from 4, so it rounds to 2.
  EXPECT_EQ(DoubleToFloatBits(2.9, E::kF8E8M0FNU), 0x80u) << "2.9 is nearer to 2 than to 4";
  EXPECT_EQ(DoubleToFloatBits(5.9, E::kF8E8M0FNU), 0x81u) << "5.9 is nearer to 4 than to 8";
  EXPECT_EQ(DoubleToFloatBits(1.45, E::kF8E8M0FNU), 0x7Fu) << "1.45 is nearer to 1 than to 2";
  EXPECT_EQ(DoubleToFloatBits(3.1, E::kF8E8M0FNU), 0x81u);
  EXPECT_EQ(DoubleToFloatBits(2.5, E::kF8E8M0FNU), 0x80u);
}

// ---------------------------------------------------------------------------
// 6-bit and 4-bit formats (OCP MX): no infinities, no NaN.

TEST(FloatBits, F4E2M1FNAllValues) {
  const double values[8] = {0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0};
  for (uint64_t b = 0; b < 8; ++b) {
    ExpectExact(E::kF4E2M1FN, b, values[b]);
    if (b != 0) ExpectExact(E::kF4E2M1FN, b | 0x8, -values[b]);
  }
  EXPECT_EQ(FloatBitsToDouble(0x8, E::kF4E2M1FN), 0.0);
  EXPECT_TRUE(std::signbit(FloatBitsToDouble(0x8, E::kF4E2M1FN)));
}

TEST(FloatBits, F4E2M1FNRoundingAndSaturation) {
  EXPECT_EQ(DoubleToFloatBits(5.0, E::kF4E2M1FN), 0x6u);   // tie 4|6 -> 4 (even mantissa)
  EXPECT_EQ(DoubleToFloatBits(2.5, E::kF4E2M1FN), 0x4u);   // tie 2|3 -> 2
  EXPECT_EQ(DoubleToFloatBits(3.5, E::kF4E2M1FN), 0x6u);   // tie 3|4 -> 4
  EXPECT_EQ(DoubleToFloatBits(0.25, E::kF4E2M1FN), 0x0u);  // tie 0|0.5 -> 0
  EXPECT_EQ(DoubleToFloatBits(0.75, E::kF4E2M1FN), 0x2u);  // tie 0.5|1 -> 1
  EXPECT_EQ(DoubleToFloatBits(1.2, E::kF4E2M1FN), 0x2u);
  // Nothing beyond 6 exists: saturate.
  EXPECT_EQ(DoubleToFloatBits(100.0, E::kF4E2M1FN), 0x7u);
  EXPECT_EQ(DoubleToFloatBits(-100.0, E::kF4E2M1FN), 0xFu);
}

TEST(FloatBits, F6E2M3FN) {
  // bias 1: max = 1.875 * 2^2 = 7.5, smallest subnormal 2^-3.
  ExpectExact(E::kF6E2M3FN, 0x08, 1.0);
  ExpectExact(E::kF6E2M3FN, 0x1F, 7.5);
  ExpectExact(E::kF6E2M3FN, 0x3F, -7.5);
  ExpectExact(E::kF6E2M3FN, 0x01, 0.125);
  for (uint64_t b = 0; b < 64; ++b) EXPECT_FALSE(std::isnan(FloatBitsToDouble(b, E::kF6E2M3FN))) << b;
  EXPECT_EQ(DoubleToFloatBits(50.0, E::kF6E2M3FN), 0x1Fu);
}

TEST(FloatBits, F6E3M2FN) {
  // bias 3: max = 1.75 * 2^4 = 28, smallest subnormal 2^-4.
  ExpectExact(E::kF6E3M2FN, 0x0C, 1.0);
  ExpectExact(E::kF6E3M2FN, 0x1F, 28.0);
  ExpectExact(E::kF6E3M2FN, 0x3F, -28.0);
  ExpectExact(E::kF6E3M2FN, 0x01, 0.0625);
  for (uint64_t b = 0; b < 64; ++b) EXPECT_FALSE(std::isnan(FloatBitsToDouble(b, E::kF6E3M2FN))) << b;
  EXPECT_EQ(DoubleToFloatBits(-500.0, E::kF6E3M2FN), 0x3Fu);
}

TEST(FloatBits, EveryNarrowPatternRoundTripsThroughDouble) {
  struct Fmt {
    E type;
    int bits;
  };
  for (Fmt f : {Fmt{E::kF4E2M1FN, 4}, Fmt{E::kF6E2M3FN, 6}, Fmt{E::kF6E3M2FN, 6}, Fmt{E::kF8E3M4, 8},
                Fmt{E::kF8E4M3, 8}, Fmt{E::kF8E4M3FN, 8}, Fmt{E::kF8E4M3FNUZ, 8}, Fmt{E::kF8E4M3B11FNUZ, 8},
                Fmt{E::kF8E5M2, 8}, Fmt{E::kF8E5M2FNUZ, 8}, Fmt{E::kF8E8M0FNU, 8}}) {
    for (uint64_t b = 0; b < (1u << f.bits); ++b) {
      const double d = FloatBitsToDouble(b, f.type);
      if (std::isnan(d)) continue;
      EXPECT_EQ(DoubleToFloatBits(d, f.type), b) << ElementTypeName(f.type) << " bits " << b;
    }
  }
}

TEST(FloatBits, F32AndF64AreTheHostFormats) {
  EXPECT_EQ(DoubleToFloatBits(1.0, E::kF32), 0x3F800000u);
  EXPECT_EQ(DoubleToFloatBits(1.0, E::kF64), 0x3FF0000000000000u);
  EXPECT_EQ(DoubleToFloatBits(-0.0, E::kF32), 0x80000000u);
  EXPECT_EQ(FloatBitsToDouble(0x7F7FFFFF, E::kF32), 3.4028234663852886e38);
  EXPECT_EQ(FloatBitsToDouble(0x0000000000000001ull, E::kF64), std::numeric_limits<double>::denorm_min());
  EXPECT_EQ(DoubleToFloatBits(0.1, E::kF32), 0x3DCCCCCDu);
}

// ---------------------------------------------------------------------------
// ParseFloatLiteral

uint64_t Parse(const std::string& text, E t) {
  uint64_t bits = 0xDEADBEEF;
  EXPECT_TRUE(ParseFloatLiteral(text, t, &bits)) << text;
  return bits;
}

TEST(ParseFloatLiteral, DecimalSpellings) {
  EXPECT_EQ(Parse("1.5", E::kF32), 0x3FC00000u);
  EXPECT_EQ(Parse("1.000000e+00", E::kF32), 0x3F800000u);
  EXPECT_EQ(Parse("-2", E::kF32), 0xC0000000u);
  EXPECT_EQ(Parse("1.5E-6", E::kF32), BitsOf(1.5e-6f));
  EXPECT_EQ(Parse("9.99999974E-6", E::kF32), BitsOf(9.99999974E-6f));
  EXPECT_EQ(Parse("0.1", E::kF64), 0x3FB999999999999Aull);
  EXPECT_EQ(Parse("0.1", E::kF32), 0x3DCCCCCDu);
  EXPECT_EQ(Parse("1.000000e-300", E::kF64), BitsOf(1e-300));
  EXPECT_EQ(Parse("65504", E::kF16), 0x7BFFu);
  EXPECT_EQ(Parse("5.000000e-01", E::kF16), 0x3800u);
  EXPECT_EQ(Parse("2.500000e+00", E::kBF16), 0x4020u);
  EXPECT_EQ(Parse("448", E::kF8E4M3FN), 0x7Eu);
  EXPECT_EQ(Parse("-0.0", E::kF16), 0x8000u);
  EXPECT_EQ(Parse("1e-8", E::kF16), 0x0000u);
}

TEST(ParseFloatLiteral, InfAndNan) {
  EXPECT_EQ(Parse("inf", E::kF32), 0x7F800000u);
  EXPECT_EQ(Parse("-inf", E::kF32), 0xFF800000u);
  EXPECT_EQ(Parse("inf", E::kF16), 0x7C00u);
  EXPECT_EQ(Parse("-inf", E::kBF16), 0xFF80u);
  EXPECT_EQ(Parse("inf", E::kF64), 0x7FF0000000000000ull);
  EXPECT_TRUE(IsNan(Parse("nan", E::kF32), E::kF32));
  EXPECT_TRUE(IsNan(Parse("nan", E::kF16), E::kF16));
  EXPECT_TRUE(IsNan(Parse("nan", E::kF8E4M3FNUZ), E::kF8E4M3FNUZ));
}

TEST(ParseFloatLiteral, F32IsCorrectlyRoundedFromTheText) {
  // 2^24 + 1 is halfway between two floats; ties go to the even one.
  EXPECT_EQ(Parse("16777217", E::kF32), 0x4B800000u);
  EXPECT_EQ(Parse("16777219", E::kF32), 0x4B800002u);
  // Just above 1 + 2^-24 (halfway between 1 and the next float). Going
  // through double first would land exactly on the tie and round down; the
  // correctly rounded result is the next float up.
  EXPECT_EQ(Parse("1.0000000596046447753906250000000001", E::kF32), 0x3F800001u);
  EXPECT_EQ(Parse("3.40282347E+38", E::kF32), 0x7F7FFFFFu);
  EXPECT_EQ(Parse("-3.40282347E+38", E::kF32), 0xFF7FFFFFu);
  EXPECT_EQ(Parse("1.1920929E-7", E::kF32), 0x34000000u);  // FLT_EPSILON
}

TEST(ParseFloatLiteral, RejectsNonNumbers) {
  uint64_t bits = 0;
  for (const char* bad : {"", "abc", "1.5x", "1.5 ", " ", "--1", "e5", "1,5"}) {
    EXPECT_FALSE(ParseFloatLiteral(bad, E::kF32, &bits)) << "'" << bad << "'";
    EXPECT_FALSE(ParseFloatLiteral(bad, E::kF16, &bits)) << "'" << bad << "'";
  }
}

// ---------------------------------------------------------------------------
// FormatFloatBits: MLIR's spelling.

TEST(FormatFloatBits, SpellingsFromTheCorpus) {
  // Each of these appears in tests/corpus as JAX printed it.
  struct Case {
    float value;
    const char* text;
  };
  for (Case c : {Case{1.0f, "1.000000e+00"},     Case{0.0f, "0.000000e+00"},    Case{-0.0f, "-0.000000e+00"},
                 Case{0.5f, "5.000000e-01"},     Case{-1.0f, "-1.000000e+00"},  Case{16.0f, "1.600000e+01"},
                 Case{-1e9f, "-1.000000e+09"},   Case{0.044715f, "4.471500e-02"}, Case{0.0331f, "3.310000e-02"},
                 Case{0.1f, "1.000000e-01"},     Case{5.65685415f, "5.65685415"}, Case{9.99999974E-6f, "9.99999974E-6"},
                 Case{0.00999999977f, "0.00999999977"}, Case{-3.40282347E+38f, "-3.40282347E+38"},
                 Case{3.40282347E+38f, "3.40282347E+38"}, Case{1.1920929E-7f, "1.1920929E-7"},
                 Case{1.1920929E-4f, "1.1920929E-4"}, Case{9.99999997E-7f, "9.99999997E-7"},
                 Case{0.797884583f, "0.797884583"}, Case{1.41421354f, "1.41421354"},
                 Case{0.899999976f, "0.899999976"}, Case{-0.99999994f, "-0.99999994"},
                 Case{0.666666686f, "0.666666686"}, Case{0.333333343f, "0.333333343"},
                 Case{0.864664733f, "0.864664733"}}) {
    EXPECT_EQ(FormatFloatBits(BitsOf(c.value), E::kF32), c.text);
  }
}

TEST(FormatFloatBits, NonFiniteValuesAreHexBits) {
  EXPECT_EQ(FormatFloatBits(0x7FC00000, E::kF32), "0x7FC00000");
  EXPECT_EQ(FormatFloatBits(0xFF800000, E::kF32), "0xFF800000");
  EXPECT_EQ(FormatFloatBits(0x7F800000, E::kF32), "0x7F800000");
  EXPECT_EQ(FormatFloatBits(0xFF80, E::kBF16), "0xFF80");
  EXPECT_EQ(FormatFloatBits(0x7C00, E::kF16), "0x7C00");
  EXPECT_EQ(FormatFloatBits(0x7FF8000000000000ull, E::kF64), "0x7FF8000000000000");
  EXPECT_EQ(FormatFloatBits(0x7F, E::kF8E4M3FN), "0x7F");
  EXPECT_EQ(FormatFloatBits(0x80, E::kF8E4M3FNUZ), "0x80");
}

TEST(FormatFloatBits, OtherWidthsFromTheCorpus) {
  EXPECT_EQ(FormatFloatBits(0x3800, E::kF16), "5.000000e-01");
  EXPECT_EQ(FormatFloatBits(0x4020, E::kBF16), "2.500000e+00");
  EXPECT_EQ(FormatFloatBits(BitsOf(3.0), E::kF64), "3.000000e+00");
  EXPECT_EQ(FormatFloatBits(BitsOf(1.0), E::kF64), "1.000000e+00");
  EXPECT_EQ(FormatFloatBits(BitsOf(1e-300), E::kF64), "1.000000e-300");
}

// Formats `bits` and reads the text back as the parser does: `0x...` is
// the bit pattern itself, anything else a decimal literal.
void ExpectReadsBack(uint64_t bits, E t) {
  const std::string text = FormatFloatBits(bits, t);
  uint64_t back = ~bits;
  if (text.rfind("0x", 0) == 0) {
    back = std::strtoull(text.c_str() + 2, nullptr, 16);
    // MLIR falls back to hex for a finite value only when its shortest
    // decimal has no '.', i.e. for integers.
    const double d = FloatBitsToDouble(bits, t);
    EXPECT_EQ(std::floor(d), d) << ElementTypeName(t) << " '" << text << "' for a non-integer";
  } else {
    ASSERT_TRUE(ParseFloatLiteral(text, t, &back)) << ElementTypeName(t) << " " << bits << " -> '" << text << "'";
  }
  ASSERT_EQ(back, bits) << ElementTypeName(t) << " formats as '" << text << "'";
}

TEST(FormatFloatBits, EveryFiniteF16ReadsBack) {
  for (uint32_t b = 0; b < 0x10000; ++b) {
    const double d = FloatBitsToDouble(b, E::kF16);
    if (std::isnan(d)) continue;
    if (std::isinf(d)) {
      EXPECT_EQ(FormatFloatBits(b, E::kF16), b == 0x7C00 ? "0x7C00" : "0xFC00");
      continue;
    }
    ExpectReadsBack(b, E::kF16);
  }
}

TEST(FormatFloatBits, EveryFiniteBf16ReadsBack) {
  for (uint32_t b = 0; b < 0x10000; ++b) {
    const double d = FloatBitsToDouble(b, E::kBF16);
    if (std::isnan(d) || std::isinf(d)) continue;
    ExpectReadsBack(b, E::kBF16);
  }
}

TEST(FormatFloatBits, EveryFiniteNarrowPatternReadsBack) {
  struct Fmt {
    E type;
    int bits;
  };
  for (Fmt f : {Fmt{E::kF4E2M1FN, 4}, Fmt{E::kF6E2M3FN, 6}, Fmt{E::kF6E3M2FN, 6}, Fmt{E::kF8E3M4, 8},
                Fmt{E::kF8E4M3, 8}, Fmt{E::kF8E4M3FN, 8}, Fmt{E::kF8E4M3FNUZ, 8}, Fmt{E::kF8E4M3B11FNUZ, 8},
                Fmt{E::kF8E5M2, 8}, Fmt{E::kF8E5M2FNUZ, 8}, Fmt{E::kF8E8M0FNU, 8}}) {
    for (uint64_t b = 0; b < (1u << f.bits); ++b) {
      const double d = FloatBitsToDouble(b, f.type);
      if (std::isnan(d) || std::isinf(d)) continue;
      ExpectReadsBack(b, f.type);
    }
  }
}

TEST(FormatFloatBits, RandomF32ReadsBack) {
  std::mt19937 rng(20240601);
  int checked = 0;
  for (int i = 0; i < 5000; ++i) {
    const uint32_t b = static_cast<uint32_t>(rng());
    const double d = FloatBitsToDouble(b, E::kF32);
    if (std::isnan(d) || std::isinf(d)) continue;
    ExpectReadsBack(b, E::kF32);
    ++checked;
  }
  EXPECT_GT(checked, 4900);
  // Edge patterns: subnormals, the extremes, signed zeros.
  for (uint32_t b : {0x00000001u, 0x007FFFFFu, 0x00800000u, 0x7F7FFFFFu, 0x80000000u, 0x80000001u, 0xFF7FFFFFu}) {
    ExpectReadsBack(b, E::kF32);
  }
}

TEST(FormatFloatBits, RandomF64ReadsBack) {
  std::mt19937_64 rng(987654321);
  for (int i = 0; i < 5000; ++i) {
    const uint64_t b = rng();
    const double d = FloatBitsToDouble(b, E::kF64);
    if (std::isnan(d) || std::isinf(d)) continue;
    ExpectReadsBack(b, E::kF64);
  }
  for (uint64_t b : {0x0000000000000001ull, 0x000FFFFFFFFFFFFFull, 0x7FEFFFFFFFFFFFFFull, 0x8000000000000000ull}) {
    ExpectReadsBack(b, E::kF64);
  }
}

TEST(FormatFloatBits, OutputHasOneOfMlirsThreeShapes) {
  // `d.dddddde+XX` (six digits, lower-case e), a shorter exact decimal with
  // a '.', or the bits in upper-case hex.
  const std::regex six(R"(-?[0-9]\.[0-9]{6}e[+-][0-9]{2,3})");
  const std::regex shortest(R"(-?[0-9]*\.[0-9]+(E[+-][0-9]+)?)");
  const std::regex hex(R"(0x[0-9A-F]+)");
  std::mt19937 rng(77);
  for (int i = 0; i < 3000; ++i) {
    const uint32_t b = static_cast<uint32_t>(rng());
    const std::string text = FormatFloatBits(b, E::kF32);
    const bool ok = std::regex_match(text, six) || std::regex_match(text, shortest) || std::regex_match(text, hex);
    EXPECT_TRUE(ok) << "bits " << b << " -> '" << text << "'";
  }
}

}  // namespace
}  // namespace hlograph::ir
