// The CPU backend's linear-algebra kernels: dot/dot_general, convolution,
// fft, cholesky, triangular_solve, batch_norm, top_k and the LAPACK
// custom-call targets. Expected values are hand-computed or come from naive
// reference loops written here, never from the kernels themselves.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstring>
#include <functional>
#include <limits>
#include <numbers>
#include <random>
#include <string>
#include <vector>

#include "backends/cpu/element_types.h"
#include "backends/cpu/interpreter.h"
#include "cpu_test_util.h"
#include "test_util.h"

namespace hlograph {
namespace {

using cpu::Tensor;
using E = ir::ElementType;
using Cf = std::complex<float>;
using Cd = std::complex<double>;

// ---------------------------------------------------------------------------
// Helpers

using cpu::test_util::Make;
using cpu::test_util::Values;

// Parses, verifies and runs `text`; failures are reported and give {}.
std::vector<Tensor> RunProgram(const std::string& text, const std::vector<Tensor>& args) {
  return cpu::test_util::RunOk(text, args);
}

std::string RunError(const std::string& text, const std::vector<Tensor>& args) {
  auto modules = testing::ParseOrDie(text);
  if (modules.size() != 1) return "<no module>";
  cpu::Interpreter interpreter(*modules[0]);
  auto results = interpreter.RunEntry(args);
  return results.ok() ? std::string("<ran fine>") : results.status().message();
}

std::string TensorType(const std::vector<int64_t>& shape, const std::string& element) {
  std::string s = "tensor<";
  for (int64_t d : shape) s += std::to_string(d) + "x";
  return s + element + ">";
}

std::string List(const std::vector<int64_t>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

std::vector<float> RandomFloats(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> v(n);
  for (float& x : v) x = dist(rng);
  return v;
}

int64_t NumElements(const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

int64_t Offset(const std::vector<int64_t>& shape, const std::vector<int64_t>& index) {
  int64_t off = 0;
  for (size_t i = 0; i < shape.size(); ++i) off = off * shape[i] + index[i];
  return off;
}

void ForEach(const std::vector<int64_t>& shape, const std::function<void(const std::vector<int64_t>&)>& fn) {
  if (NumElements(shape) == 0) return;
  std::vector<int64_t> idx(shape.size(), 0);
  while (true) {
    fn(idx);
    size_t d = shape.size();
    while (d > 0) {
      --d;
      if (++idx[d] < shape[d]) break;
      idx[d] = 0;
      if (d == 0) return;
    }
    if (shape.empty()) return;
  }
}

// out dim i = in dim perm[i].
template <typename T>
std::vector<T> Transpose(const std::vector<T>& in, const std::vector<int64_t>& shape, const std::vector<int64_t>& perm,
                         std::vector<int64_t>* out_shape = nullptr) {
  std::vector<int64_t> oshape(perm.size());
  for (size_t i = 0; i < perm.size(); ++i) oshape[i] = shape[static_cast<size_t>(perm[i])];
  std::vector<T> out(in.size());
  ForEach(shape, [&](const std::vector<int64_t>& idx) {
    std::vector<int64_t> o(perm.size());
    for (size_t i = 0; i < perm.size(); ++i) o[i] = idx[static_cast<size_t>(perm[i])];
    out[static_cast<size_t>(Offset(oshape, o))] = in[static_cast<size_t>(Offset(shape, idx))];
  });
  if (out_shape) *out_shape = oshape;
  return out;
}

void ExpectNear(const std::vector<float>& got, const std::vector<double>& want, double tol, const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (size_t i = 0; i < got.size(); ++i) {
    ASSERT_NEAR(got[i], want[i], tol * (1 + std::abs(want[i]))) << what << " at " << i;
  }
}

// ---------------------------------------------------------------------------
// dot_general / dot

// The naive definition: result[batch, lhs free, rhs free] = sum over the
// contracting index of lhs * rhs.
std::vector<double> NaiveDotGeneral(const std::vector<float>& lhs, const std::vector<int64_t>& ls,
                                    const std::vector<float>& rhs, const std::vector<int64_t>& rs,
                                    const std::vector<int64_t>& lb, const std::vector<int64_t>& rb,
                                    const std::vector<int64_t>& lc, const std::vector<int64_t>& rc,
                                    std::vector<int64_t>* result_shape) {
  auto free_dims = [](size_t rank, const std::vector<int64_t>& a, const std::vector<int64_t>& b) {
    std::vector<int64_t> f;
    for (int64_t d = 0; d < static_cast<int64_t>(rank); ++d) {
      if (std::find(a.begin(), a.end(), d) == a.end() && std::find(b.begin(), b.end(), d) == b.end()) f.push_back(d);
    }
    return f;
  };
  const std::vector<int64_t> lf = free_dims(ls.size(), lb, lc), rf = free_dims(rs.size(), rb, rc);
  std::vector<int64_t> shape, cshape;
  for (int64_t d : lb) shape.push_back(ls[static_cast<size_t>(d)]);
  for (int64_t d : lf) shape.push_back(ls[static_cast<size_t>(d)]);
  for (int64_t d : rf) shape.push_back(rs[static_cast<size_t>(d)]);
  for (int64_t d : lc) cshape.push_back(ls[static_cast<size_t>(d)]);
  *result_shape = shape;
  std::vector<double> out(static_cast<size_t>(NumElements(shape)), 0.0);
  ForEach(shape, [&](const std::vector<int64_t>& r) {
    std::vector<int64_t> li(ls.size()), ri(rs.size());
    size_t p = 0;
    for (size_t i = 0; i < lb.size(); ++i, ++p) {
      li[static_cast<size_t>(lb[i])] = r[p];
      ri[static_cast<size_t>(rb[i])] = r[p];
    }
    for (int64_t d : lf) li[static_cast<size_t>(d)] = r[p++];
    for (int64_t d : rf) ri[static_cast<size_t>(d)] = r[p++];
    double s = 0;
    ForEach(cshape, [&](const std::vector<int64_t>& c) {
      for (size_t i = 0; i < lc.size(); ++i) {
        li[static_cast<size_t>(lc[i])] = c[i];
        ri[static_cast<size_t>(rc[i])] = c[i];
      }
      s += static_cast<double>(lhs[static_cast<size_t>(Offset(ls, li))]) *
           static_cast<double>(rhs[static_cast<size_t>(Offset(rs, ri))]);
    });
    out[static_cast<size_t>(Offset(shape, r))] = s;
  });
  return out;
}

struct DotCase {
  std::vector<int64_t> ls, rs, lb, rb, lc, rc;
};

TEST(CpuLinalg, DotGeneralMatchesNaiveLoop) {
  const std::vector<DotCase> cases = {
      // Plain matmul, and both operands stored transposed (BLAS without copies).
      {{7, 5}, {5, 9}, {}, {}, {1}, {0}},
      {{5, 7}, {9, 5}, {}, {}, {0}, {1}},
      // Batch dims leading, in the middle, and out of order.
      {{3, 4, 6}, {3, 6, 5}, {0}, {0}, {2}, {1}},
      {{2, 5, 3, 4}, {3, 4, 2, 6}, {0, 2}, {2, 0}, {3}, {1}},
      {{2, 8, 4, 16}, {2, 4, 8, 8}, {0, 2}, {0, 1}, {1}, {3}},
      // Several contracting dims, in different orders on each side.
      {{4, 6, 7}, {7, 4, 6, 3}, {}, {}, {0, 2}, {1, 0}},
      {{4, 6, 7}, {4, 6, 7}, {0}, {0}, {1, 2}, {1, 2}},
      // Matrix-vector and vector-vector.
      {{6, 5}, {5}, {}, {}, {1}, {0}},
      {{5}, {5}, {}, {}, {0}, {0}},
      // No contraction at all (outer product) and an empty contraction.
      {{3}, {4}, {}, {}, {}, {}},
      {{3, 0}, {0, 2}, {}, {}, {1}, {0}},
  };
  uint32_t seed = 1;
  for (const DotCase& c : cases) {
    const std::vector<float> lhs = RandomFloats(static_cast<size_t>(NumElements(c.ls)), seed++);
    const std::vector<float> rhs = RandomFloats(static_cast<size_t>(NumElements(c.rs)), seed++);
    std::vector<int64_t> shape;
    const std::vector<double> want = NaiveDotGeneral(lhs, c.ls, rhs, c.rs, c.lb, c.rb, c.lc, c.rc, &shape);
    const std::string lt = TensorType(c.ls, "f32"), rt = TensorType(c.rs, "f32"), ot = TensorType(shape, "f32");
    std::string dims;
    if (!c.lb.empty()) dims += "batching_dims = " + List(c.lb) + " x " + List(c.rb) + ", ";
    dims += "contracting_dims = " + List(c.lc) + " x " + List(c.rc);
    const std::string text = "func.func @main(%a: " + lt + ", %b: " + rt + ") -> " + ot +
                             " {\n  %0 = stablehlo.dot_general %a, %b, " + dims +
                             ", precision = [DEFAULT, HIGHEST] : (" + lt + ", " + rt + ") -> " + ot +
                             "\n  return %0 : " + ot + "\n}\n";
    auto out = RunProgram(text, {Make(E::kF32, c.ls, lhs), Make(E::kF32, c.rs, rhs)});
    ASSERT_EQ(out.size(), 1u) << text;
    ExpectNear(Values<float>(out[0]), want, 1e-5, text);
  }
}

TEST(CpuLinalg, DotGeneralF64AndComplex) {
  // f64: [[1, 2], [3, 4]] x [[5, 6], [7, 8]] = [[19, 22], [43, 50]].
  auto out = RunProgram(R"(func.func @main(%a: tensor<2x2xf64>, %b: tensor<2x2xf64>) -> tensor<2x2xf64> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x2xf64>, tensor<2x2xf64>) -> tensor<2x2xf64>
  return %0 : tensor<2x2xf64>
})",
                 {Make<double>(E::kF64, {2, 2}, {1, 2, 3, 4}), Make<double>(E::kF64, {2, 2}, {5, 6, 7, 8})});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(Values<double>(out[0]), (std::vector<double>{19, 22, 43, 50}));

  // complex: [[1+i, 2], [0, i]] . [1 - i, 3i] = [(1+i)(1-i) + 6i, i * 3i] = [2 + 6i, -3].
  out = RunProgram(R"(func.func @main(%a: tensor<2x2xcomplex<f32>>, %b: tensor<2xcomplex<f32>>) -> tensor<2xcomplex<f32>> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x2xcomplex<f32>>, tensor<2xcomplex<f32>>) -> tensor<2xcomplex<f32>>
  return %0 : tensor<2xcomplex<f32>>
})",
            {Make<Cf>(E::kC64, {2, 2}, {{1, 1}, {2, 0}, {0, 0}, {0, 1}}), Make<Cf>(E::kC64, {2}, {{1, -1}, {0, 3}})});
  ASSERT_EQ(out.size(), 1u);
  const auto c = Values<Cf>(out[0]);
  EXPECT_EQ(c[0], Cf(2, 6));
  EXPECT_EQ(c[1], Cf(-3, 0));
}

