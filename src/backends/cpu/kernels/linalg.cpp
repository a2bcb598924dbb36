// dot and dot_general, the GEMM they share with the convolution, and the
// registration of every linear-algebra kernel (conv.cpp, fft.cpp,
// linalg_factor.cpp).
//
// A dot_general is brought to [batch, M, K] x [batch, K, N] -> [batch, M, N]
// (result dims are batch, lhs free, rhs free in that order, so the result
// needs no permutation). Operands already in that order, or in its
// transposed form, go to the BLAS without a copy.
#include <cstring>  // element_types.h uses std::memcpy
#include <cblas.h>

#include <algorithm>
#include <climits>
#include <numeric>

#include "backends/cpu/kernel_util.h"
#include "backends/cpu/kernels/linalg_internal.h"
#include "ir/attribute.h"
#include "ir/dot_dims.h"

namespace hlograph::cpu {
namespace linalg {

void FixSubByteIntegers(Tensor& t) {
  using E = ir::ElementType;
  const E e = t.element();
  if (e != E::kI2 && e != E::kI4 && e != E::kU2 && e != E::kU4) return;
  const int64_t n = t.num_elements();
  if (ir::IsSignedInteger(e)) {
    int8_t* p = t.mutable_data<int8_t>();
    for (int64_t i = 0; i < n; ++i) p[i] = static_cast<int8_t>(WrapInteger(p[i], e));
  } else {
    uint8_t* p = t.mutable_data<uint8_t>();
    for (int64_t i = 0; i < n; ++i) p[i] = static_cast<uint8_t>(WrapInteger(p[i], e));
  }
}

namespace {

bool FitsBlasInt(std::initializer_list<int64_t> values) {
  for (int64_t v : values) {
    if (v > INT_MAX) return false;
  }
  return true;
}

// The portable GEMM: integers (wrapping) and anything too large for the
// BLAS's 32-bit sizes.
template <typename A>
void GemmLoop(int64_t m, int64_t n, int64_t k, const A* a, int64_t lda, bool trans_a, const A* b, int64_t ldb,
              bool trans_b, A* c, int64_t ldc) {
  std::vector<A> a_copy;
  if (trans_a) {
    a_copy.resize(static_cast<size_t>(m * k));
    for (int64_t p = 0; p < k; ++p) {
      for (int64_t i = 0; i < m; ++i) a_copy[static_cast<size_t>(i * k + p)] = a[p * lda + i];
    }
    a = a_copy.data();
    lda = k;
  }
  for (int64_t i = 0; i < m; ++i) {
    A* crow = c + i * ldc;
    const A* arow = a + i * lda;
    if (trans_b) {
      // Row j of b holds column j of op(b): dot products of contiguous rows.
      for (int64_t j = 0; j < n; ++j) {
        const A* brow = b + j * ldb;
        A s{};
        for (int64_t p = 0; p < k; ++p) s += arow[p] * brow[p];
        crow[j] = s;
      }
    } else {
      std::fill(crow, crow + n, A{});
      for (int64_t p = 0; p < k; ++p) {
        const A av = arow[p];
        // Skipping zeros is only exact for integers (0 * inf is NaN).
        if constexpr (std::is_same_v<A, uint64_t>) {
          if (av == 0) continue;
        }
        const A* brow = b + p * ldb;
        for (int64_t j = 0; j < n; ++j) crow[j] += av * brow[j];
      }
    }
  }
}

}  // namespace

template <typename A>
void Gemm(int64_t m, int64_t n, int64_t k, const A* a, int64_t lda, bool trans_a, const A* b, int64_t ldb,
          bool trans_b, A* c, int64_t ldc) {
  if (m == 0 || n == 0) return;
  if (k == 0) {
    for (int64_t i = 0; i < m; ++i) std::fill(c + i * ldc, c + i * ldc + n, A{});
    return;
  }
  constexpr bool kBlas = std::is_same_v<A, float> || std::is_same_v<A, double> || kIsComplex<A>;
  if constexpr (kBlas) {
    if (FitsBlasInt({m, n, k, lda, ldb, ldc})) {
      const auto ta = trans_a ? CblasTrans : CblasNoTrans;
      const auto tb = trans_b ? CblasTrans : CblasNoTrans;
      const int im = static_cast<int>(m), in = static_cast<int>(n), ik = static_cast<int>(k);
      const int ia = static_cast<int>(lda), ib = static_cast<int>(ldb), ic = static_cast<int>(ldc);
      if constexpr (std::is_same_v<A, float>) {
        cblas_sgemm(CblasRowMajor, ta, tb, im, in, ik, 1.0f, a, ia, b, ib, 0.0f, c, ic);
      } else if constexpr (std::is_same_v<A, double>) {
        cblas_dgemm(CblasRowMajor, ta, tb, im, in, ik, 1.0, a, ia, b, ib, 0.0, c, ic);
      } else {
        const A one(1), zero(0);
        if constexpr (std::is_same_v<A, std::complex<float>>) {
          cblas_cgemm(CblasRowMajor, ta, tb, im, in, ik, &one, a, ia, b, ib, &zero, c, ic);
        } else {
          cblas_zgemm(CblasRowMajor, ta, tb, im, in, ik, &one, a, ia, b, ib, &zero, c, ic);
        }
      }
      return;
    }
  }
  GemmLoop(m, n, k, a, lda, trans_a, b, ldb, trans_b, c, ldc);
}

template void Gemm<float>(int64_t, int64_t, int64_t, const float*, int64_t, bool, const float*, int64_t, bool, float*,
                          int64_t);
template void Gemm<double>(int64_t, int64_t, int64_t, const double*, int64_t, bool, const double*, int64_t, bool,
                           double*, int64_t);
template void Gemm<std::complex<float>>(int64_t, int64_t, int64_t, const std::complex<float>*, int64_t, bool,
                                        const std::complex<float>*, int64_t, bool, std::complex<float>*, int64_t);
template void Gemm<std::complex<double>>(int64_t, int64_t, int64_t, const std::complex<double>*, int64_t, bool,
                                         const std::complex<double>*, int64_t, bool, std::complex<double>*, int64_t);
template void Gemm<uint64_t>(int64_t, int64_t, int64_t, const uint64_t*, int64_t, bool, const uint64_t*, int64_t, bool,
                             uint64_t*, int64_t);

namespace {

int64_t Product(const std::vector<int64_t>& shape, const std::vector<int64_t>& dims) {
  int64_t p = 1;
  for (int64_t d : dims) p *= shape[static_cast<size_t>(d)];
  return p;
}


std::vector<int64_t> Concat3(const std::vector<int64_t>& a, const std::vector<int64_t>& b,
                             const std::vector<int64_t>& c) {
  std::vector<int64_t> out = a;
  out.insert(out.end(), b.begin(), b.end());
  out.insert(out.end(), c.begin(), c.end());
  return out;
}

bool IsIdentity(const std::vector<int64_t>& perm) {
  for (size_t i = 0; i < perm.size(); ++i) {
    if (perm[i] != static_cast<int64_t>(i)) return false;
  }
  return true;
}

// One operand as a batch of row-major matrices of accumulator type A: either
// the tensor's own bytes (when its type is A and its dims are already in
// order, possibly transposed) or a converted, permuted copy.
template <typename A>
struct MatrixOperand {
  std::vector<A> storage;
  const A* data = nullptr;
  bool transposed = false;  // stored as cols x rows
};

template <typename A>
MatrixOperand<A> PrepareOperand(const Tensor& t, const std::vector<int64_t>& normal,
                                const std::vector<int64_t>& transposed) {
  MatrixOperand<A> m;
  const bool same_type = DispatchElementType(t.element(), [](auto tag) {
    return std::is_same_v<typename decltype(tag)::type, A>;
  });
  if (same_type && IsIdentity(normal)) {
    m.data = t.data<A>();
  } else if (same_type && IsIdentity(transposed)) {
    m.data = t.data<A>();
    m.transposed = true;
  } else {
    m.storage = GatherAs<A>(t, normal);
    m.data = m.storage.data();
  }
  return m;
}

struct DotDims {
  std::vector<int64_t> lhs_batch, rhs_batch, lhs_contract, rhs_contract;
};

Status DotGeneralImpl(KernelContext& ctx, const DotDims& dims) {
  const Tensor& lhs = ctx.operand(0);
  const Tensor& rhs = ctx.operand(1);
  Tensor result(ctx.result_type(0));
  const std::vector<int64_t> lhs_free = ir::DotFreeDims(lhs.rank(), dims.lhs_batch, dims.lhs_contract);
  const std::vector<int64_t> rhs_free = ir::DotFreeDims(rhs.rank(), dims.rhs_batch, dims.rhs_contract);
  const int64_t batch = Product(lhs.shape(), dims.lhs_batch);
  const int64_t m = Product(lhs.shape(), lhs_free);
  const int64_t k = Product(lhs.shape(), dims.lhs_contract);
  const int64_t n = Product(rhs.shape(), rhs_free);
  if (k != Product(rhs.shape(), dims.rhs_contract) || batch != Product(rhs.shape(), dims.rhs_batch) ||
      result.num_elements() != batch * m * n) {
    return ctx.Error("operand and result shapes do not agree with dot_dimension_numbers");
  }
  // A zero-sized contraction leaves the zero-filled result as it is.
  if (result.num_elements() == 0 || k == 0) {
    ctx.results.push_back(std::move(result));
    return Status::Ok();
  }
  DispatchAcc(AccKindFor(result.element()), [&](auto acc_tag) {
    using A = typename decltype(acc_tag)::type;
    const MatrixOperand<A> a = PrepareOperand<A>(lhs, Concat3(dims.lhs_batch, lhs_free, dims.lhs_contract),
                                                 Concat3(dims.lhs_batch, dims.lhs_contract, lhs_free));
    const MatrixOperand<A> b = PrepareOperand<A>(rhs, Concat3(dims.rhs_batch, dims.rhs_contract, rhs_free),
                                                 Concat3(dims.rhs_batch, rhs_free, dims.rhs_contract));
    const bool direct = DispatchElementType(result.element(), [](auto tag) {
      return std::is_same_v<typename decltype(tag)::type, A>;
    });
    std::vector<A> c_storage;
    A* c = nullptr;
    if (direct) {
      c = result.mutable_data<A>();
    } else {
      c_storage.resize(static_cast<size_t>(batch * m * n));
      c = c_storage.data();
    }
    const int64_t lda = a.transposed ? m : k;
    const int64_t ldb = b.transposed ? k : n;
    for (int64_t i = 0; i < batch; ++i) {
      Gemm<A>(m, n, k, a.data + i * m * k, lda, a.transposed, b.data + i * k * n, ldb, b.transposed, c + i * m * n, n);
    }
    if (!direct) ScatterFromAcc<A>(c, {batch * m * n}, {0}, result);
  });
  ctx.results.push_back(std::move(result));
  return Status::Ok();
}

Status DotGeneral(KernelContext& ctx) {
  const auto* dn = ctx.op.attr("dot_dimension_numbers").as<ir::DotDimsAttr>();
  if (!dn) return ctx.Error("requires dot_dimension_numbers");
  return DotGeneralImpl(ctx, {dn->lhs_batching, dn->rhs_batching, dn->lhs_contracting, dn->rhs_contracting});
}

// dot contracts the last dim of lhs with the first dim of rhs.
Status Dot(KernelContext& ctx) {
  const int64_t lhs_rank = ctx.operand(0).rank();
  if (lhs_rank < 1 || ctx.operand(1).rank() < 1) return ctx.Error("expects operands of rank 1 or 2");
  return DotGeneralImpl(ctx, {{}, {}, {lhs_rank - 1}, {0}});
}

}  // namespace
}  // namespace linalg

void RegisterLinalgKernels(KernelRegistry& r) {
  r.Register(ir::OpId::kDot, &linalg::Dot);
  r.Register(ir::OpId::kDotGeneral, &linalg::DotGeneral);
  linalg::RegisterConvKernels(r);
  linalg::RegisterFftKernels(r);
  linalg::RegisterFactorKernels(r);
}

}  // namespace hlograph::cpu
