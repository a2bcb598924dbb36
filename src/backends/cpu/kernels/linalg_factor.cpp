// cholesky, triangular_solve, the batch_norm family and chlo.top_k.
//
// Factorisations and normalisations compute in double (complex<double>)
// whatever the element type and round once at the end: that is at least as
// close to XLA:CPU's f32 results as recomputing its exact operation order.
#include <cstring>  // element_types.h uses std::memcpy
#include <cblas.h>

#include <algorithm>
#include <bit>
#include <climits>
#include <cmath>
#include <complex>
#include <limits>
#include <numeric>

#include "backends/cpu/kernel_util.h"
#include "backends/cpu/kernels/custom_call_targets.h"
#include "backends/cpu/kernels/linalg_internal.h"
#include "ir/float_bits.h"

namespace hlograph::cpu {
namespace linalg {
namespace {

using Z = std::complex<double>;

// The elements of a float or complex tensor as complex<double>.
std::vector<Z> LoadZ(const Tensor& t) {
  std::vector<int64_t> identity(static_cast<size_t>(t.rank()));
  std::iota(identity.begin(), identity.end(), 0);
  return GatherAs<Z>(t, identity);
}

std::vector<double> LoadD(const Tensor& t) {
  std::vector<double> out(static_cast<size_t>(t.num_elements()));
  DispatchElementType(t.element(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (kIsFloat<T>) {
      const T* p = t.data<T>();
      for (size_t i = 0; i < out.size(); ++i) out[i] = static_cast<double>(Load(p[i]));
    }
  });
  return out;
}

// Stores complex<double> values into a float or complex tensor (real part
// for real element types).
void StoreZ(const std::vector<Z>& v, Tensor& t) {
  DispatchElementType(t.element(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* p = t.mutable_data<T>();
    for (size_t i = 0; i < v.size(); ++i) {
      if constexpr (kIsComplex<T>) {
        using P = typename T::value_type;
        p[i] = T(static_cast<P>(v[i].real()), static_cast<P>(v[i].imag()));
      } else if constexpr (kIsFloat<T>) {
        p[i] = Store<T>(static_cast<ComputeType<T>>(v[i].real()));
      }
    }
  });
}

void StoreD(const std::vector<double>& v, Tensor& t) {
  DispatchElementType(t.element(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (kIsFloat<T>) {
      T* p = t.mutable_data<T>();
      for (size_t i = 0; i < v.size(); ++i) p[i] = Store<T>(static_cast<ComputeType<T>>(v[i]));
    }
  });
}

bool GetBool(const ir::Operation& op, const std::string& name, bool fallback) {
  const auto* b = op.attr(name).as<ir::BoolAttr>();
  return b ? b->value : fallback;
}

// ---------------------------------------------------------------------------
// cholesky

// Factors one n x n Hermitian matrix held in `a` (row-major), reading only
// the lower triangle (or, for `lower` = false, the upper one). Returns false
// when a pivot's square root is NaN (not positive definite).
bool CholeskyOne(const Z* a, int64_t n, bool lower, Z* out) {
  std::vector<Z> l(static_cast<size_t>(n * n), Z(0, 0));
  auto at = [&](int64_t i, int64_t j) { return lower ? a[i * n + j] : std::conj(a[j * n + i]); };  // i >= j
  for (int64_t j = 0; j < n; ++j) {
    const Z* lj = l.data() + j * n;
    double d = at(j, j).real();
    for (int64_t k = 0; k < j; ++k) d -= std::norm(lj[k]);
    const double ljj = std::sqrt(d);
    if (std::isnan(ljj)) return false;
    l[static_cast<size_t>(j * n + j)] = Z(ljj, 0);
    for (int64_t i = j + 1; i < n; ++i) {
      const Z* li = l.data() + i * n;
      Z s = at(i, j);
      for (int64_t k = 0; k < j; ++k) s -= li[k] * std::conj(lj[k]);
      l[static_cast<size_t>(i * n + j)] = s / ljj;
    }
  }
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j < n; ++j) out[i * n + j] = lower ? l[static_cast<size_t>(i * n + j)]
                                                           : std::conj(l[static_cast<size_t>(j * n + i)]);
  }
  return true;
}

// The other triangle of the result is zero; a matrix that is not positive
// definite gives all-NaN, as XLA's expansion of cholesky does.
Status Cholesky(KernelContext& ctx) {
  const Tensor& a = ctx.operand(0);
  Tensor result(ctx.result_type(0));
  const bool lower = GetBool(ctx.op, "lower", false);
  if (a.rank() < 2 || a.shape()[a.shape().size() - 1] != a.shape()[a.shape().size() - 2]) {
    return ctx.Error("expects a batch of square matrices");
  }
  const int64_t n = a.shape().back();
  if (a.num_elements() > 0) {
    const std::vector<Z> in = LoadZ(a);
    std::vector<Z> out(in.size());
    const int64_t batch = a.num_elements() / (n * n);
    const double nan = std::numeric_limits<double>::quiet_NaN();
    for (int64_t b = 0; b < batch; ++b) {
      Z* o = out.data() + b * n * n;
      if (!CholeskyOne(in.data() + b * n * n, n, lower, o)) std::fill(o, o + n * n, Z(nan, nan));
    }
    StoreZ(out, result);
  }
  ctx.results.push_back(std::move(result));
  return Status::Ok();
}

// ---------------------------------------------------------------------------
// triangular_solve

Status TriangularSolve(KernelContext& ctx) {
  const Tensor& a = ctx.operand(0);
  const Tensor& b = ctx.operand(1);
  Tensor result(ctx.result_type(0));
  const bool left = GetBool(ctx.op, "left_side", true);
  const bool lower = GetBool(ctx.op, "lower", true);
  const bool unit = GetBool(ctx.op, "unit_diagonal", false);
  const auto* t_attr = ctx.op.attr("transpose_a").as<ir::EnumAttr>();
  const std::string transpose = t_attr ? t_attr->value : "NO_TRANSPOSE";
  if (transpose != "NO_TRANSPOSE" && transpose != "TRANSPOSE" && transpose != "ADJOINT") {
    return ctx.Error("unsupported transpose_a " + transpose);
  }
  const int64_t r = a.rank();
  if (r < 2 || b.rank() != r) return ctx.Error("expects a and b of the same rank, at least 2");
  const int64_t m = a.shape()[static_cast<size_t>(r - 1)];
  const int64_t rows = b.shape()[static_cast<size_t>(r - 2)];
  const int64_t cols = b.shape()[static_cast<size_t>(r - 1)];
  if (a.shape()[static_cast<size_t>(r - 2)] != m || (left ? rows : cols) != m) {
    return ctx.Error("a must be square and match b's " + std::string(left ? "rows" : "columns"));
  }
  if (result.num_elements() > 0 && m > 0) {
    if (m > INT_MAX || rows > INT_MAX || cols > INT_MAX) return ctx.Error("matrix too large");
    const int64_t batch = b.num_elements() / (rows * cols);
    const bool complex = ir::IsComplex(a.element());
    const auto side = left ? CblasLeft : CblasRight;
    const auto uplo = lower ? CblasLower : CblasUpper;
    const auto diag = unit ? CblasUnit : CblasNonUnit;
    const auto trans = transpose == "NO_TRANSPOSE" ? CblasNoTrans
                       : (transpose == "TRANSPOSE" || !complex) ? CblasTrans
                                                                : CblasConjTrans;
    const int im = static_cast<int>(m), in_rows = static_cast<int>(rows), in_cols = static_cast<int>(cols);
    if (complex) {
      const std::vector<Z> av = LoadZ(a);
      std::vector<Z> bv = LoadZ(b);
      const Z one(1, 0);
      for (int64_t i = 0; i < batch; ++i) {
        cblas_ztrsm(CblasRowMajor, side, uplo, trans, diag, in_rows, in_cols, &one, av.data() + i * m * m, im,
                    bv.data() + i * rows * cols, in_cols);
      }
      StoreZ(bv, result);
    } else {
      const std::vector<double> av = LoadD(a);
      std::vector<double> bv = LoadD(b);
      for (int64_t i = 0; i < batch; ++i) {
        cblas_dtrsm(CblasRowMajor, side, uplo, trans, diag, in_rows, in_cols, 1.0, av.data() + i * m * m, im,
                    bv.data() + i * rows * cols, in_cols);
      }
      StoreD(bv, result);
    }
  }
  ctx.results.push_back(std::move(result));
  return Status::Ok();
}

// ---------------------------------------------------------------------------
// batch_norm_*

double FloatAttrValue(const ir::Operation& op, const std::string& name) {
  const auto* f = op.attr(name).as<ir::FloatAttr>();
  return f ? ir::FloatBitsToDouble(f->bits, f->type) : 0.0;
}

// The operand viewed as [outer, features, inner] around feature_index.
struct FeatureView {
  int64_t outer = 1, features = 1, inner = 1;
  int64_t count() const { return outer * inner; }
  int64_t Index(int64_t o, int64_t c, int64_t i) const { return (o * features + c) * inner + i; }
};

StatusOr<FeatureView> ViewOf(const KernelContext& ctx) {
  const Tensor& x = ctx.operand(0);
  const int64_t f = IntAttr(ctx.op, "feature_index", -1);
  if (f < 0 || f >= x.rank()) return ctx.Error("feature_index out of range");
  FeatureView v;
  for (int64_t d = 0; d < x.rank(); ++d) {
    const int64_t s = x.shape()[static_cast<size_t>(d)];
    if (d < f) v.outer *= s;
    if (d == f) v.features = s;
    if (d > f) v.inner *= s;
  }
  for (size_t i = 1; i < ctx.operands.size(); ++i) {
    const Tensor& t = ctx.operand(i);
    if (t.num_elements() != (t.rank() == 1 ? v.features : x.num_elements())) {
      return ctx.Error("operand " + std::to_string(i) + " does not match the operand's feature dimension");
    }
  }
  return v;
}

// Calls fn(c, index) for every element of feature c.
template <typename Fn>
void ForFeature(const FeatureView& v, int64_t c, Fn&& fn) {
  for (int64_t o = 0; o < v.outer; ++o) {
    const int64_t base = v.Index(o, c, 0);
    for (int64_t i = 0; i < v.inner; ++i) fn(base + i);
  }
}

Status BatchNormInference(KernelContext& ctx) {
  HLOGRAPH_ASSIGN(const FeatureView v, ViewOf(ctx));
  const std::vector<double> x = LoadD(ctx.operand(0)), scale = LoadD(ctx.operand(1)),
                            offset = LoadD(ctx.operand(2)), mean = LoadD(ctx.operand(3)),
                            var = LoadD(ctx.operand(4));
  const double eps = FloatAttrValue(ctx.op, "epsilon");
  std::vector<double> y(x.size());
  for (int64_t c = 0; c < v.features; ++c) {
    const size_t cu = static_cast<size_t>(c);
    const double inv = 1.0 / std::sqrt(var[cu] + eps);
    ForFeature(v, c, [&](int64_t i) {
      const size_t iu = static_cast<size_t>(i);
      y[iu] = (x[iu] - mean[cu]) * inv * scale[cu] + offset[cu];
    });
  }
  Tensor out(ctx.result_type(0));
  StoreD(y, out);
  ctx.results.push_back(std::move(out));
  return Status::Ok();
}

// Mean and biased variance of each feature.
void Moments(const FeatureView& v, const std::vector<double>& x, std::vector<double>& mean, std::vector<double>& var) {
  mean.assign(static_cast<size_t>(v.features), 0.0);
  var.assign(static_cast<size_t>(v.features), 0.0);
  const double n = static_cast<double>(v.count());
  for (int64_t c = 0; c < v.features; ++c) {
    const size_t cu = static_cast<size_t>(c);
    double s = 0;
    ForFeature(v, c, [&](int64_t i) { s += x[static_cast<size_t>(i)]; });
    mean[cu] = s / n;
    double q = 0;
    ForFeature(v, c, [&](int64_t i) {
      const double d = x[static_cast<size_t>(i)] - mean[cu];
      q += d * d;
    });
    var[cu] = q / n;
  }
}

Status BatchNormTraining(KernelContext& ctx) {
  HLOGRAPH_ASSIGN(const FeatureView v, ViewOf(ctx));
  const std::vector<double> x = LoadD(ctx.operand(0)), scale = LoadD(ctx.operand(1)),
                            offset = LoadD(ctx.operand(2));
  const double eps = FloatAttrValue(ctx.op, "epsilon");
  std::vector<double> mean, var;
  Moments(v, x, mean, var);
  std::vector<double> y(x.size());
  for (int64_t c = 0; c < v.features; ++c) {
    const size_t cu = static_cast<size_t>(c);
    const double inv = 1.0 / std::sqrt(var[cu] + eps);
    ForFeature(v, c, [&](int64_t i) {
      const size_t iu = static_cast<size_t>(i);
      y[iu] = (x[iu] - mean[cu]) * inv * scale[cu] + offset[cu];
    });
  }
  Tensor out(ctx.result_type(0)), out_mean(ctx.result_type(1)), out_var(ctx.result_type(2));
  StoreD(y, out);
  StoreD(mean, out_mean);
  StoreD(var, out_var);
  ctx.results.push_back(std::move(out));
  ctx.results.push_back(std::move(out_mean));
  ctx.results.push_back(std::move(out_var));
  return Status::Ok();
}

// The spec's decomposition:
//   grad_operand = scale / stddev / N * (N * dy - sum(dy) - xc * sum(dy * xc) / (var + eps))
//   grad_scale = sum(dy * xc / stddev), grad_offset = sum(dy).
Status BatchNormGrad(KernelContext& ctx) {
  HLOGRAPH_ASSIGN(const FeatureView v, ViewOf(ctx));
  const std::vector<double> x = LoadD(ctx.operand(0)), scale = LoadD(ctx.operand(1)), mean = LoadD(ctx.operand(2)),
                            var = LoadD(ctx.operand(3)), dy = LoadD(ctx.operand(4));
  const double eps = FloatAttrValue(ctx.op, "epsilon");
  const double n = static_cast<double>(v.count());
  std::vector<double> dx(x.size()), dscale(static_cast<size_t>(v.features)), doffset(static_cast<size_t>(v.features));
  for (int64_t c = 0; c < v.features; ++c) {
    const size_t cu = static_cast<size_t>(c);
    const double ve = var[cu] + eps;
    const double stddev = std::sqrt(ve);
    double sum_dy = 0, sum_dy_xc = 0;
    ForFeature(v, c, [&](int64_t i) {
      const size_t iu = static_cast<size_t>(i);
      sum_dy += dy[iu];
      sum_dy_xc += dy[iu] * (x[iu] - mean[cu]);
    });
    ForFeature(v, c, [&](int64_t i) {
      const size_t iu = static_cast<size_t>(i);
      const double xc = x[iu] - mean[cu];
      dx[iu] = scale[cu] / stddev / n * (dy[iu] * n - sum_dy - xc * (sum_dy_xc / ve));
    });
    dscale[cu] = sum_dy_xc / stddev;
    doffset[cu] = sum_dy;
  }
  Tensor g(ctx.result_type(0)), gs(ctx.result_type(1)), go(ctx.result_type(2));
  StoreD(dx, g);
  StoreD(dscale, gs);
  StoreD(doffset, go);
  ctx.results.push_back(std::move(g));
  ctx.results.push_back(std::move(gs));
  ctx.results.push_back(std::move(go));
  return Status::Ok();
}

// ---------------------------------------------------------------------------
// top_k

// Floats order by IEEE total order (-NaN < -inf < ... < -0 < +0 < ... < +inf
// < +NaN), integers by value.
template <typename T>
auto SortKey(T v) {
  if constexpr (std::is_integral_v<T>) {
    return v;
  } else {
    const int64_t bits = std::bit_cast<int64_t>(static_cast<double>(Load(v)));
    return bits < 0 ? bits ^ std::numeric_limits<int64_t>::max() : bits;
  }
}

template <typename T>
void TopKRows(const Tensor& x, int64_t k, bool largest, Tensor& values, Tensor& indices) {
  const int64_t n = x.shape().back();
  const int64_t rows = n == 0 ? 0 : x.num_elements() / n;
  const T* src = x.data<T>();
  T* vals = values.mutable_data<T>();
  int32_t* idx = indices.mutable_data<int32_t>();
  using Key = decltype(SortKey(T{}));
  std::vector<Key> keys(static_cast<size_t>(n));
  std::vector<int32_t> order(static_cast<size_t>(n));
  for (int64_t r = 0; r < rows; ++r) {
    const T* row = src + r * n;
    for (int64_t i = 0; i < n; ++i) keys[static_cast<size_t>(i)] = SortKey(row[i]);
    std::iota(order.begin(), order.end(), 0);
    // Ties go to the lower index, so the order is strict and total.
    auto before = [&](int32_t a, int32_t b) {
      const Key ka = keys[static_cast<size_t>(a)], kb = keys[static_cast<size_t>(b)];
      if (ka != kb) return largest ? ka > kb : ka < kb;
      return a < b;
    };
    std::partial_sort(order.begin(), order.begin() + k, order.end(), before);
    for (int64_t j = 0; j < k; ++j) {
      vals[r * k + j] = row[order[static_cast<size_t>(j)]];
      idx[r * k + j] = order[static_cast<size_t>(j)];
    }
  }
}

}  // namespace