TEST(CpuLinalg, DotMatrixVector) {
  auto out = RunProgram(R"(func.func @main(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2xf32> {
  %0 = stablehlo.dot %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
})",
                 {Make<float>(E::kF32, {2, 3}, {1, 2, 3, 4, 5, 6}), Make<float>(E::kF32, {3}, {1, 0, -1})});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(Values<float>(out[0]), (std::vector<float>{-2, -2}));
}

TEST(CpuLinalg, DotI8ToI32) {
  const std::vector<int8_t> a = {127, -128, 5, 100, 99, -7};  // 2x3
  const std::vector<int8_t> b = {127, 1, -128, -1, 127, 3};   // 3x2
  auto out = RunProgram(R"(func.func @main(%a: tensor<2x3xi8>, %b: tensor<3x2xi8>) -> tensor<2x2xi32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<2x3xi8>, tensor<3x2xi8>) -> tensor<2x2xi32>
  return %0 : tensor<2x2xi32>
})",
                 {Make(E::kI8, {2, 3}, a), Make(E::kI8, {3, 2}, b)});
  ASSERT_EQ(out.size(), 1u);
  std::vector<int32_t> want(4, 0);
  for (int i = 0; i < 2; ++i) {
    for (int j = 0; j < 2; ++j) {
      for (int k = 0; k < 3; ++k) want[static_cast<size_t>(i * 2 + j)] += int32_t{a[i * 3 + k]} * int32_t{b[k * 2 + j]};
    }
  }
  EXPECT_EQ(Values<int32_t>(out[0]), want);
  EXPECT_EQ(want[0], 127 * 127 + 128 * 128 + 5 * 127);  // well outside i8
}

TEST(CpuLinalg, DotIntegerWrapsInResultType) {
  // 65536 * 65536 + 3 * 5 = 2^32 + 15, which wraps to 15 in i32.
  auto out = RunProgram(R"(func.func @main(%a: tensor<1x2xi32>, %b: tensor<2x1xi32>) -> tensor<1x1xi32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<1x2xi32>, tensor<2x1xi32>) -> tensor<1x1xi32>
  return %0 : tensor<1x1xi32>
})",
                 {Make<int32_t>(E::kI32, {1, 2}, {65536, 3}), Make<int32_t>(E::kI32, {2, 1}, {65536, 5})});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(Values<int32_t>(out[0]), std::vector<int32_t>{15});

  // ui8: 200 * 2 + 100 * 1 = 500, which wraps to 244.
  out = RunProgram(R"(func.func @main(%a: tensor<2xui8>, %b: tensor<2xui8>) -> tensor<ui8> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [0] x [0] : (tensor<2xui8>, tensor<2xui8>) -> tensor<ui8>
  return %0 : tensor<ui8>
})",
            {Make<uint8_t>(E::kU8, {2}, {200, 100}), Make<uint8_t>(E::kU8, {2}, {2, 1})});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(Values<uint8_t>(out[0]), std::vector<uint8_t>{244});
}

TEST(CpuLinalg, DotBf16AccumulatesInF32) {
  // [256, 1, 1] . [1, 1, 1]: summed in f32 this is 258 (bf16 0x4381); summed
  // step by step in bf16 it would stay at 256.
  const uint16_t one = 0x3F80, b256 = 0x4380;
  const std::vector<uint16_t> a = {b256, one, one}, b = {one, one, one};
  auto out = RunProgram(R"(func.func @main(%a: tensor<1x3xbf16>, %b: tensor<3xbf16>) -> (tensor<1xbf16>, tensor<1xf32>) {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<1x3xbf16>, tensor<3xbf16>) -> tensor<1xbf16>
  %1 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0] : (tensor<1x3xbf16>, tensor<3xbf16>) -> tensor<1xf32>
  return %0, %1 : tensor<1xbf16>, tensor<1xf32>
})",
                 {Make(E::kBF16, {1, 3}, a), Make(E::kBF16, {3}, b)});
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(Values<uint16_t>(out[0]), std::vector<uint16_t>{0x4381});
  EXPECT_EQ(Values<float>(out[1]), std::vector<float>{258.0f});

  // 257 is halfway between bf16 neighbours 256 and 258: ties to even (256).
  out = RunProgram(R"(func.func @main(%a: tensor<2xbf16>, %b: tensor<2xbf16>) -> tensor<bf16> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [0] x [0] : (tensor<2xbf16>, tensor<2xbf16>) -> tensor<bf16>
  return %0 : tensor<bf16>
})",
            {Make<uint16_t>(E::kBF16, {2}, {b256, one}), Make<uint16_t>(E::kBF16, {2}, {one, one})});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(Values<uint16_t>(out[0]), std::vector<uint16_t>{0x4380});
}

// ---------------------------------------------------------------------------
// convolution

// A 2-D convolution in canonical layouts: lhs [N, C, H, W], rhs [O, I, KH,
// KW], result [N / batch_groups, O, OH, OW], straight from the spec.
struct Conv2D {
  std::vector<int64_t> lhs_shape, rhs_shape;  // canonical
  std::vector<int64_t> stride = {1, 1}, lhs_dil = {1, 1}, rhs_dil = {1, 1};
  std::vector<std::pair<int64_t, int64_t>> pad = {{0, 0}, {0, 0}};
  std::vector<bool> reverse = {false, false};
  int64_t feature_groups = 1, batch_groups = 1;
  // The IR layouts: IR dim i is canonical dim perm[i].
  std::vector<int64_t> lhs_perm = {0, 1, 2, 3}, rhs_perm = {0, 1, 2, 3}, out_perm = {0, 1, 2, 3};

