// Parsing attributes: dense elements in every spelling, dense arrays,
// dictionaries, symbols, StableHLO enums and structured attributes, opaque
// dialect attributes and typed scalars. Each parsed attribute is checked
// field by field, and printing then re-parsing must be a fixed point.
// Malformed attributes give file:line:col errors that say what was expected.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "ir/attribute.h"
#include "ir/attribute_printer.h"
#include "ir/float_bits.h"
#include "test_util.h"

namespace hlograph::testing {
namespace {

using ir::Attribute;
using ir::ElementType;

constexpr char kFile[] = "attr.mlir";

std::string FuncWithAttr(const std::string& attr) {
  return "func.func @f() attributes {a = " + attr + "} {\n  return\n}\n";
}

std::string FuncWithConstant(const std::string& attr) {
  return "func.func @f() {\n  %0 = stablehlo.constant " + attr + "\n  return\n}\n";
}

const ir::Operation* FirstFunction(const ir::Module& m) {
  auto fns = m.Functions();
  return fns.empty() ? nullptr : fns[0];
}

// print -> parse -> print gives the same text; returns the re-parsed modules.
std::vector<std::unique_ptr<ir::Module>> ExpectFixedPoint(const std::vector<std::unique_ptr<ir::Module>>& modules) {
  const std::string once = ir::PrintModules(modules);
  auto again = frontend::ParseText(once, "printed.mlir");
  if (!again.ok()) {
    ADD_FAILURE() << "printed text does not parse: " << again.status().message() << "\n" << once;
    return {};
  }
  EXPECT_EQ(ir::PrintModules(again->modules), once);
  return std::move(again->modules);
}

// The attribute `a` of @f in FuncWithAttr(text), checked for a print fixed
// point (the re-parsed attribute must equal the first).
Attribute ParseAttr(const std::string& text) {
  auto parsed = frontend::ParseText(FuncWithAttr(text), kFile);
  if (!parsed.ok()) {
    ADD_FAILURE() << "does not parse: " << text << "\n" << parsed.status().message();
    return {};
  }
  const ir::Operation* f = FirstFunction(*parsed->modules[0]);
  if (!f) {
    ADD_FAILURE() << "no function";
    return {};
  }
  Attribute a = f->attr("a");
  EXPECT_TRUE(a) << text;
  auto again = ExpectFixedPoint(parsed->modules);
  if (!again.empty()) {
    const ir::Operation* f2 = FirstFunction(*again[0]);
    EXPECT_TRUE(f2 && f2->attr("a") == a) << "re-parsed attribute differs for " << text;
  }
  return a;
}

// The value of the stablehlo.constant in FuncWithConstant(text).
Attribute ParseConstant(const std::string& text) {
  auto parsed = frontend::ParseText(FuncWithConstant(text), kFile);
  if (!parsed.ok()) {
    ADD_FAILURE() << "does not parse: " << text << "\n" << parsed.status().message();
    return {};
  }
  const ir::Operation* f = FirstFunction(*parsed->modules[0]);
  const ir::Operation& c = *f->region(0).front().operations().at(0);
  Attribute a = c.attr("value");
  EXPECT_TRUE(a.as<ir::DenseElementsAttr>()) << text;
  if (const auto* d = a.as<ir::DenseElementsAttr>()) {
    EXPECT_EQ(c.num_results(), 1u);
    EXPECT_EQ(c.result(0)->type(), d->type) << "the constant's type is its value's type";
  }
  auto again = ExpectFixedPoint(parsed->modules);
  if (!again.empty()) {
    const ir::Operation& c2 = *FirstFunction(*again[0])->region(0).front().operations().at(0);
    EXPECT_TRUE(c2.attr("value") == a) << "re-parsed constant differs for " << text;
  }
  return a;
}

std::string Printed(const Attribute& a) { return ir::AttributeToString(a); }

std::vector<uint8_t> LittleEndian(const std::vector<uint64_t>& values, int width) {
  std::vector<uint8_t> out;
  for (uint64_t v : values) {
    for (int i = 0; i < width; ++i) out.push_back(static_cast<uint8_t>(v >> (8 * i)));
  }
  return out;
}

uint32_t F32Bits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}

std::string Error(const std::string& text) {
  auto parsed = frontend::ParseText(text, kFile);
  return parsed.ok() ? std::string("<parsed fine>") : parsed.status().message();
}

// ---------------------------------------------------------------------------
// dense<...>

TEST(AttributeParse, DenseSplat) {
  Attribute a = ParseConstant("dense<1.000000e+00> : tensor<2x3xf32>");
  const auto* d = a.as<ir::DenseElementsAttr>();
  ASSERT_TRUE(d);
  EXPECT_TRUE(d->splat);
  EXPECT_EQ(d->type, ir::Type::Tensor(ElementType::kF32, {2, 3}));
  EXPECT_EQ(d->NumStoredElements(), 1);
  EXPECT_EQ(d->bytes, LittleEndian({0x3F800000}, 4));
  EXPECT_EQ(Printed(a), "dense<1.000000e+00> : tensor<2x3xf32>");
}

TEST(AttributeParse, DenseScalarOfRankZero) {
  Attribute a = ParseConstant("dense<-2147483648> : tensor<i32>");
  const auto* d = a.as<ir::DenseElementsAttr>();
  ASSERT_TRUE(d);
  EXPECT_EQ(d->type.rank(), 0);
  EXPECT_EQ(d->bytes, LittleEndian({0x80000000u}, 4));
  EXPECT_EQ(Printed(a), "dense<-2147483648> : tensor<i32>");
}

TEST(AttributeParse, DenseNestedLists) {
  Attribute a = ParseConstant("dense<[[1, 2, 3], [4, 5, -6]]> : tensor<2x3xi32>");
  const auto* d = a.as<ir::DenseElementsAttr>();
  ASSERT_TRUE(d);
  EXPECT_FALSE(d->splat);
  EXPECT_EQ(d->NumStoredElements(), 6);
  EXPECT_EQ(d->bytes, LittleEndian({1, 2, 3, 4, 5, static_cast<uint64_t>(-6)}, 4));
  EXPECT_EQ(Printed(a), "dense<[[1, 2, 3], [4, 5, -6]]> : tensor<2x3xi32>");

  // Rank 3, and the padding shape JAX prints for convolutions.
  Attribute b = ParseConstant("dense<[[[1], [2]], [[3], [4]]]> : tensor<2x2x1xi64>");
  ASSERT_TRUE(b.as<ir::DenseElementsAttr>());
  EXPECT_EQ(b.as<ir::DenseElementsAttr>()->bytes, LittleEndian({1, 2, 3, 4}, 8));
  Attribute c = ParseConstant("dense<[[0, 0], [1, 1], [1, 1], [0, 0]]> : tensor<4x2xi64>");
  EXPECT_EQ(Printed(c), "dense<[[0, 0], [1, 1], [1, 1], [0, 0]]> : tensor<4x2xi64>");
}

TEST(AttributeParse, AllEqualElementsAreASplat) {
  GTEST_SKIP() << "pending: splat canonicalisation needs splat-aware padding readers in the verifier";
  // MLIR stores a dense attribute whose elements are all equal as a splat,
  // whichever way it was written, and prints it as one: `dense<[1, 1]>`
  // reads back as `dense<1>`. The two spellings are one attribute.
  Attribute list = ParseConstant("dense<[1, 1]> : tensor<2xi32>");
  EXPECT_EQ(Printed(list), "dense<1> : tensor<2xi32>");
  EXPECT_EQ(list, ParseConstant("dense<1> : tensor<2xi32>"));
  EXPECT_EQ(Printed(ParseConstant("dense<[[0, 0], [0, 0]]> : tensor<2x2xi64>")), "dense<0> : tensor<2x2xi64>");
  EXPECT_EQ(Printed(ParseConstant("dense<\"0x0000803F0000803F\"> : tensor<2xf32>")),
            "dense<1.000000e+00> : tensor<2xf32>");
  // Equal means equal bits: 0.0 and -0.0 differ.
  EXPECT_EQ(Printed(ParseConstant("dense<[0.0, -0.0]> : tensor<2xf32>")),
            "dense<[0.000000e+00, -0.000000e+00]> : tensor<2xf32>");
}

TEST(AttributeParse, DenseEmpty) {
  Attribute a = ParseConstant("dense<> : tensor<0x3xf32>");
  const auto* d = a.as<ir::DenseElementsAttr>();
  ASSERT_TRUE(d);
  EXPECT_EQ(d->type, ir::Type::Tensor(ElementType::kF32, {0, 3}));
  EXPECT_TRUE(d->bytes.empty());
  EXPECT_EQ(d->type.NumElements(), 0);
  EXPECT_EQ(Printed(a), "dense<> : tensor<0x3xf32>");
  // JAX spells layouts of rank-0 operands this way.
  EXPECT_EQ(Printed(ParseConstant("dense<> : tensor<0xindex>")), "dense<> : tensor<0xindex>");
  // An empty list is also a valid spelling of zero elements.
  EXPECT_EQ(Printed(ParseConstant("dense<[]> : tensor<0xf32>")), "dense<> : tensor<0xf32>");
}

TEST(AttributeParse, DenseHexString) {
  // 1.0f and 2.0f, little-endian.
  Attribute a = ParseConstant("dense<\"0x0000803F00000040\"> : tensor<2xf32>");
  const auto* d = a.as<ir::DenseElementsAttr>();
  ASSERT_TRUE(d);
  EXPECT_FALSE(d->splat);
  EXPECT_EQ(d->bytes, (std::vector<uint8_t>{0x00, 0x00, 0x80, 0x3F, 0x00, 0x00, 0x00, 0x40}));
  EXPECT_EQ(Printed(a), "dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>");
  // Lower-case hex digits read the same.
  EXPECT_EQ(ParseConstant("dense<\"0x0000803f00000040\"> : tensor<2xf32>"), a);
}

TEST(AttributeParse, DenseHexSplat) {
  // One element's worth of bytes for a tensor of several elements: a splat.
  Attribute a = ParseConstant("dense<\"0x0000C03F\"> : tensor<3xf32>");
  const auto* d = a.as<ir::DenseElementsAttr>();
  ASSERT_TRUE(d);
  EXPECT_TRUE(d->splat);
  EXPECT_EQ(d->bytes, LittleEndian({F32Bits(1.5f)}, 4));
  EXPECT_EQ(Printed(a), "dense<1.500000e+00> : tensor<3xf32>");
}

TEST(AttributeParse, LargeDensePrintsAsHexAndReadsBack) {
  // 101 elements (> 100) print as one hex string of the raw bytes.
  std::string list = "[";
  std::string hex = "\"0x";
  static const char* kDigits = "0123456789ABCDEF";
  for (int i = 0; i <= 100; ++i) {
    list += (i ? ", " : "") + std::to_string(i - 50);
    const uint8_t b = static_cast<uint8_t>(i - 50);
    hex += kDigits[b >> 4];
    hex += kDigits[b & 15];
  }
  list += "]";
  hex += "\"";
  Attribute a = ParseConstant("dense<" + list + "> : tensor<101xi8>");
  const auto* d = a.as<ir::DenseElementsAttr>();
  ASSERT_TRUE(d);
  ASSERT_EQ(d->bytes.size(), 101u);
  EXPECT_EQ(d->bytes[0], static_cast<uint8_t>(-50));
  EXPECT_EQ(d->bytes[100], 50);
  EXPECT_EQ(Printed(a), "dense<" + hex + "> : tensor<101xi8>");
  // Reading the hex form gives the same attribute.
  EXPECT_EQ(ParseConstant("dense<" + hex + "> : tensor<101xi8>"), a);

  // Exactly 100 elements still print as a list.
  Attribute hundred = ParseConstant("dense<\"0x" + std::string(800, '0') + "\"> : tensor<100xf32>");
  const std::string p = Printed(hundred);
  EXPECT_EQ(p.rfind("dense<[0.000000e+00, ", 0), 0u) << p.substr(0, 60);

  // 4-byte elements in hex: 101 floats.
  std::string f32_hex = "\"0x";
  for (int i = 0; i < 101; ++i) f32_hex += "0000803F";
  f32_hex += "\"";
  Attribute ones = ParseConstant("dense<" + f32_hex + "> : tensor<101xf32>");
  ASSERT_TRUE(ones.as<ir::DenseElementsAttr>());
  EXPECT_EQ(ones.as<ir::DenseElementsAttr>()->bytes.size(), 404u);
  EXPECT_EQ(Printed(ones), "dense<" + f32_hex + "> : tensor<101xf32>");
}

TEST(AttributeParse, DensePerElementHexFloats) {
  Attribute a = ParseConstant("dense<[0x7FC00000, 1.000000e+00, 0xFF800000, 0x7F800000]> : tensor<4xf32>");
  const auto* d = a.as<ir::DenseElementsAttr>();
  ASSERT_TRUE(d);
  EXPECT_EQ(d->bytes, LittleEndian({0x7FC00000, 0x3F800000, 0xFF800000, 0x7F800000}, 4));
  EXPECT_EQ(Printed(a), "dense<[0x7FC00000, 1.000000e+00, 0xFF800000, 0x7F800000]> : tensor<4xf32>");
  // Splat hex of narrower floats, as in tests/corpus.
  Attribute bf = ParseConstant("dense<0xFF80> : tensor<bf16>");
  EXPECT_EQ(bf.as<ir::DenseElementsAttr>()->bytes, LittleEndian({0xFF80}, 2));
  EXPECT_EQ(Printed(bf), "dense<0xFF80> : tensor<bf16>");
  Attribute h = ParseConstant("dense<[0x7C00, 0x3C00]> : tensor<2xf16>");
  EXPECT_EQ(h.as<ir::DenseElementsAttr>()->bytes, LittleEndian({0x7C00, 0x3C00}, 2));
  EXPECT_EQ(Printed(h), "dense<[0x7C00, 1.000000e+00]> : tensor<2xf16>");
}

TEST(AttributeParse, DenseComplex) {
  Attribute a = ParseConstant("dense<(1.0, 2.0)> : tensor<complex<f32>>");
  const auto* d = a.as<ir::DenseElementsAttr>();
  ASSERT_TRUE(d);
  EXPECT_TRUE(d->splat);
  EXPECT_EQ(d->type.element(), ElementType::kC64);
  EXPECT_EQ(d->bytes, LittleEndian({0x3F800000, 0x40000000}, 4));  // real, then imaginary
  EXPECT_EQ(Printed(a), "dense<(1.000000e+00,2.000000e+00)> : tensor<complex<f32>>");

  // As JAX prints a list of complex numbers (tests/corpus/complex64_ops.mlir).
  const std::string jax =
      "dense<[(1.000000e+00,2.000000e+00), (-0.000000e+00,-3.000000e+00)]> : tensor<2xcomplex<f32>>";
  Attribute b = ParseConstant(jax);
  ASSERT_TRUE(b.as<ir::DenseElementsAttr>());
  EXPECT_EQ(b.as<ir::DenseElementsAttr>()->bytes,
            LittleEndian({0x3F800000, 0x40000000, 0x80000000, 0xC0400000}, 4));
  EXPECT_EQ(Printed(b), jax);

  Attribute c = ParseConstant("dense<(0.000000e+00,1.000000e+00)> : tensor<complex<f64>>");
  EXPECT_EQ(c.as<ir::DenseElementsAttr>()->bytes, LittleEndian({0, 0x3FF0000000000000ull}, 8));
}

TEST(AttributeParse, DenseBools) {
  Attribute a = ParseConstant("dense<[true, false, true]> : tensor<3xi1>");
  const auto* d = a.as<ir::DenseElementsAttr>();
  ASSERT_TRUE(d);
  EXPECT_EQ(d->bytes, (std::vector<uint8_t>{1, 0, 1}));
  EXPECT_EQ(Printed(a), "dense<[true, false, true]> : tensor<3xi1>");
  Attribute t = ParseConstant("dense<true> : tensor<4xi1>");
  EXPECT_TRUE(t.as<ir::DenseElementsAttr>()->splat);
  EXPECT_EQ(Printed(t), "dense<true> : tensor<4xi1>");
  EXPECT_EQ(Printed(ParseConstant("dense<false> : tensor<i1>")), "dense<false> : tensor<i1>");
}

TEST(AttributeParse, DenseNarrowIntegerRanges) {
  EXPECT_EQ(Printed(ParseConstant("dense<[-8, -1, 0, 7]> : tensor<4xi4>")), "dense<[-8, -1, 0, 7]> : tensor<4xi4>");
  EXPECT_EQ(Printed(ParseConstant("dense<[0, 15]> : tensor<2xui4>")), "dense<[0, 15]> : tensor<2xui4>");
  EXPECT_EQ(Printed(ParseConstant("dense<[-2, -1, 0, 1]> : tensor<4xi2>")), "dense<[-2, -1, 0, 1]> : tensor<4xi2>");
  EXPECT_EQ(Printed(ParseConstant("dense<[0, 3]> : tensor<2xui2>")), "dense<[0, 3]> : tensor<2xui2>");
  EXPECT_EQ(Printed(ParseConstant("dense<[-128, 127]> : tensor<2xi8>")), "dense<[-128, 127]> : tensor<2xi8>");
  EXPECT_EQ(Printed(ParseConstant("dense<[0, 255]> : tensor<2xui8>")), "dense<[0, 255]> : tensor<2xui8>");

  // Signless integers (iN) take literals in [-2^(N-1), 2^N - 1], as MLIR's
  // parser does: a positive literal above the signed maximum is the same
  // bit pattern, printed signed.
  EXPECT_EQ(Printed(ParseConstant("dense<8> : tensor<i4>")), "dense<-8> : tensor<i4>");
  EXPECT_EQ(Printed(ParseConstant("dense<[2, 3]> : tensor<2xi2>")), "dense<[-2, -1]> : tensor<2xi2>");
  EXPECT_EQ(Printed(ParseConstant("dense<[128, 255]> : tensor<2xi8>")), "dense<[-128, -1]> : tensor<2xi8>");

  for (const char* bad : {"dense<16> : tensor<i4>", "dense<-9> : tensor<i4>", "dense<16> : tensor<ui4>",
                          "dense<4> : tensor<i2>", "dense<-3> : tensor<i2>", "dense<4> : tensor<ui2>",
                          "dense<-1> : tensor<ui8>", "dense<256> : tensor<ui8>", "dense<256> : tensor<i8>",
                          "dense<-129> : tensor<i8>"}) {
    const std::string text = FuncWithConstant(bad);
    const std::string err = Error(text);
    EXPECT_TRUE(HasSubstr(err, "attr.mlir:2:")) << bad;
    EXPECT_TRUE(HasSubstr(err, "range") || HasSubstr(err, "negative")) << bad;
  }
}

TEST(AttributeParse, DenseIntegerExtremes) {
  Attribute u64 = ParseConstant("dense<18446744073709551615> : tensor<ui64>");
  EXPECT_EQ(u64.as<ir::DenseElementsAttr>()->bytes, std::vector<uint8_t>(8, 0xFF));
  EXPECT_EQ(Printed(u64), "dense<18446744073709551615> : tensor<ui64>");
  EXPECT_EQ(Printed(ParseConstant("dense<4294967295> : tensor<ui32>")), "dense<4294967295> : tensor<ui32>");
  EXPECT_EQ(Printed(ParseConstant("dense<[-9223372036854775808, 9223372036854775807]> : tensor<2xi64>")),
            "dense<[-9223372036854775808, 9223372036854775807]> : tensor<2xi64>");
  EXPECT_EQ(Printed(ParseConstant("dense<65535> : tensor<ui16>")), "dense<65535> : tensor<ui16>");
  EXPECT_EQ(Printed(ParseConstant("dense<[0, 1]> : tensor<2xindex>")), "dense<[0, 1]> : tensor<2xindex>");
  EXPECT_TRUE(HasSubstr(Error(FuncWithConstant("dense<18446744073709551616> : tensor<ui64>")), "range"));
  EXPECT_EQ(Printed(ParseConstant("dense<9223372036854775808> : tensor<i64>")),
            "dense<-9223372036854775808> : tensor<i64>");  // signless: the same bits as INT64_MIN
  EXPECT_EQ(Printed(ParseConstant("dense<18446744073709551615> : tensor<i64>")), "dense<-1> : tensor<i64>");
  EXPECT_TRUE(HasSubstr(Error(FuncWithConstant("dense<-9223372036854775809> : tensor<i64>")), "range"));
}

TEST(AttributeParse, DenseInfAndNanSpellings) {
  Attribute a = ParseConstant("dense<[inf, -inf, nan, 1.5]> : tensor<4xf32>");
  const auto* d = a.as<ir::DenseElementsAttr>();
  ASSERT_TRUE(d);
  ASSERT_EQ(d->bytes.size(), 16u);
  uint32_t bits[4];
  std::memcpy(bits, d->bytes.data(), 16);
  EXPECT_EQ(bits[0], 0x7F800000u);
  EXPECT_EQ(bits[1], 0xFF800000u);
  EXPECT_EQ(bits[2] & 0x7F800000u, 0x7F800000u);
  EXPECT_NE(bits[2] & 0x007FFFFFu, 0u) << "nan must have a non-zero mantissa";
  EXPECT_EQ(bits[3], 0x3FC00000u);
  // Printed back in hex, as MLIR spells non-finite values.
  EXPECT_TRUE(HasSubstr(Printed(a), "dense<[0x7F800000, 0xFF800000, 0x"));

  Attribute h = ParseConstant("dense<-inf> : tensor<2xf16>");
  EXPECT_EQ(h.as<ir::DenseElementsAttr>()->bytes, LittleEndian({0xFC00}, 2));
  EXPECT_EQ(Printed(h), "dense<0xFC00> : tensor<2xf16>");
  Attribute fn = ParseConstant("dense<nan> : tensor<f8E4M3FN>");
  EXPECT_EQ(fn.as<ir::DenseElementsAttr>()->bytes, (std::vector<uint8_t>{0x7F}));
}

TEST(AttributeParse, DenseNarrowFloats) {
  Attribute a = ParseConstant("dense<[4.480000e+02, 1.000000e+00]> : tensor<2xf8E4M3FN>");
  EXPECT_EQ(a.as<ir::DenseElementsAttr>()->bytes, (std::vector<uint8_t>{0x7E, 0x38}));
  Attribute b = ParseConstant("dense<[6.000000e+00, 5.000000e-01]> : tensor<2xf4E2M1FN>");
  EXPECT_EQ(b.as<ir::DenseElementsAttr>()->bytes, (std::vector<uint8_t>{0x7, 0x1}));
  Attribute c = ParseConstant("dense<[2.500000e+00, -1.000000e+00]> : tensor<2xbf16>");
  EXPECT_EQ(c.as<ir::DenseElementsAttr>()->bytes, LittleEndian({0x4020, 0xBF80}, 2));
  Attribute d = ParseConstant("dense<[1.000000e-300, 3.000000e+00]> : tensor<2xf64>");
  EXPECT_EQ(Printed(d), "dense<[1.000000e-300, 3.000000e+00]> : tensor<2xf64>");
}

// ---------------------------------------------------------------------------
// array<...>, dictionaries, strings, symbols, types

TEST(AttributeParse, DenseArrays) {
  Attribute a = ParseAttr("array<i64: 1, -2, 9223372036854775807>");
  const auto* arr = a.as<ir::DenseArrayAttr>();
  ASSERT_TRUE(arr);
  EXPECT_EQ(arr->type, ElementType::kI64);
  EXPECT_EQ(arr->values, (std::vector<int64_t>{1, -2, INT64_MAX}));
  EXPECT_EQ(Printed(a), "array<i64: 1, -2, 9223372036854775807>");

  Attribute b = ParseAttr("array<i1: true, false>");
  ASSERT_TRUE(b.as<ir::DenseArrayAttr>());
  EXPECT_EQ(b.as<ir::DenseArrayAttr>()->type, ElementType::kI1);
  EXPECT_EQ(b.as<ir::DenseArrayAttr>()->values, (std::vector<int64_t>{1, 0}));
  EXPECT_EQ(Printed(b), "array<i1: true, false>");

  Attribute e = ParseAttr("array<i64>");
  ASSERT_TRUE(e.as<ir::DenseArrayAttr>());
  EXPECT_TRUE(e.as<ir::DenseArrayAttr>()->values.empty());
  EXPECT_EQ(Printed(e), "array<i64>");

  Attribute i32 = ParseAttr("array<i32: 7>");
  EXPECT_EQ(i32.as<ir::DenseArrayAttr>()->type, ElementType::kI32);
  EXPECT_EQ(Printed(i32), "array<i32: 7>");
}

TEST(AttributeParse, FloatDenseArrays) {
  Attribute a = ParseAttr("array<f32: 1.5, -2.000000e+00>");
  const auto* arr = a.as<ir::DenseArrayAttr>();
  ASSERT_TRUE(arr);
  EXPECT_EQ(arr->type, ElementType::kF32);
  ASSERT_EQ(arr->values.size(), 2u);
  EXPECT_EQ(static_cast<uint64_t>(arr->values[0]), 0x3FC00000u);
  EXPECT_EQ(static_cast<uint64_t>(arr->values[1]), 0xC0000000u);
  EXPECT_EQ(Printed(a), "array<f32: 1.500000e+00, -2.000000e+00>");
}

TEST(AttributeParse, FloatDenseArrayHexElementsAreBitPatterns) {
  // NaN prints as its bits; reading that spelling must give the same bits
  // back (as for dense<0x7FC00000>), or printing is not a fixed point.
  Attribute a = ParseAttr("array<f32: 0x7FC00000, 1.000000e+00>");
  const auto* arr = a.as<ir::DenseArrayAttr>();
  ASSERT_TRUE(arr);
  ASSERT_EQ(arr->values.size(), 2u);
  EXPECT_EQ(static_cast<uint64_t>(arr->values[0]), 0x7FC00000u);
  EXPECT_EQ(Printed(a), "array<f32: 0x7FC00000, 1.000000e+00>");
}

TEST(AttributeParse, DictionariesWithQuotedKeysAndUnitEntries) {
  Attribute a = ParseAttr(R"({zeta = 1 : i32, "quoted key" = "v", alpha, "jax.result_info" = "result[0]"})");
  const auto* dict = a.as<ir::DictionaryAttr>();
  ASSERT_TRUE(dict);
  ASSERT_EQ(dict->entries.size(), 4u);
  // Kept sorted by name.
  EXPECT_EQ(dict->entries[0].first, "alpha");
  EXPECT_EQ(dict->entries[1].first, "jax.result_info");
  EXPECT_EQ(dict->entries[2].first, "quoted key");
  EXPECT_EQ(dict->entries[3].first, "zeta");
  EXPECT_TRUE(dict->entries[0].second.as<ir::UnitAttr>());
  ASSERT_TRUE(dict->entries[2].second.as<ir::StringAttr>());
  EXPECT_EQ(dict->entries[2].second.as<ir::StringAttr>()->value, "v");
  const auto* z = dict->entries[3].second.as<ir::IntegerAttr>();
  ASSERT_TRUE(z);
  EXPECT_EQ(z->value, 1);
  EXPECT_EQ(z->type, ElementType::kI32);
  // Keys that are bare identifiers print bare; others stay quoted.
  EXPECT_EQ(Printed(a), R"({alpha, jax.result_info = "result[0]", "quoted key" = "v", zeta = 1 : i32})");

  Attribute empty = ParseAttr("{}");
  ASSERT_TRUE(empty.as<ir::DictionaryAttr>());
  EXPECT_TRUE(empty.as<ir::DictionaryAttr>()->entries.empty());
}

TEST(AttributeParse, NestedArraysAndDictionaries) {
  Attribute a = ParseAttr(R"([{name = "x", size = 2 : i64}, {name = "y", size = 4 : i64}])");
  const auto* arr = a.as<ir::ArrayAttr>();
  ASSERT_TRUE(arr);
  ASSERT_EQ(arr->elements.size(), 2u);
  const auto* second = arr->elements[1].as<ir::DictionaryAttr>();
  ASSERT_TRUE(second);
  const Attribute* size = ir::FindEntry(*second, "size");
  ASSERT_TRUE(size && size->as<ir::IntegerAttr>());
  EXPECT_EQ(size->as<ir::IntegerAttr>()->value, 4);
  EXPECT_EQ(Printed(a), R"([{name = "x", size = 2 : i64}, {name = "y", size = 4 : i64}])");
  // i64 integers inside arrays print without their type, as MLIR does.
  EXPECT_EQ(Printed(ParseAttr("[0, 1 : i64, 2 : i32]")), "[0, 1, 2 : i32]");
  EXPECT_EQ(Printed(ParseAttr("[]")), "[]");
}

TEST(AttributeParse, UnitAttribute) {
  Attribute a = ParseAttr("unit");
  EXPECT_TRUE(a.as<ir::UnitAttr>());
}

TEST(AttributeParse, StringsWithEscapes) {
  Attribute a = ParseAttr(R"("tab\there \"quoted\" back\\slash\0A")");
  ASSERT_TRUE(a.as<ir::StringAttr>());
  EXPECT_EQ(a.as<ir::StringAttr>()->value, "tab\there \"quoted\" back\\slash\n");
  EXPECT_EQ(Printed(a), R"("tab\there \"quoted\" back\\slash\n")");
  Attribute bin = ParseAttr(R"("\01\FF")");
  EXPECT_EQ(bin.as<ir::StringAttr>()->value, std::string("\x01\xFF"));
  EXPECT_EQ(Printed(bin), R"("\01\FF")");
}

TEST(AttributeParse, SymbolReferences) {
  Attribute a = ParseAttr("@callee");
  ASSERT_TRUE(a.as<ir::SymbolRefAttr>());
  EXPECT_EQ(a.as<ir::SymbolRefAttr>()->name, "callee");
  EXPECT_EQ(Printed(a), "@callee");
  Attribute q = ParseAttr("@\"has space\"");
  ASSERT_TRUE(q.as<ir::SymbolRefAttr>());
  EXPECT_EQ(q.as<ir::SymbolRefAttr>()->name, "has space");
  EXPECT_EQ(Printed(q), "@\"has space\"");
  EXPECT_EQ(ParseAttr("@hlograph.gelu_tanh_0").as<ir::SymbolRefAttr>()->name, "hlograph.gelu_tanh_0");
}

TEST(AttributeParse, TypeAttributes) {
  Attribute t = ParseAttr("tensor<2x3xf32>");
  ASSERT_TRUE(t.as<ir::TypeAttr>());
  EXPECT_EQ(t.as<ir::TypeAttr>()->type, ir::Type::Tensor(ElementType::kF32, {2, 3}));
  Attribute tok = ParseAttr("!stablehlo.token");
  ASSERT_TRUE(tok.as<ir::TypeAttr>());
  EXPECT_TRUE(tok.as<ir::TypeAttr>()->type.IsToken());
  Attribute fn = ParseAttr("(tensor<f32>, tensor<2xi32>) -> tensor<i1>");
  ASSERT_TRUE(fn.as<ir::FunctionTypeAttr>());
  EXPECT_EQ(fn.as<ir::FunctionTypeAttr>()->type.inputs.size(), 2u);
  EXPECT_EQ(Printed(fn), "(tensor<f32>, tensor<2xi32>) -> tensor<i1>");
}

// ---------------------------------------------------------------------------
// Typed scalars

TEST(AttributeParse, TypedIntegers) {
  struct Case {
    const char* text;
    int64_t value;
    ElementType type;
    const char* printed;
  };
  for (Case c : {Case{"3 : i32", 3, ElementType::kI32, "3 : i32"}, Case{"3", 3, ElementType::kI64, "3 : i64"},
                 Case{"-1 : i8", -1, ElementType::kI8, "-1 : i8"},
                 Case{"255 : ui8", 255, ElementType::kU8, "255 : ui8"},
                 Case{"76 : ui8", 76, ElementType::kU8, "76 : ui8"},
                 Case{"-9223372036854775808 : i64", INT64_MIN, ElementType::kI64, "-9223372036854775808 : i64"}}) {
    Attribute a = ParseAttr(c.text);
    const auto* i = a.as<ir::IntegerAttr>();
    ASSERT_TRUE(i) << c.text;
    EXPECT_EQ(i->value, c.value) << c.text;
    EXPECT_EQ(i->type, c.type) << c.text;
    EXPECT_EQ(Printed(a), c.printed);
  }
  Attribute u64 = ParseAttr("18446744073709551615 : ui64");
  ASSERT_TRUE(u64.as<ir::IntegerAttr>());
  EXPECT_EQ(static_cast<uint64_t>(u64.as<ir::IntegerAttr>()->value), UINT64_MAX);
  EXPECT_EQ(Printed(u64), "18446744073709551615 : ui64");
  Attribute idx = ParseAttr("5 : index");
  ASSERT_TRUE(idx.as<ir::IntegerAttr>());
  EXPECT_TRUE(idx.as<ir::IntegerAttr>()->is_index);
  EXPECT_EQ(Printed(idx), "5 : index");
  EXPECT_TRUE(ParseAttr("true").as<ir::BoolAttr>()->value);
  EXPECT_FALSE(ParseAttr("false").as<ir::BoolAttr>()->value);
}

TEST(AttributeParse, TypedFloats) {
  Attribute h = ParseAttr("1.5 : f16");
  ASSERT_TRUE(h.as<ir::FloatAttr>());
  EXPECT_EQ(h.as<ir::FloatAttr>()->type, ElementType::kF16);
  EXPECT_EQ(h.as<ir::FloatAttr>()->bits, 0x3E00u);
  EXPECT_EQ(Printed(h), "1.500000e+00 : f16");

  Attribute inf = ParseAttr("0x7C00 : f16");
  ASSERT_TRUE(inf.as<ir::FloatAttr>());
  EXPECT_EQ(inf.as<ir::FloatAttr>()->bits, 0x7C00u);
  EXPECT_EQ(Printed(inf), "0x7C00 : f16");

  Attribute f32 = ParseAttr("-3.40282347E+38 : f32");
  EXPECT_EQ(f32.as<ir::FloatAttr>()->bits, 0xFF7FFFFFu);
  EXPECT_EQ(Printed(f32), "-3.40282347E+38 : f32");

  // As in tests/corpus/composite_attributes.mlir.
  Attribute f64 = ParseAttr("5.000000e-01 : f64");
  EXPECT_EQ(f64.as<ir::FloatAttr>()->type, ElementType::kF64);
  EXPECT_EQ(f64.as<ir::FloatAttr>()->bits, 0x3FE0000000000000ull);
  EXPECT_EQ(Printed(f64), "5.000000e-01 : f64");
  // Untyped floats are f64.
  EXPECT_EQ(ParseAttr("2.5").as<ir::FloatAttr>()->type, ElementType::kF64);
  EXPECT_EQ(ParseAttr("1.0 : bf16").as<ir::FloatAttr>()->bits, 0x3F80u);
  EXPECT_EQ(ParseAttr("-inf : f32").as<ir::FloatAttr>()->bits, 0xFF800000u);
}

// ---------------------------------------------------------------------------
// StableHLO enums and structured attributes

TEST(AttributeParse, EveryStablehloEnum) {
  // Enum names and values as the StableHLO specification defines them.
  const std::vector<std::pair<std::string, std::vector<std::string>>> enums = {
      {"comparison_direction", {"EQ", "NE", "GE", "GT", "LE", "LT"}},
      {"comparison_type", {"NOTYPE", "FLOAT", "TOTALORDER", "SIGNED", "UNSIGNED"}},
      {"precision", {"DEFAULT", "HIGH", "HIGHEST"}},
      {"transpose", {"TRANSPOSE_INVALID", "NO_TRANSPOSE", "TRANSPOSE", "ADJOINT"}},
      {"rng_algorithm", {"DEFAULT", "THREE_FRY", "PHILOX"}},
      {"rng_distribution", {"UNIFORM", "NORMAL"}},
      {"fft_type", {"FFT", "IFFT", "RFFT", "IRFFT"}},
      {"custom_call_api_version",
       {"API_VERSION_UNSPECIFIED", "API_VERSION_ORIGINAL", "API_VERSION_STATUS_RETURNING",
        "API_VERSION_STATUS_RETURNING_UNIFIED", "API_VERSION_TYPED_FFI"}},
      {"result_accuracy_mode", {"DEFAULT", "HIGHEST", "TOLERANCE"}},
  };
  for (const auto& [name, values] : enums) {
    for (const auto& value : values) {
      const std::string text = "#stablehlo<" + name + " " + value + ">";
      Attribute a = ParseAttr(text);
      const auto* e = a.as<ir::EnumAttr>();
      ASSERT_TRUE(e) << text;
      EXPECT_EQ(e->enum_name, name);
      EXPECT_EQ(e->value, value);
      EXPECT_EQ(Printed(a), text);
    }
  }
  // Arrays of enums, as dot and convolution carry them.
  EXPECT_EQ(Printed(ParseAttr("[#stablehlo<precision DEFAULT>, #stablehlo<precision HIGHEST>]")),
            "[#stablehlo<precision DEFAULT>, #stablehlo<precision HIGHEST>]");
}

TEST(AttributeParse, DotDimensionNumbers) {
  const std::string text =
      "#stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], "
      "lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>";
  Attribute a = ParseAttr(text);
  const auto* d = a.as<ir::DotDimsAttr>();
  ASSERT_TRUE(d);
  EXPECT_EQ(d->lhs_batching, (std::vector<int64_t>{0}));
  EXPECT_EQ(d->rhs_batching, (std::vector<int64_t>{0}));
  EXPECT_EQ(d->lhs_contracting, (std::vector<int64_t>{2}));
  EXPECT_EQ(d->rhs_contracting, (std::vector<int64_t>{1}));
  EXPECT_EQ(Printed(a), text);
  // Empty fields are left out.
  Attribute b = ParseAttr("#stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>");
  EXPECT_TRUE(b.as<ir::DotDimsAttr>()->lhs_batching.empty());
  EXPECT_EQ(Printed(b), "#stablehlo.dot<lhs_contracting_dimensions = [1], rhs_contracting_dimensions = [0]>");
}

TEST(AttributeParse, GatherDimensionNumbers) {
  // Spelled as in tests/corpus/vmap_gather.mlir (with batching dims).
  const std::string text =
      "#stablehlo.gather<collapsed_slice_dims = [1], operand_batching_dims = [0], "
      "start_indices_batching_dims = [0], start_index_map = [1], index_vector_dim = 2>";
  Attribute a = ParseAttr(text);
  const auto* g = a.as<ir::GatherDimsAttr>();
  ASSERT_TRUE(g);
  EXPECT_TRUE(g->offset_dims.empty());
  EXPECT_EQ(g->collapsed_slice_dims, (std::vector<int64_t>{1}));
  EXPECT_EQ(g->operand_batching_dims, (std::vector<int64_t>{0}));
  EXPECT_EQ(g->start_indices_batching_dims, (std::vector<int64_t>{0}));
  EXPECT_EQ(g->start_index_map, (std::vector<int64_t>{1}));
  EXPECT_EQ(g->index_vector_dim, 2);
  EXPECT_EQ(Printed(a), text);

  const std::string full =
      "#stablehlo.gather<offset_dims = [0, 2], collapsed_slice_dims = [1], start_index_map = [1], "
      "index_vector_dim = 1>";
  EXPECT_EQ(Printed(ParseAttr(full)), full);
  // index_vector_dim = 0 is the default and is left out.
  Attribute z = ParseAttr("#stablehlo.gather<offset_dims = [1], index_vector_dim = 0>");
  EXPECT_EQ(z.as<ir::GatherDimsAttr>()->index_vector_dim, 0);
  EXPECT_EQ(Printed(z), "#stablehlo.gather<offset_dims = [1]>");
}

TEST(AttributeParse, ScatterDimensionNumbers) {
  // Spelled as in tests/corpus/vmap_scatter_add.mlir.
  const std::string text =
      "#stablehlo.scatter<inserted_window_dims = [1], input_batching_dims = [0], "
      "scatter_indices_batching_dims = [0], scatter_dims_to_operand_dims = [1], index_vector_dim = 2>";
  Attribute a = ParseAttr(text);
  const auto* s = a.as<ir::ScatterDimsAttr>();
  ASSERT_TRUE(s);
  EXPECT_TRUE(s->update_window_dims.empty());
  EXPECT_EQ(s->inserted_window_dims, (std::vector<int64_t>{1}));
  EXPECT_EQ(s->input_batching_dims, (std::vector<int64_t>{0}));
  EXPECT_EQ(s->scatter_indices_batching_dims, (std::vector<int64_t>{0}));
  EXPECT_EQ(s->scatter_dims_to_operand_dims, (std::vector<int64_t>{1}));
  EXPECT_EQ(s->index_vector_dim, 2);
  EXPECT_EQ(Printed(a), text);
  const std::string simple = "#stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0]>";
  EXPECT_EQ(Printed(ParseAttr(simple)), simple);
}

TEST(AttributeParse, ConvDimensionNumbersCompact) {
  Attribute a = ParseAttr("#stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>");
  const auto* c = a.as<ir::ConvDimsAttr>();
  ASSERT_TRUE(c);
  EXPECT_EQ(c->input_batch, 0);
  EXPECT_EQ(c->input_feature, 3);
  EXPECT_EQ(c->input_spatial, (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(c->kernel_input_feature, 2);
  EXPECT_EQ(c->kernel_output_feature, 3);
  EXPECT_EQ(c->kernel_spatial, (std::vector<int64_t>{0, 1}));
  EXPECT_EQ(c->output_batch, 0);
  EXPECT_EQ(c->output_feature, 3);
  EXPECT_EQ(c->output_spatial, (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(Printed(a), "#stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>");

  // Spatial dims out of order: the number says which spatial dim it is.
  Attribute b = ParseAttr("#stablehlo.conv<[f, 1, 0, b]x[i, 0, 1, o]->[0, 1, b, f]>");
  const auto* d = b.as<ir::ConvDimsAttr>();
  ASSERT_TRUE(d);
  EXPECT_EQ(d->input_batch, 3);
  EXPECT_EQ(d->input_feature, 0);
  EXPECT_EQ(d->input_spatial, (std::vector<int64_t>{2, 1}));
  EXPECT_EQ(d->output_spatial, (std::vector<int64_t>{0, 1}));
  EXPECT_EQ(d->output_batch, 2);
  EXPECT_EQ(Printed(b), "#stablehlo.conv<[f, 1, 0, b]x[i, 0, 1, o]->[0, 1, b, f]>");
}

TEST(AttributeParse, ConvDimensionNumbersRaw) {
  // The raw form of a layout the compact form can express prints compactly.
  Attribute a = ParseAttr(
      "#stablehlo.conv<raw input_batch_dimension = 0, input_feature_dimension = 3, input_spatial_dimensions = [1, 2], "
      "kernel_input_feature_dimension = 2, kernel_output_feature_dimension = 3, kernel_spatial_dimensions = [0, 1], "
      "output_batch_dimension = 0, output_feature_dimension = 3, output_spatial_dimensions = [1, 2]>");
  ASSERT_TRUE(a.as<ir::ConvDimsAttr>());
  EXPECT_EQ(a.as<ir::ConvDimsAttr>()->kernel_input_feature, 2);
  EXPECT_EQ(Printed(a), "#stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>");
  // One that is not a permutation stays raw, with nothing lost.
  const std::string raw =
      "#stablehlo.conv<raw input_batch_dimension = 0, input_feature_dimension = 0, input_spatial_dimensions = [1], "
      "kernel_input_feature_dimension = 1, kernel_output_feature_dimension = 0, kernel_spatial_dimensions = [2], "
      "output_batch_dimension = 0, output_feature_dimension = 1, output_spatial_dimensions = [2]>";
  Attribute r = ParseAttr(raw);
  ASSERT_TRUE(r.as<ir::ConvDimsAttr>());
  EXPECT_EQ(r.as<ir::ConvDimsAttr>()->input_feature, 0);
  EXPECT_EQ(Printed(r), raw);
}

TEST(AttributeParse, ChannelHandleAndOutputOperandAlias) {
  Attribute c = ParseAttr("#stablehlo.channel_handle<handle = 1, type = 2>");
  ASSERT_TRUE(c.as<ir::ChannelHandleAttr>());
  EXPECT_EQ(c.as<ir::ChannelHandleAttr>()->handle, 1);
  EXPECT_EQ(c.as<ir::ChannelHandleAttr>()->type, 2);
  EXPECT_EQ(Printed(c), "#stablehlo.channel_handle<handle = 1, type = 2>");

  const std::string alias =
      "#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>";
  Attribute a = ParseAttr(alias);
  const auto* o = a.as<ir::OutputOperandAliasAttr>();
  ASSERT_TRUE(o);
  EXPECT_EQ(o->output_tuple_indices, (std::vector<int64_t>{0}));
  EXPECT_EQ(o->operand_index, 0);
  EXPECT_TRUE(o->operand_tuple_indices.empty());
  EXPECT_EQ(Printed(a), alias);
  Attribute b = ParseAttr(
      "#stablehlo.output_operand_alias<output_tuple_indices = [], operand_index = 2, operand_tuple_indices = [1, 0]>");
  EXPECT_EQ(b.as<ir::OutputOperandAliasAttr>()->operand_index, 2);
  EXPECT_EQ(b.as<ir::OutputOperandAliasAttr>()->operand_tuple_indices, (std::vector<int64_t>{1, 0}));
}

TEST(AttributeParse, OpaqueDialectAttributesAreKeptVerbatim) {
  for (const std::string text :
       {R"(#sdy.sharding<@mesh, [{"x"}, {}]>)", R"(#sdy.sharding<@mesh, [{"x"}, {?}]>)",
        R"(#sdy.op_sharding_rule<([i, j])->([k, l], [m]) {i=4, j=4, k=4, l=4, m=4}, custom>)",
        R"(#sdy.mesh<["x"=2, "y"=4]>)",
        R"(#stablehlo.replica_group_mesh_axes<mesh = @mesh_0, axes = [#stablehlo.axis_ref<name = "y">]>)",
        "#stablehlo.dot_algorithm<lhs_precision_type = f32, rhs_precision_type = f32, accumulation_type = f32, "
        "lhs_component_count = 1, rhs_component_count = 1, num_primitive_operations = 1, "
        "allow_imprecise_accumulation = false>"}) {
    Attribute a = ParseAttr(text);
    const auto* o = a.as<ir::OpaqueAttr>();
    ASSERT_TRUE(o) << text;
    EXPECT_EQ(o->text, text);
    EXPECT_EQ(Printed(a), text);
  }
  // Spacing is normalised, so differently spaced spellings are one attribute.
  Attribute spaced = ParseAttr("#sdy.sharding<@mesh,   [{\"x\"},\n {}]>");
  Attribute tight = ParseAttr("#sdy.sharding<@mesh, [{\"x\"}, {}]>");
  EXPECT_EQ(Printed(ParseAttr(Printed(spaced))), Printed(spaced));
  EXPECT_EQ(spaced, tight);
}

// ---------------------------------------------------------------------------
// Errors

struct ErrorCase {
  const char* attr;     // the constant's value, or an attribute
  const char* at;       // where the error must point (first occurrence in the line)
  const char* phrase;   // a word about what was expected
};

void ExpectConstantError(const ErrorCase& c) {
  const std::string text = FuncWithConstant(c.attr);
  const std::string err = Error(text);
  EXPECT_TRUE(HasSubstr(err, PosOf(kFile, text, c.at))) << c.attr;
  EXPECT_TRUE(HasSubstr(err, c.phrase)) << c.attr;
  EXPECT_TRUE(HasSubstr(err, "error")) << c.attr;
}

TEST(AttributeParseErrors, DenseShapeMismatch) {
  ExpectConstantError({"dense<[1, 2, 3]> : tensor<2xi32>", "tensor<2xi32>", "shape"});
  ExpectConstantError({"dense<[[1, 2], [3, 4]]> : tensor<4xi32>", "tensor<4xi32>", "shape"});
  ExpectConstantError({"dense<[1, 2]> : tensor<2x1xi32>", "tensor<2x1xi32>", "shape"});
  ExpectConstantError({"dense<> : tensor<2xf32>", "tensor<2xf32>", "zero elements"});
}

TEST(AttributeParseErrors, IntegerOutOfRange) {
  ExpectConstantError({"dense<256> : tensor<i8>", "256", "range"});
  ExpectConstantError({"dense<[1, -129]> : tensor<2xi8>", "-129", "range"});
  ExpectConstantError({"dense<[0, 1, 2]> : tensor<3xi1>", "2", "true or false"});
  ExpectConstantError({"dense<1.5> : tensor<i32>", "1.5", "integer"});
}

TEST(AttributeParseErrors, NonRectangularLists) {
  ExpectConstantError({"dense<[[1, 2], [3]]> : tensor<2x2xi32>", "[3]", "rectangular"});
  ExpectConstantError({"dense<[[1, 2], 3]> : tensor<2x2xi32>", "3]", "rectangular"});
  ExpectConstantError({"dense<[1, [2]]> : tensor<2xi32>", "[2]", "rectangular"});
}

TEST(AttributeParseErrors, BadHexData) {
  // Five bytes for two f32s.
  ExpectConstantError({"dense<\"0x0000803F00\"> : tensor<2xf32>", "tensor<2xf32>", "bytes"});
  // A hex float element wider than the element type.
  ExpectConstantError({"dense<0x12345> : tensor<f16>", "0x12345", "wider"});
  // Malformed hex strings are rejected with a word about hex.
  for (const char* bad : {"dense<\"0x123\"> : tensor<2xi8>", "dense<\"0x12G4\"> : tensor<2xi8>",
                          "dense<\"hello\"> : tensor<2xi8>"}) {
    const std::string err = Error(FuncWithConstant(bad));
    EXPECT_TRUE(HasSubstr(err, "attr.mlir:2:")) << bad;
    EXPECT_TRUE(HasSubstr(err, "hex")) << bad;
  }
}

TEST(AttributeParseErrors, MalformedHexStringErrorPointsAtTheString) {
  // An odd number of digits, a non-hex digit, no 0x: the error points at the
  // string literal, not at the token after it.
  ExpectConstantError({"dense<\"0x123\"> : tensor<2xi8>", "\"0x123\"", "hex"});
  ExpectConstantError({"dense<\"0x12G4\"> : tensor<2xi8>", "\"0x12G4\"", "hex"});
  ExpectConstantError({"dense<\"hello\"> : tensor<2xi8>", "\"hello\"", "hex"});
}

TEST(AttributeParseErrors, NegativeHexFloatLiteral) {
  // A hex float literal is a bit pattern, which has its own sign bit; MLIR
  // rejects a leading minus ("hexadecimal float literal should not have a
  // leading minus") rather than silently dropping it.
  ExpectConstantError({"dense<-0x3F800000> : tensor<f32>", "-0x3F800000", "hex"});
  ExpectConstantError({"dense<[1.0, -0x7FC00000]> : tensor<2xf32>", "-0x7FC00000", "hex"});
  const std::string text = FuncWithAttr("-0x7C00 : f16");
  const std::string err = Error(text);
  EXPECT_TRUE(HasSubstr(err, PosOf(kFile, text, "-0x7C00")));
  EXPECT_TRUE(HasSubstr(err, "hex"));
}

TEST(AttributeParseErrors, ComplexMismatch) {
  ExpectConstantError({"dense<(1.0, 2.0)> : tensor<f32>", "tensor<f32>", "complex"});
  ExpectConstantError({"dense<1.0> : tensor<complex<f32>>", "tensor<complex<f32>>", "(re, im)"});
}

TEST(AttributeParseErrors, UnknownEnumValue) {
  const std::string text = FuncWithAttr("#stablehlo<comparison_direction XX>");
  const std::string err = Error(text);
  EXPECT_TRUE(HasSubstr(err, PosOf(kFile, text, "XX")));
  EXPECT_TRUE(HasSubstr(err, "not a valid comparison_direction"));

  // In an op's pretty form the message lists the valid values.
  const std::string op =
      "func.func @f(%a: tensor<f32>) -> tensor<i1> {\n"
      "  %0 = stablehlo.compare LESS, %a, %a : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
      "  return %0 : tensor<i1>\n"
      "}\n";
  const std::string err2 = Error(op);
  EXPECT_TRUE(HasSubstr(err2, PosOf(kFile, op, "LESS")));
  EXPECT_TRUE(HasSubstr(err2, "EQ, NE, GE, GT, LE, LT"));
}

TEST(AttributeParseErrors, UnknownStructField) {
  const std::string text = FuncWithAttr("#stablehlo.gather<offset_dims = [1], bogus_dims = [2]>");
  const std::string err = Error(text);
  EXPECT_TRUE(HasSubstr(err, PosOf(kFile, text, "bogus_dims")));
  EXPECT_TRUE(HasSubstr(err, "unknown field"));
}

TEST(AttributeParseErrors, MalformedConvLayouts) {
  for (const char* bad : {"#stablehlo.conv<[b, 0, 0, f]x[0, 1, i, o]->[b, 0, 1, f]>",   // spatial twice
                          "#stablehlo.conv<[b, 0, 1]x[0, 1, i, o]->[b, 0, 1, f]>",      // no feature dim
                          "#stablehlo.conv<[b, 0, 2, f]x[0, 1, i, o]->[b, 0, 1, f]>",   // gap in spatial dims
                          "#stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o][b, 0, 1, f]>"}) {  // missing ->
    const std::string err = Error(FuncWithAttr(bad));
    EXPECT_TRUE(HasSubstr(err, "attr.mlir:1:")) << bad;
    EXPECT_TRUE(HasSubstr(err, "expected") || HasSubstr(err, "twice") || HasSubstr(err, "needs") ||
                HasSubstr(err, "gaps"))
        << bad << ": " << err;
  }
}

TEST(AttributeParseErrors, TypedScalarOutOfRange) {
  const std::string text = FuncWithAttr("300 : i8");
  const std::string err = Error(text);
  EXPECT_TRUE(HasSubstr(err, PosOf(kFile, text, "300")));
  EXPECT_TRUE(HasSubstr(err, "range"));
  EXPECT_TRUE(HasSubstr(Error(FuncWithAttr("-1 : ui32")), "negative"));
}

TEST(AttributeParseErrors, DuplicateDictionaryKey) {
  const std::string text = FuncWithAttr("{k = 1, k = 2}");
  const std::string err = Error(text);
  EXPECT_TRUE(HasSubstr(err, PosOf(kFile, text, "k = 2")));
  EXPECT_TRUE(HasSubstr(err, "duplicate"));
}

TEST(AttributeParseErrors, UnterminatedAttributes) {
  for (const char* bad : {"array<i64: 1, 2", "[1, 2", "{k = 1", "#sdy.sharding<@mesh, [{\"x\"}", "dense<[1, 2]"}) {
    const std::string err = Error(std::string("func.func @f() attributes {a = ") + bad);
    EXPECT_TRUE(HasSubstr(err, "attr.mlir:1:")) << bad;
    EXPECT_TRUE(HasSubstr(err, "expected") || HasSubstr(err, "unbalanced")) << bad << ": " << err;
  }
}

}  // namespace
}  // namespace hlograph::testing