void RegisterFactorKernels(KernelRegistry& r) {
  r.Register(ir::OpId::kCholesky, &Cholesky);
  r.Register(ir::OpId::kTriangularSolve, &TriangularSolve);
  r.Register(ir::OpId::kBatchNormInference, &BatchNormInference);
  r.Register(ir::OpId::kBatchNormTraining, &BatchNormTraining);
  r.Register(ir::OpId::kBatchNormGrad, &BatchNormGrad);
  r.Register(ir::OpId::kChloTopK, &TopK);
}

}  // namespace linalg

// k comes from the `k` attribute (chlo.top_k) or, for the mhlo.topk custom
// call, from its mhlo.attributes dictionary, which may also ask for the
// smallest values (largest = false).
Status TopK(KernelContext& ctx) {
  int64_t k = IntAttr(ctx.op, "k", -1);
  bool largest = true;
  if (const auto* dict = ctx.op.attr("mhlo.attributes").as<ir::DictionaryAttr>()) {
    if (const ir::Attribute* a = ir::FindEntry(*dict, "k")) {
      if (const auto* i = a->as<ir::IntegerAttr>()) k = i->value;
    }
    if (const ir::Attribute* a = ir::FindEntry(*dict, "largest")) {
      if (const auto* b = a->as<ir::BoolAttr>()) largest = b->value;
    }
  }
  if (ctx.operands.size() != 1 || ctx.op.num_results() != 2) return ctx.Error("expects one operand and two results");
  const Tensor& x = ctx.operand(0);
  if (x.rank() < 1) return ctx.Error("expects an operand of rank at least 1");
  if (k < 0 || k > x.shape().back()) {
    return ctx.Error("k = " + std::to_string(k) + " is out of range for " + x.type().ToString());
  }
  Tensor values(ctx.result_type(0)), indices(ctx.result_type(1));
  std::vector<int64_t> shape = x.shape();
  shape.back() = k;
  if (values.shape() != shape || indices.shape() != shape || values.element() != x.element() ||
      indices.element() != ir::ElementType::kI32) {
    return ctx.Error("expects results of shape [..., k]: the operand's element type and i32");
  }
  if (x.shape().back() > std::numeric_limits<int32_t>::max()) return ctx.Error("the last dimension is too large");
  Status status = Status::Ok();
  DispatchElementType(x.element(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (kIsComplex<T>) {
      status = ctx.Error("top_k does not order complex numbers");
    } else {
      linalg::TopKRows<T>(x, k, largest, values, indices);
    }
  });
  HLOGRAPH_TRY(status);
  ctx.results.push_back(std::move(values));
  ctx.results.push_back(std::move(indices));
  return Status::Ok();
}

}  // namespace hlograph::cpu