  std::vector<int64_t> OutShape() const {
    std::vector<int64_t> s = {lhs_shape[0] / batch_groups, rhs_shape[0]};
    for (size_t d = 0; d < 2; ++d) {
      const int64_t in = (lhs_shape[2 + d] - 1) * lhs_dil[d] + 1 + pad[d].first + pad[d].second;
      const int64_t k = (rhs_shape[2 + d] - 1) * rhs_dil[d] + 1;
      s.push_back((in - k) / stride[d] + 1);
    }
    return s;
  }

  template <typename T, typename Acc>
  std::vector<Acc> Reference(const std::vector<T>& lhs, const std::vector<T>& rhs) const {
    const std::vector<int64_t> os = OutShape();
    const int64_t groups = feature_groups * batch_groups, per_group = rhs_shape[0] / groups;
    const int64_t out_batch = lhs_shape[0] / batch_groups, in_per_group = rhs_shape[1];
    std::vector<Acc> out(static_cast<size_t>(NumElements(os)), Acc{});
    ForEach(os, [&](const std::vector<int64_t>& o) {
      const int64_t g = o[1] / per_group;
      const int64_t n = (batch_groups > 1 ? g * out_batch : 0) + o[0];
      Acc sum{};
      for (int64_t i = 0; i < in_per_group; ++i) {
        const int64_t c = (feature_groups > 1 ? g * in_per_group : 0) + i;
        for (int64_t kh = 0; kh < rhs_shape[2]; ++kh) {
          for (int64_t kw = 0; kw < rhs_shape[3]; ++kw) {
            const int64_t ph = o[2] * stride[0] + kh * rhs_dil[0] - pad[0].first;
            const int64_t pw = o[3] * stride[1] + kw * rhs_dil[1] - pad[1].first;
            if (ph < 0 || pw < 0 || ph % lhs_dil[0] != 0 || pw % lhs_dil[1] != 0) continue;
            const int64_t h = ph / lhs_dil[0], w = pw / lhs_dil[1];
            if (h >= lhs_shape[2] || w >= lhs_shape[3]) continue;
            const int64_t rkh = reverse[0] ? rhs_shape[2] - 1 - kh : kh;
            const int64_t rkw = reverse[1] ? rhs_shape[3] - 1 - kw : kw;
            sum += static_cast<Acc>(lhs[static_cast<size_t>(Offset(lhs_shape, {n, c, h, w}))]) *
                   static_cast<Acc>(rhs[static_cast<size_t>(Offset(rhs_shape, {o[1], i, rkh, rkw}))]);
          }
        }
      }
      out[static_cast<size_t>(Offset(os, o))] = sum;
    });
    return out;
  }

  std::string Text(const std::string& element, const std::string& result_element) const {
    auto dims = [](const std::vector<int64_t>& perm, const char* names) {
      std::string s = "[";
      for (size_t i = 0; i < perm.size(); ++i) {
        s += (i ? ", " : "") + std::string(1, names[perm[i]]);
      }
      return s + "]";
    };
    auto permuted = [](const std::vector<int64_t>& shape, const std::vector<int64_t>& perm) {
      std::vector<int64_t> s;
      for (int64_t p : perm) s.push_back(shape[static_cast<size_t>(p)]);
      return s;
    };
    const std::string lt = TensorType(permuted(lhs_shape, lhs_perm), element);
    const std::string rt = TensorType(permuted(rhs_shape, rhs_perm), element);
    const std::string ot = TensorType(permuted(OutShape(), out_perm), result_element);
    auto b = [](bool v) { return v ? std::string("true") : std::string("false"); };
    return "func.func @main(%a: " + lt + ", %b: " + rt + ") -> " + ot +
           " {\n  %0 = stablehlo.convolution(%a, %b) dim_numbers = " + dims(lhs_perm, "bf01") + "x" +
           dims(rhs_perm, "oi01") + "->" + dims(out_perm, "bf01") + ", window = {stride = " + List(stride) +
           ", pad = [[" + std::to_string(pad[0].first) + ", " + std::to_string(pad[0].second) + "], [" +
           std::to_string(pad[1].first) + ", " + std::to_string(pad[1].second) + "]], lhs_dilate = " +
           List(lhs_dil) + ", rhs_dilate = " + List(rhs_dil) + ", reverse = [" + b(reverse[0]) + ", " +
           b(reverse[1]) + "]} {batch_group_count = " + std::to_string(batch_groups) +
           " : i64, feature_group_count = " + std::to_string(feature_groups) + " : i64} : (" + lt + ", " + rt +
           ") -> " + ot + "\n  return %0 : " + ot + "\n}\n";
  }

  void CheckF32(uint32_t seed) const {
    const std::vector<float> lhs = RandomFloats(static_cast<size_t>(NumElements(lhs_shape)), seed);
    const std::vector<float> rhs = RandomFloats(static_cast<size_t>(NumElements(rhs_shape)), seed + 100);
    const std::string text = Text("f32", "f32");
    auto out = RunProgram(text, {Make(E::kF32, PermutedShape(lhs_shape, lhs_perm), Transpose(lhs, lhs_shape, lhs_perm)),
                          Make(E::kF32, PermutedShape(rhs_shape, rhs_perm), Transpose(rhs, rhs_shape, rhs_perm))});
    ASSERT_EQ(out.size(), 1u) << text;
    const std::vector<double> want = Transpose(Reference<float, double>(lhs, rhs), OutShape(), out_perm);
    ExpectNear(Values<float>(out[0]), want, 1e-5, text);
  }

  static std::vector<int64_t> PermutedShape(const std::vector<int64_t>& shape, const std::vector<int64_t>& perm) {
    std::vector<int64_t> s;
    for (int64_t p : perm) s.push_back(shape[static_cast<size_t>(p)]);
    return s;
  }
};

TEST(CpuLinalg, Conv2dNhwcStridedPadded) {
  Conv2D c;
  c.lhs_shape = {2, 3, 9, 8};  // N, C, H, W
  c.rhs_shape = {5, 3, 3, 3};  // O, I, KH, KW
  c.stride = {2, 2};
  c.pad = {{1, 1}, {0, 1}};
  c.lhs_perm = {0, 2, 3, 1};  // NHWC
  c.rhs_perm = {2, 3, 1, 0};  // HWIO
  c.out_perm = {0, 2, 3, 1};  // NHWC
  c.CheckF32(1);
}

TEST(CpuLinalg, Conv2dNchwDilated) {
  Conv2D c;
  c.lhs_shape = {2, 3, 12, 11};
  c.rhs_shape = {4, 3, 3, 2};
  c.pad = {{2, 1}, {0, 3}};
  c.lhs_dil = {2, 1};
  c.rhs_dil = {2, 3};
  c.stride = {1, 2};
  c.CheckF32(2);  // NCHW / OIHW / NCHW
}

TEST(CpuLinalg, Conv2dNegativePaddingAndReversal) {
  Conv2D c;
  c.lhs_shape = {1, 2, 8, 7};
  c.rhs_shape = {3, 2, 3, 2};
  c.pad = {{-1, 2}, {1, -2}};
  c.reverse = {true, false};
  c.lhs_perm = {1, 2, 3, 0};  // [f, 0, 1, b]
  c.rhs_perm = {1, 2, 3, 0};  // [i, 0, 1, o]
  c.out_perm = {2, 3, 0, 1};  // [0, 1, b, f]
  c.CheckF32(3);
}

TEST(CpuLinalg, Conv2dDepthwiseFeatureGroups) {
  Conv2D c;
  c.lhs_shape = {2, 6, 10, 10};
  c.rhs_shape = {12, 1, 3, 3};  // channel multiplier 2
  c.feature_groups = 6;
  c.pad = {{1, 1}, {1, 1}};
  c.lhs_perm = {0, 2, 3, 1};
  c.rhs_perm = {2, 3, 1, 0};
  c.out_perm = {0, 2, 3, 1};
  c.CheckF32(4);

  Conv2D grouped = c;  // two groups of two input features each
  grouped.lhs_shape = {2, 4, 8, 8};
  grouped.rhs_shape = {6, 2, 3, 3};
  grouped.feature_groups = 2;
  grouped.CheckF32(5);
}

TEST(CpuLinalg, Conv2dBatchGroupsWeightGradient) {
  // The shape of a grouped convolution's weight gradient: the "batch" is the
  // original input features, the "kernel" the output gradient.
  Conv2D c;
  c.lhs_shape = {4, 4, 8, 8};  // [f, 0, 1, b] in the IR
  c.rhs_shape = {6, 4, 6, 6};  // [i, 0, 1, o]
  c.batch_groups = 2;
  c.lhs_perm = {1, 2, 3, 0};
  c.rhs_perm = {1, 2, 3, 0};
  c.out_perm = {2, 3, 0, 1};
  c.CheckF32(6);
}

TEST(CpuLinalg, Conv2dInt8ToInt32IsExact) {
  Conv2D c;
  c.lhs_shape = {1, 3, 6, 6};
  c.rhs_shape = {4, 3, 3, 3};
  c.pad = {{1, 1}, {1, 1}};
  c.lhs_perm = {0, 2, 3, 1};
  c.rhs_perm = {2, 3, 1, 0};
  c.out_perm = {0, 2, 3, 1};
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> dist(-128, 127);
  std::vector<int8_t> lhs(static_cast<size_t>(NumElements(c.lhs_shape))), rhs(static_cast<size_t>(NumElements(c.rhs_shape)));
  for (auto& v : lhs) v = static_cast<int8_t>(dist(rng));
  for (auto& v : rhs) v = static_cast<int8_t>(dist(rng));
  const std::string text = c.Text("i8", "i32");
  auto out = RunProgram(text, {Make(E::kI8, Conv2D::PermutedShape(c.lhs_shape, c.lhs_perm), Transpose(lhs, c.lhs_shape, c.lhs_perm)),
                        Make(E::kI8, Conv2D::PermutedShape(c.rhs_shape, c.rhs_perm), Transpose(rhs, c.rhs_shape, c.rhs_perm))});
  ASSERT_EQ(out.size(), 1u);
  const std::vector<int64_t> want64 = Transpose(c.Reference<int8_t, int64_t>(lhs, rhs), c.OutShape(), c.out_perm);
  EXPECT_EQ(Values<int32_t>(out[0]), std::vector<int32_t>(want64.begin(), want64.end()));
}

// ---------------------------------------------------------------------------
// fft

std::vector<Cd> NaiveDft(const std::vector<Cd>& x, bool inverse) {
  const size_t n = x.size();
  std::vector<Cd> out(n);
  for (size_t k = 0; k < n; ++k) {
    Cd s = 0;
    for (size_t j = 0; j < n; ++j) {
      const double angle = (inverse ? 2.0 : -2.0) * std::numbers::pi * static_cast<double>((j * k) % n) / static_cast<double>(n);
      s += x[j] * Cd(std::cos(angle), std::sin(angle));
    }
    out[k] = inverse ? s / static_cast<double>(n) : s;
  }
  return out;
}

std::string FftText(const std::string& type, const std::vector<int64_t>& in_shape, const std::string& in_elem,
                    const std::vector<int64_t>& out_shape, const std::string& out_elem,
                    const std::vector<int64_t>& lengths) {
  const std::string it = TensorType(in_shape, in_elem), ot = TensorType(out_shape, out_elem);
  return "func.func @main(%a: " + it + ") -> " + ot + " {\n  %0 = stablehlo.fft %a, type = " + type +
         ", length = " + List(lengths) + " : (" + it + ") -> " + ot + "\n  return %0 : " + ot + "\n}\n";
}

TEST(CpuLinalg, FftOfImpulseAndCosine) {
  for (int64_t n : {16, 12, 7, 1}) {
    // Row 0: a unit impulse, whose spectrum is all ones. Row 1: cos(2 pi 2t / n),
    // whose spectrum is n/2 at bins 2 and n - 2 (n for n <= 4 where they meet).
    std::vector<Cf> x(static_cast<size_t>(2 * n));
    x[0] = 1;
    for (int64_t t = 0; t < n; ++t) {
      x[static_cast<size_t>(n + t)] = static_cast<float>(std::cos(2 * std::numbers::pi * 2 * static_cast<double>(t) / static_cast<double>(n)));
    }
    const std::string text = FftText("FFT", {2, n}, "complex<f32>", {2, n}, "complex<f32>", {n});
    auto out = RunProgram(text, {Make(E::kC64, {2, n}, x)});
    ASSERT_EQ(out.size(), 1u);
    const auto got = Values<Cf>(out[0]);
    for (int64_t k = 0; k < n; ++k) {
      EXPECT_NEAR(got[static_cast<size_t>(k)].real(), 1.0, 1e-6) << "n=" << n << " k=" << k;
      EXPECT_NEAR(got[static_cast<size_t>(k)].imag(), 0.0, 1e-6) << "n=" << n << " k=" << k;
      double want = 0;
      if (k == 2 % n) want += static_cast<double>(n) / 2;
      if (k == (n - 2 % n) % n) want += static_cast<double>(n) / 2;
      EXPECT_NEAR(got[static_cast<size_t>(n + k)].real(), want, 1e-5) << "n=" << n << " k=" << k;
      EXPECT_NEAR(got[static_cast<size_t>(n + k)].imag(), 0.0, 1e-5) << "n=" << n << " k=" << k;
    }
  }
}

TEST(CpuLinalg, FftMatchesNaiveDft) {
  // 2-D FFT and IFFT over [6, 10] (Bluestein on both axes) in f64, and 1-D
  // over a prime length; compared with the DFT's definition.
  for (const char* type : {"FFT", "IFFT"}) {
    const bool inverse = std::string(type) == "IFFT";
    const int64_t b = 2, r = 6, c = 10;
    std::vector<Cd> x(static_cast<size_t>(b * r * c));
    const auto re = RandomFloats(x.size(), 11), im = RandomFloats(x.size(), 12);
    for (size_t i = 0; i < x.size(); ++i) x[i] = Cd(re[i], im[i]);
    std::vector<Cd> want = x;
    for (int64_t bi = 0; bi < b; ++bi) {
      for (int64_t i = 0; i < r; ++i) {  // along the last axis
        std::vector<Cd> line(want.begin() + (bi * r + i) * c, want.begin() + (bi * r + i + 1) * c);
        line = NaiveDft(line, inverse);
        std::copy(line.begin(), line.end(), want.begin() + (bi * r + i) * c);
      }
      for (int64_t j = 0; j < c; ++j) {  // along the middle axis
        std::vector<Cd> line(static_cast<size_t>(r));
        for (int64_t i = 0; i < r; ++i) line[static_cast<size_t>(i)] = want[static_cast<size_t>((bi * r + i) * c + j)];
        line = NaiveDft(line, inverse);
        for (int64_t i = 0; i < r; ++i) want[static_cast<size_t>((bi * r + i) * c + j)] = line[static_cast<size_t>(i)];
      }
    }
    const std::string text = FftText(type, {b, r, c}, "complex<f64>", {b, r, c}, "complex<f64>", {r, c});
    auto out = RunProgram(text, {Make(E::kC128, {b, r, c}, x)});
    ASSERT_EQ(out.size(), 1u);
    const auto got = Values<Cd>(out[0]);
    for (size_t i = 0; i < got.size(); ++i) ASSERT_LT(std::abs(got[i] - want[i]), 1e-12) << type << " at " << i;
  }
  std::vector<Cf> x(13);
  const auto re = RandomFloats(13, 21);
  for (size_t i = 0; i < 13; ++i) x[i] = Cf(re[i], 0.5f);
  auto out = RunProgram(FftText("FFT", {13}, "complex<f32>", {13}, "complex<f32>", {13}), {Make(E::kC64, {13}, x)});
  ASSERT_EQ(out.size(), 1u);
  const auto want = NaiveDft(std::vector<Cd>(x.begin(), x.end()), false);
  const auto got = Values<Cf>(out[0]);
  for (size_t i = 0; i < got.size(); ++i) EXPECT_LT(std::abs(Cd(got[i]) - want[i]), 1e-5) << i;
}

TEST(CpuLinalg, RfftMatchesDftAndIrfftInvertsIt) {
  for (const std::vector<int64_t>& lengths : std::vector<std::vector<int64_t>>{{32}, {9}, {6, 10}, {5, 7}}) {
    std::vector<int64_t> shape = {3};
    shape.insert(shape.end(), lengths.begin(), lengths.end());
    std::vector<int64_t> half = shape;
    half.back() = lengths.back() / 2 + 1;
    const std::vector<float> x = RandomFloats(static_cast<size_t>(NumElements(shape)), 31);
    const std::string it = TensorType(shape, "f32"), ht = TensorType(half, "complex<f32>");
    const std::string text = "func.func @main(%a: " + it + ") -> (" + ht + ", " + it +
                             ") {\n  %0 = stablehlo.fft %a, type = RFFT, length = " + List(lengths) + " : (" + it +
                             ") -> " + ht + "\n  %1 = stablehlo.fft %0, type = IRFFT, length = " + List(lengths) +
                             " : (" + ht + ") -> " + it + "\n  return %0, %1 : " + ht + ", " + it + "\n}\n";
    auto out = RunProgram(text, {Make(E::kF32, shape, x)});
    ASSERT_EQ(out.size(), 2u) << text;
    ExpectNear(Values<float>(out[1]), std::vector<double>(x.begin(), x.end()), 1e-5, text);
    if (lengths.size() == 1) {  // the half spectrum against the DFT
      const int64_t n = lengths[0], h = n / 2 + 1;
      const auto got = Values<Cf>(out[0]);
      for (int64_t row = 0; row < 3; ++row) {
        std::vector<Cd> line(x.begin() + row * n, x.begin() + (row + 1) * n);
        const auto want = NaiveDft(line, false);
        for (int64_t k = 0; k < h; ++k) {
          EXPECT_LT(std::abs(Cd(got[static_cast<size_t>(row * h + k)]) - want[static_cast<size_t>(k)]), 1e-5);
        }
      }
    }
  }
}

// ---------------------------------------------------------------------------
// cholesky and triangular_solve

// A = L L^T with L = [[2, 0, 0], [6, 1, 0], [-8, 5, 3]].
const std::vector<float> kSpd = {4, 12, -16, 12, 37, -43, -16, -43, 98};
const std::vector<float> kSpdLower = {2, 0, 0, 6, 1, 0, -8, 5, 3};

TEST(CpuLinalg, CholeskyOfKnownMatrix) {
  // Batch of two: the SPD matrix and one that is not positive definite.
  std::vector<float> in = kSpd;
  const std::vector<float> not_pd = {1, 2, 3, 2, 1, 4, 3, 4, 1};
  in.insert(in.end(), not_pd.begin(), not_pd.end());
  auto out = RunProgram(R"(func.func @main(%a: tensor<2x3x3xf32>) -> (tensor<2x3x3xf32>, tensor<2x3x3xf32>) {
  %0 = stablehlo.cholesky %a, lower = true : tensor<2x3x3xf32>
  %1 = stablehlo.cholesky %a : tensor<2x3x3xf32>
  return %0, %1 : tensor<2x3x3xf32>, tensor<2x3x3xf32>
})",
                 {Make(E::kF32, {2, 3, 3}, in)});
  ASSERT_EQ(out.size(), 2u);
  const auto lower = Values<float>(out[0]), upper = Values<float>(out[1]);
  for (size_t i = 0; i < 3; ++i) {
    for (size_t j = 0; j < 3; ++j) {
      EXPECT_NEAR(lower[i * 3 + j], kSpdLower[i * 3 + j], 1e-5) << i << "," << j;
      EXPECT_NEAR(upper[i * 3 + j], kSpdLower[j * 3 + i], 1e-5) << i << "," << j;
    }
  }
  for (size_t i = 9; i < 18; ++i) {
    EXPECT_TRUE(std::isnan(lower[i])) << i;
    EXPECT_TRUE(std::isnan(upper[i])) << i;
  }
}

TEST(CpuLinalg, CholeskyReadsOnlyItsTriangleAndHandlesComplex) {
  // Junk in the unread triangle must not matter.
  std::vector<float> a = kSpd;
  a[1] = 1000;  // upper triangle, unread for lower = true
  auto out = RunProgram(R"(func.func @main(%a: tensor<3x3xf32>) -> tensor<3x3xf32> {
  %0 = stablehlo.cholesky %a, lower = true : tensor<3x3xf32>
  return %0 : tensor<3x3xf32>
})",
                 {Make(E::kF32, {3, 3}, a)});
  ASSERT_EQ(out.size(), 1u);
  ExpectNear(Values<float>(out[0]), std::vector<double>(kSpdLower.begin(), kSpdLower.end()), 1e-5, "lower");

  // [[4, 2 - 2i], [2 + 2i, 6]] = L L^H with L = [[2, 0], [1 + i, 2]].
  out = RunProgram(R"(func.func @main(%a: tensor<2x2xcomplex<f64>>) -> tensor<2x2xcomplex<f64>> {
  %0 = stablehlo.cholesky %a, lower = true : tensor<2x2xcomplex<f64>>
  return %0 : tensor<2x2xcomplex<f64>>
})",
            {Make<Cd>(E::kC128, {2, 2}, {{4, 0}, {2, -2}, {2, 2}, {6, 0}})});
  ASSERT_EQ(out.size(), 1u);
  const auto l = Values<Cd>(out[0]);
  const std::vector<Cd> want = {{2, 0}, {0, 0}, {1, 1}, {2, 0}};
  for (size_t i = 0; i < 4; ++i) EXPECT_LT(std::abs(l[i] - want[i]), 1e-12) << i;
}

TEST(CpuLinalg, TriangularSolveVariants) {
  // op(A) X = B or X op(A) = B with a known X: B is built here from the
  // triangle the solve may read (with a unit diagonal when asked); the other
  // triangle of the A passed in holds junk.
  const int64_t m = 3, n = 2;
  const std::vector<double> full = {2, 7, -3, 0.5, -4, 9, 1.5, -2, 3};  // 3x3
  const std::vector<double> x_left = {1, -2, 0.5, 3, -1, 4};            // 3x2
  const std::vector<double> x_right = {1, -2, 0.5, 3, -1, 4};           // 2x3
  for (bool left : {true, false}) {
    for (bool lower : {true, false}) {
      for (bool unit : {false, true}) {
        for (const char* transpose : {"NO_TRANSPOSE", "TRANSPOSE", "ADJOINT"}) {
          // The triangular matrix the solve uses.
          std::vector<double> tri(9, 0.0);
          for (int64_t i = 0; i < m; ++i) {
            for (int64_t j = 0; j < m; ++j) {
              if (i == j) {
                tri[static_cast<size_t>(i * m + j)] = unit ? 1.0 : full[static_cast<size_t>(i * m + j)];
              } else if ((i > j) == lower) {
                tri[static_cast<size_t>(i * m + j)] = full[static_cast<size_t>(i * m + j)];
              }
            }
          }
          const bool trans = std::string(transpose) != "NO_TRANSPOSE";
          auto op_a = [&](int64_t i, int64_t j) {
            return trans ? tri[static_cast<size_t>(j * m + i)] : tri[static_cast<size_t>(i * m + j)];
          };
          const std::vector<double>& x = left ? x_left : x_right;
          const int64_t br = left ? m : n, bc = left ? n : m;
          std::vector<float> bvals(static_cast<size_t>(br * bc));
          for (int64_t i = 0; i < br; ++i) {
            for (int64_t j = 0; j < bc; ++j) {
              double s = 0;
              for (int64_t k = 0; k < m; ++k) {
                s += left ? op_a(i, k) * x[static_cast<size_t>(k * bc + j)] : x[static_cast<size_t>(i * m + k)] * op_a(k, j);
              }
              bvals[static_cast<size_t>(i * bc + j)] = static_cast<float>(s);
            }
          }
          std::vector<float> avals(full.begin(), full.end());
          const std::string at = "tensor<3x3xf32>", bt = TensorType({br, bc}, "f32");
          const std::string text = "func.func @main(%a: " + at + ", %b: " + bt + ") -> " + bt +
                                   " {\n  %0 = \"stablehlo.triangular_solve\"(%a, %b) {left_side = " +
                                   (left ? "true" : "false") + ", lower = " + (lower ? "true" : "false") +
                                   ", unit_diagonal = " + (unit ? "true" : "false") +
                                   ", transpose_a = #stablehlo<transpose " + transpose + ">} : (" + at + ", " + bt +
                                   ") -> " + bt + "\n  return %0 : " + bt + "\n}\n";
          auto out = RunProgram(text, {Make(E::kF32, {3, 3}, avals), Make(E::kF32, {br, bc}, bvals)});
          ASSERT_EQ(out.size(), 1u) << text;
          ExpectNear(Values<float>(out[0]), x, 1e-4, text);
        }
      }
    }
  }
}

TEST(CpuLinalg, TriangularSolveBatchedComplexAdjoint) {
  // conj(A)^T x = b with A = [[2, 0], [1 + i, 1]] (lower), x = [1, i]:
  // A^H = [[2, 1 - i], [0, 1]], so b = [2 + (1 - i) i, i] = [3 + i, i].
  // Second batch element: A = I, b = x = [5, -1].
  auto out = RunProgram(R"(func.func @main(%a: tensor<2x2x2xcomplex<f32>>, %b: tensor<2x2x1xcomplex<f32>>) -> tensor<2x2x1xcomplex<f32>> {
  %0 = "stablehlo.triangular_solve"(%a, %b) {left_side = true, lower = true, unit_diagonal = false, transpose_a = #stablehlo<transpose ADJOINT>} : (tensor<2x2x2xcomplex<f32>>, tensor<2x2x1xcomplex<f32>>) -> tensor<2x2x1xcomplex<f32>>
  return %0 : tensor<2x2x1xcomplex<f32>>
})",
                 {Make<Cf>(E::kC64, {2, 2, 2}, {{2, 0}, {9, 9}, {1, 1}, {1, 0}, {1, 0}, {0, 0}, {0, 0}, {1, 0}}),
                  Make<Cf>(E::kC64, {2, 2, 1}, {{3, 1}, {0, 1}, {5, 0}, {-1, 0}})});
  ASSERT_EQ(out.size(), 1u);
  const auto x = Values<Cf>(out[0]);
  const std::vector<Cf> want = {{1, 0}, {0, 1}, {5, 0}, {-1, 0}};
  for (size_t i = 0; i < 4; ++i) EXPECT_LT(std::abs(x[i] - want[i]), 1e-6) << i;
}

// ---------------------------------------------------------------------------
// batch_norm

TEST(CpuLinalg, BatchNormTrainingAndInference) {
  // x: [2, 2] with features on dim 1: feature 0 = {1, 3}, feature 1 = {2, 6}.
  // mean = {2, 4}, biased var = {1, 4}, normalized = {-1, -1, 1, 1}.
  const std::string text = R"(func.func @main(%x: tensor<2x2xf32>, %s: tensor<2xf32>, %o: tensor<2xf32>)
    -> (tensor<2x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2x2xf32>) {
  %0:3 = "stablehlo.batch_norm_training"(%x, %s, %o) {epsilon = 0.0 : f32, feature_index = 1 : i64} : (tensor<2x2xf32>, tensor<2xf32>, tensor<2xf32>) -> (tensor<2x2xf32>, tensor<2xf32>, tensor<2xf32>)
  %1 = "stablehlo.batch_norm_inference"(%x, %s, %o, %0#1, %0#2) {epsilon = 0.0 : f32, feature_index = 1 : i64} : (tensor<2x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<2x2xf32>
  return %0#0, %0#1, %0#2, %1 : tensor<2x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2x2xf32>
})";
  auto out = RunProgram(text, {Make<float>(E::kF32, {2, 2}, {1, 2, 3, 6}), Make<float>(E::kF32, {2}, {2, 0.5}),
                               Make<float>(E::kF32, {2}, {10, -1})});
  ASSERT_EQ(out.size(), 4u);
  EXPECT_EQ(Values<float>(out[0]), (std::vector<float>{8, -1.5, 12, -0.5}));
  EXPECT_EQ(Values<float>(out[1]), (std::vector<float>{2, 4}));
  EXPECT_EQ(Values<float>(out[2]), (std::vector<float>{1, 4}));
  EXPECT_EQ(Values<float>(out[3]), (std::vector<float>{8, -1.5, 12, -0.5}));

  // Inference with given statistics and epsilon: (x - mean) / sqrt(var + eps).
  out = RunProgram(R"(func.func @main(%x: tensor<1x2x2xf32>, %v: tensor<2xf32>) -> tensor<1x2x2xf32> {
  %0 = "stablehlo.batch_norm_inference"(%x, %v, %v, %v, %v) {epsilon = 5.0 : f32, feature_index = 1 : i64} : (tensor<1x2x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) -> tensor<1x2x2xf32>
  return %0 : tensor<1x2x2xf32>
})",
                   {Make<float>(E::kF32, {1, 2, 2}, {7, 10, 16, 4}), Make<float>(E::kF32, {2}, {4, 11})});
  ASSERT_EQ(out.size(), 1u);
  // Feature 0: (x - 4) / 3 * 4 + 4; feature 1: (x - 11) / 4 * 11 + 11.
  EXPECT_EQ(Values<float>(out[0]), (std::vector<float>{8, 12, 24.75f, -8.25f}));
}

// batch_norm_grad is the gradient of batch_norm_training's output (with the
// batch statistics depending on x): check it against central differences of
// L(x, scale, offset) = sum(dy * y).
TEST(CpuLinalg, BatchNormGradMatchesFiniteDifferences) {
  const int64_t rows = 3, features = 2, cols = 2;  // x: [3, 2, 2], feature_index 1
  const double eps = 0.25;
  const std::vector<float> x = RandomFloats(12, 41), dy = RandomFloats(12, 42);
  const std::vector<float> scale = {1.5f, -0.75f}, offset = {0.25f, 2.0f};
  auto forward = [&](const std::vector<double>& xv, const std::vector<double>& sv, const std::vector<double>& ov) {
    double loss = 0;
    for (int64_t c = 0; c < features; ++c) {
      auto at = [&](int64_t r, int64_t k) { return static_cast<size_t>((r * features + c) * cols + k); };
      double mean = 0, var = 0;
      for (int64_t r = 0; r < rows; ++r) {
        for (int64_t k = 0; k < cols; ++k) mean += xv[at(r, k)];
      }
      mean /= rows * cols;
      for (int64_t r = 0; r < rows; ++r) {
        for (int64_t k = 0; k < cols; ++k) var += (xv[at(r, k)] - mean) * (xv[at(r, k)] - mean);
      }
      var /= rows * cols;
      for (int64_t r = 0; r < rows; ++r) {
        for (int64_t k = 0; k < cols; ++k) {
          const double y = (xv[at(r, k)] - mean) / std::sqrt(var + eps) * sv[static_cast<size_t>(c)] +
                           ov[static_cast<size_t>(c)];
          loss += dy[at(r, k)] * y;
        }
      }
    }
    return loss;
  };
  const std::vector<double> xd(x.begin(), x.end()), sd(scale.begin(), scale.end()), od(offset.begin(), offset.end());
  auto gradient = [&](int which) {
    std::vector<double> g;
    const std::vector<double>& base = which == 0 ? xd : which == 1 ? sd : od;
    for (size_t i = 0; i < base.size(); ++i) {
      std::vector<double> lo = base, hi = base;
      const double h = 1e-5;
      lo[i] -= h;
      hi[i] += h;
      auto eval = [&](const std::vector<double>& v) {
        return forward(which == 0 ? v : xd, which == 1 ? v : sd, which == 2 ? v : od);
      };
      g.push_back((eval(hi) - eval(lo)) / (2 * h));
    }
    return g;
  };
  // The batch statistics the training op would produce.
  std::vector<float> mean(2, 0), var(2, 0);
  for (int64_t c = 0; c < features; ++c) {
    double m = 0, v = 0;
    for (int64_t i = 0; i < 12; ++i) {
      if ((i / cols) % features == c) m += x[static_cast<size_t>(i)];
    }
    m /= rows * cols;
    for (int64_t i = 0; i < 12; ++i) {
      if ((i / cols) % features == c) v += (x[static_cast<size_t>(i)] - m) * (x[static_cast<size_t>(i)] - m);
    }
    mean[static_cast<size_t>(c)] = static_cast<float>(m);
    var[static_cast<size_t>(c)] = static_cast<float>(v / (rows * cols));
  }
  auto out = RunProgram(R"(func.func @main(%x: tensor<3x2x2xf32>, %s: tensor<2xf32>, %m: tensor<2xf32>, %v: tensor<2xf32>, %dy: tensor<3x2x2xf32>)
    -> (tensor<3x2x2xf32>, tensor<2xf32>, tensor<2xf32>) {
  %0:3 = "stablehlo.batch_norm_grad"(%x, %s, %m, %v, %dy) {epsilon = 2.500000e-01 : f32, feature_index = 1 : i64} : (tensor<3x2x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<3x2x2xf32>) -> (tensor<3x2x2xf32>, tensor<2xf32>, tensor<2xf32>)
  return %0#0, %0#1, %0#2 : tensor<3x2x2xf32>, tensor<2xf32>, tensor<2xf32>
})",
                        {Make(E::kF32, {3, 2, 2}, x), Make(E::kF32, {2}, scale), Make(E::kF32, {2}, mean),
                         Make(E::kF32, {2}, var), Make(E::kF32, {3, 2, 2}, dy)});
  ASSERT_EQ(out.size(), 3u);
  ExpectNear(Values<float>(out[0]), gradient(0), 1e-4, "grad_operand");
  ExpectNear(Values<float>(out[1]), gradient(1), 1e-4, "grad_scale");
  ExpectNear(Values<float>(out[2]), gradient(2), 1e-4, "grad_offset");
}

// ---------------------------------------------------------------------------
// top_k

TEST(CpuLinalg, TopKTiesGoToLowerIndex) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  auto out = RunProgram(R"(func.func @main(%a: tensor<2x6xf32>) -> (tensor<2x4xf32>, tensor<2x4xi32>) {
  %values, %indices = chlo.top_k(%a, k = 4) : tensor<2x6xf32> -> (tensor<2x4xf32>, tensor<2x4xi32>)
  return %values, %indices : tensor<2x4xf32>, tensor<2x4xi32>
})",
                 {Make<float>(E::kF32, {2, 6}, {3, 1, 3, 2, 3, 5, -0.0f, 0.0f, nan, -1, 0.0f, -0.0f})});
  ASSERT_EQ(out.size(), 2u);
  const auto v = Values<float>(out[0]);
  EXPECT_EQ(std::vector<float>(v.begin(), v.begin() + 4), (std::vector<float>{5, 3, 3, 3}));
  // NaN sorts above everything; +0 above -0.
  EXPECT_TRUE(std::isnan(v[4]));
  EXPECT_EQ(Values<int32_t>(out[1]), (std::vector<int32_t>{5, 0, 2, 4, 2, 1, 4, 0}));
  EXPECT_FALSE(std::signbit(v[5]));
  EXPECT_FALSE(std::signbit(v[6]));
  EXPECT_TRUE(std::signbit(v[7]));

  out = RunProgram(R"(func.func @main(%a: tensor<5xi32>) -> (tensor<3xi32>, tensor<3xi32>) {
  %values, %indices = chlo.top_k(%a, k = 3) : tensor<5xi32> -> (tensor<3xi32>, tensor<3xi32>)
  return %values, %indices : tensor<3xi32>, tensor<3xi32>
})",
            {Make<int32_t>(E::kI32, {5}, {-7, 9, -7, 9, 100})});
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(Values<int32_t>(out[0]), (std::vector<int32_t>{100, 9, 9}));
  EXPECT_EQ(Values<int32_t>(out[1]), (std::vector<int32_t>{4, 1, 3}));
}

// ---------------------------------------------------------------------------
// LAPACK custom calls (as jax exports them: column-major layouts)

TEST(CpuLinalg, LapackPotrfAndTrsm) {
  const std::string text = R"(func.func @main(%a: tensor<3x3xf32>, %b: tensor<3x2xf32>) -> (tensor<3x3xf32>, tensor<i32>, tensor<3x2xf32>) {
  %0:2 = stablehlo.custom_call @lapack_spotrf_ffi(%a) {mhlo.backend_config = {uplo = 76 : ui8}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [0], operand_index = 0, operand_tuple_indices = []>], result_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<> : tensor<0xindex>]} : (tensor<3x3xf32>) -> (tensor<3x3xf32>, tensor<i32>)
  %1 = stablehlo.custom_call @lapack_strsm_ffi(%0#0, %b) {mhlo.backend_config = {diag = 78 : ui8, side = 76 : ui8, trans_x = 78 : ui8, uplo = 76 : ui8}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<[0, 1]> : tensor<2xindex>], result_layouts = [dense<[0, 1]> : tensor<2xindex>]} : (tensor<3x3xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
  return %0#0, %0#1, %1 : tensor<3x3xf32>, tensor<i32>, tensor<3x2xf32>
})";
  // L x = b with x = [[1, 2], [-1, 0], [0.5, 3]].
  const std::vector<double> x = {1, 2, -1, 0, 0.5, 3};
  std::vector<float> b(6);
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 2; ++j) {
      double s = 0;
      for (int k = 0; k < 3; ++k) s += kSpdLower[static_cast<size_t>(i * 3 + k)] * x[static_cast<size_t>(k * 2 + j)];
      b[static_cast<size_t>(i * 2 + j)] = static_cast<float>(s);
    }
  }
  auto out = RunProgram(text, {Make(E::kF32, {3, 3}, kSpd), Make(E::kF32, {3, 2}, b)});
  ASSERT_EQ(out.size(), 3u);
  const auto l = Values<float>(out[0]);
  for (size_t i = 0; i < 3; ++i) {
    for (size_t j = 0; j <= i; ++j) EXPECT_NEAR(l[i * 3 + j], kSpdLower[i * 3 + j], 1e-5);
  }
  EXPECT_EQ(Values<int32_t>(out[1]), std::vector<int32_t>{0});
  ExpectNear(Values<float>(out[2]), x, 1e-5, "trsm");
}

TEST(CpuLinalg, LapackGetrfReconstructs) {
  const std::vector<double> a = {1, 2, 3, 4, 5, 6, 7, 8, 10};  // nonsingular
  auto out = RunProgram(R"(func.func @main(%a: tensor<3x3xf64>) -> (tensor<3x3xf64>, tensor<3xi32>, tensor<i32>) {
  %0:3 = stablehlo.custom_call @lapack_dgetrf_ffi(%a) {mhlo.backend_config = {}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>], result_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<0> : tensor<1xindex>, dense<> : tensor<0xindex>]} : (tensor<3x3xf64>) -> (tensor<3x3xf64>, tensor<3xi32>, tensor<i32>)
  return %0#0, %0#1, %0#2 : tensor<3x3xf64>, tensor<3xi32>, tensor<i32>
})",
                 {Make(E::kF64, {3, 3}, a)});
  ASSERT_EQ(out.size(), 3u);
  const auto lu = Values<double>(out[0]);
  const auto piv = Values<int32_t>(out[1]);
  EXPECT_EQ(Values<int32_t>(out[2]), std::vector<int32_t>{0});
  // Partial pivoting picks the largest |entry| of column 0 first: row 3 (7).
  EXPECT_EQ(piv[0], 3);
  // Apply the row swaps to A, then compare with L U.
  std::vector<double> pa = a;
  for (int i = 0; i < 3; ++i) {
    const int p = piv[static_cast<size_t>(i)] - 1;
    for (int j = 0; j < 3; ++j) std::swap(pa[static_cast<size_t>(i * 3 + j)], pa[static_cast<size_t>(p * 3 + j)]);
  }
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      double s = 0;
      for (int k = 0; k < 3; ++k) {
        const double l = k < i ? lu[static_cast<size_t>(i * 3 + k)] : (k == i ? 1.0 : 0.0);
        const double u = k <= j ? lu[static_cast<size_t>(k * 3 + j)] : 0.0;
        s += l * u;
      }
      EXPECT_NEAR(s, pa[static_cast<size_t>(i * 3 + j)], 1e-12) << i << "," << j;
    }
  }
}

TEST(CpuLinalg, LapackQrEighAndSvd) {
  const std::vector<float> a = {2, -1, 0, 1, -1, 3, 1, 0, 0, 1, 4, 2, 1, 0, 2, 5};  // 4x4
  const std::string text = R"(func.func @main(%a: tensor<4x4xf32>, %s: tensor<4x4xf32>)
    -> (tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4x4xf32>, tensor<4x4xf32>) {
  %0:2 = stablehlo.custom_call @lapack_sgeqrf_ffi(%a) {mhlo.backend_config = {}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>], result_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<0> : tensor<1xindex>]} : (tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4xf32>)
  %1 = stablehlo.custom_call @lapack_sorgqr_ffi(%0#0, %0#1) {mhlo.backend_config = {}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<0> : tensor<1xindex>], result_layouts = [dense<[0, 1]> : tensor<2xindex>]} : (tensor<4x4xf32>, tensor<4xf32>) -> tensor<4x4xf32>
  %2:3 = stablehlo.custom_call @lapack_ssyevd_ffi(%s) {mhlo.backend_config = {mode = 86 : ui8, uplo = 76 : ui8}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>], result_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<0> : tensor<1xindex>, dense<> : tensor<0xindex>]} : (tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4xf32>, tensor<i32>)
  %3:5 = stablehlo.custom_call @lapack_sgesdd_ffi(%s) {mhlo.backend_config = {mode = 65 : ui8}, operand_layouts = [dense<[0, 1]> : tensor<2xindex>], result_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<0> : tensor<1xindex>, dense<[0, 1]> : tensor<2xindex>, dense<[0, 1]> : tensor<2xindex>, dense<> : tensor<0xindex>]} : (tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<i32>)
  return %0#0, %1, %2#0, %2#1, %3#1, %3#2, %3#3 : tensor<4x4xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4x4xf32>, tensor<4x4xf32>
})";
  // s: symmetric with known eigenvalues: diag(1, 2, 3, 4) in a rotated basis
  // is harder to write down, so use a block form: [[2, 1], [1, 2]] (1, 3)
  // and [[5, 0], [0, -2]] (5, -2).
  const std::vector<float> s = {2, 1, 0, 0, 1, 2, 0, 0, 0, 0, 5, 0, 0, 0, 0, -2};
  auto out = RunProgram(text, {Make(E::kF32, {4, 4}, a), Make(E::kF32, {4, 4}, s)});
  ASSERT_EQ(out.size(), 7u);
  // Q R == A, Q orthogonal.
  const auto qr = Values<float>(out[0]), q = Values<float>(out[1]);
  for (int i = 0; i < 4; ++i) {
    for (int j = 0; j < 4; ++j) {
      double rec = 0, qtq = 0;
      for (int k = 0; k <= j; ++k) rec += q[static_cast<size_t>(i * 4 + k)] * qr[static_cast<size_t>(k * 4 + j)];
      for (int k = 0; k < 4; ++k) qtq += q[static_cast<size_t>(k * 4 + i)] * q[static_cast<size_t>(k * 4 + j)];
      EXPECT_NEAR(rec, a[static_cast<size_t>(i * 4 + j)], 1e-5) << i << "," << j;
      EXPECT_NEAR(qtq, i == j ? 1.0 : 0.0, 1e-5) << i << "," << j;
    }
  }
  // Eigenvalues ascending; S v = lambda v for each column.
  ExpectNear(Values<float>(out[3]), {-2, 1, 3, 5}, 1e-5, "eigenvalues");
  const auto v = Values<float>(out[2]), w = Values<float>(out[3]);
  for (int col = 0; col < 4; ++col) {
    for (int i = 0; i < 4; ++i) {
      double sv = 0;
      for (int k = 0; k < 4; ++k) sv += s[static_cast<size_t>(i * 4 + k)] * v[static_cast<size_t>(k * 4 + col)];
      EXPECT_NEAR(sv, w[static_cast<size_t>(col)] * v[static_cast<size_t>(i * 4 + col)], 1e-5);
    }
  }
  // Singular values of a symmetric matrix: |eigenvalues|, descending; and
  // U diag(s) Vt == S.
  ExpectNear(Values<float>(out[4]), {5, 3, 2, 1}, 1e-5, "singular values");
  const auto sv = Values<float>(out[4]), u = Values<float>(out[5]), vt = Values<float>(out[6]);
  for (int i = 0; i < 4; ++i) {
    for (int j = 0; j < 4; ++j) {
      double rec = 0;
      for (int k = 0; k < 4; ++k) {
        rec += u[static_cast<size_t>(i * 4 + k)] * sv[static_cast<size_t>(k)] * vt[static_cast<size_t>(k * 4 + j)];
      }
      EXPECT_NEAR(rec, s[static_cast<size_t>(i * 4 + j)], 1e-5) << i << "," << j;
    }
  }
}

// XLA's Qr and ProductOfElementaryHouseholderReflectors targets, what JAX
// lowers jnp.linalg.qr to on a plugin platform: a batch of tall matrices
// (f32) and a square one (f64, the other element type) factor into Q R == A
// with orthonormal columns of Q and R upper triangular.
TEST(CpuLinalg, XlaQrTargets) {
  const std::string text = R"(func.func @main(%a: tensor<2x5x3xf32>, %b: tensor<3x3xf64>)
    -> (tensor<2x5x3xf32>, tensor<2x5x3xf32>, tensor<3x3xf64>, tensor<3x3xf64>) {
  %0:2 = stablehlo.custom_call @Qr(%a) {backend_config = ""} : (tensor<2x5x3xf32>) -> (tensor<2x5x3xf32>, tensor<2x3xf32>)
  %1 = stablehlo.custom_call @ProductOfElementaryHouseholderReflectors(%0#0, %0#1) {backend_config = ""} : (tensor<2x5x3xf32>, tensor<2x3xf32>) -> tensor<2x5x3xf32>
  %2:2 = stablehlo.custom_call @Qr(%b) {backend_config = ""} : (tensor<3x3xf64>) -> (tensor<3x3xf64>, tensor<3xf64>)
  %3 = stablehlo.custom_call @ProductOfElementaryHouseholderReflectors(%2#0, %2#1) {backend_config = ""} : (tensor<3x3xf64>, tensor<3xf64>) -> tensor<3x3xf64>
  return %0#0, %1, %2#0, %3 : tensor<2x5x3xf32>, tensor<2x5x3xf32>, tensor<3x3xf64>, tensor<3x3xf64>
})";
  std::vector<float> a(30);
  for (size_t i = 0; i < a.size(); ++i) a[i] = static_cast<float>((i * 7) % 11) - 5.0f;
  const std::vector<double> b = {4, 1, -2, 1, 3, 0, -2, 0, 5};
  auto out = RunProgram(text, {Make(E::kF32, {2, 5, 3}, a), Make(E::kF64, {3, 3}, b)});
  ASSERT_EQ(out.size(), 4u);
  // packed: R in and above the diagonal of each m x n matrix; q: m x n.
  auto check = [](const auto& packed, const auto& q, const auto& want, int64_t batch, int64_t m, int64_t n,
                   double tol) {
    for (int64_t e = 0; e < batch; ++e) {
      auto at = [&](const auto& v, int64_t i, int64_t j) { return static_cast<double>(v[e * m * n + i * n + j]); };
      for (int64_t i = 0; i < m; ++i) {
        for (int64_t j = 0; j < n; ++j) {
          double rec = 0;
          for (int64_t k = 0; k <= std::min(j, n - 1); ++k) rec += at(q, i, k) * at(packed, k, j);
          EXPECT_NEAR(rec, at(want, i, j), tol) << "Q R, batch " << e << " at " << i << "," << j;
        }
      }
      for (int64_t i = 0; i < n; ++i) {
        for (int64_t j = 0; j < n; ++j) {
          double qtq = 0;
          for (int64_t k = 0; k < m; ++k) qtq += at(q, k, i) * at(q, k, j);
          EXPECT_NEAR(qtq, i == j ? 1.0 : 0.0, tol) << "Q^T Q, batch " << e << " at " << i << "," << j;
        }
      }
    }
  };
  check(Values<float>(out[0]), Values<float>(out[1]), a, 2, 5, 3, 1e-4);
  check(Values<double>(out[2]), Values<double>(out[3]), b, 1, 3, 3, 1e-12);
}

TEST(CpuLinalg, XlaQrRejectsIntegers) {
  const std::string text = R"(func.func @main(%a: tensor<2x2xi32>) -> tensor<2x2xi32> {
  %0:2 = stablehlo.custom_call @Qr(%a) {backend_config = ""} : (tensor<2x2xi32>) -> (tensor<2x2xi32>, tensor<2xi32>)
  return %0#0 : tensor<2x2xi32>
})";
  EXPECT_TRUE(testing::HasSubstr(RunError(text, {Make<int32_t>(E::kI32, {2, 2}, {1, 0, 0, 1})}), "expects f32"));
}

TEST(CpuLinalg, LapackRejectsRowMajorLayouts) {
  const std::string text = R"(func.func @main(%a: tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<i32>) {
  %0:2 = stablehlo.custom_call @lapack_spotrf_ffi(%a) {mhlo.backend_config = {uplo = 76 : ui8}, operand_layouts = [dense<[1, 0]> : tensor<2xindex>], result_layouts = [dense<[0, 1]> : tensor<2xindex>, dense<> : tensor<0xindex>]} : (tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<i32>)
  return %0#0, %0#1 : tensor<2x2xf32>, tensor<i32>
})";
  EXPECT_TRUE(testing::HasSubstr(RunError(text, {Make<float>(E::kF32, {2, 2}, {1, 0, 0, 1})}), "operand_layouts"));
}

}  // namespace
}  // namespace hlograph
