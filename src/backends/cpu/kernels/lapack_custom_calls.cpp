// jaxlib's LAPACK FFI custom-call targets (lapack_<t><routine>_ffi, t in
// s/d/c/z): potrf, trsm, getrf, geqrf, geqp3, orgqr/ungqr, syevd/heevd,
// gesdd, gesvd and geev; and XLA's Qr and
// ProductOfElementaryHouseholderReflectors, as geqrf and orgqr/ungqr.
//
// XLA:CPU runs these targets by calling LAPACK, so they call the LAPACK that
// ships inside OpenBLAS (trsm: its CBLAS): the same routines, hence the
// same pivot choices and eigenvector/singular-vector sign conventions. The
// LAPACK symbols are weak so that a BLAS without LAPACK still links; the
// kernels then report that LAPACK is missing.
//
// Layouts: jaxlib declares every matrix operand and result column-major with
// the batch dims major ({r-2, r-1, r-3, ..., 0} minor to major), which makes
// the logical matrix the one LAPACK sees; the kernels copy each batch
// element to a column-major buffer and back. Other layouts are rejected.
// Outputs and operand aliasing (output_operand_aliases) carry no meaning
// here: every result is a new tensor.
#include <cstring>  // element_types.h uses std::memcpy
#include <cblas.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <string>
#include <type_traits>

#include "backends/cpu/kernel_util.h"
#include "backends/cpu/kernels/custom_call_targets.h"
#include "ir/linalg_targets.h"
#include "backends/cpu/kernels/linalg_internal.h"
#include "ir/attribute.h"
#include "ir/verify/verify_util.h"

#if defined(OPENBLAS_USE64BITINT)
using LapackInt = int64_t;
#else
using LapackInt = int32_t;
#endif
using Cf = std::complex<float>;
using Cd = std::complex<double>;
// Fortran's hidden lengths of CHARACTER arguments, passed as 1.
using FLen = size_t;

#define HLOGRAPH_WEAK __attribute__((weak))

extern "C" {
// Cholesky.
void spotrf_(const char*, const LapackInt*, float*, const LapackInt*, LapackInt*, FLen) HLOGRAPH_WEAK;
void dpotrf_(const char*, const LapackInt*, double*, const LapackInt*, LapackInt*, FLen) HLOGRAPH_WEAK;
void cpotrf_(const char*, const LapackInt*, Cf*, const LapackInt*, LapackInt*, FLen) HLOGRAPH_WEAK;
void zpotrf_(const char*, const LapackInt*, Cd*, const LapackInt*, LapackInt*, FLen) HLOGRAPH_WEAK;
// LU with partial pivoting.
void sgetrf_(const LapackInt*, const LapackInt*, float*, const LapackInt*, LapackInt*, LapackInt*) HLOGRAPH_WEAK;
void dgetrf_(const LapackInt*, const LapackInt*, double*, const LapackInt*, LapackInt*, LapackInt*) HLOGRAPH_WEAK;
void cgetrf_(const LapackInt*, const LapackInt*, Cf*, const LapackInt*, LapackInt*, LapackInt*) HLOGRAPH_WEAK;
void zgetrf_(const LapackInt*, const LapackInt*, Cd*, const LapackInt*, LapackInt*, LapackInt*) HLOGRAPH_WEAK;
// Householder QR.
#define HLOGRAPH_GEQRF(name, T) \
  void name(const LapackInt*, const LapackInt*, T*, const LapackInt*, T*, T*, const LapackInt*, LapackInt*) HLOGRAPH_WEAK;
HLOGRAPH_GEQRF(sgeqrf_, float)
HLOGRAPH_GEQRF(dgeqrf_, double)
HLOGRAPH_GEQRF(cgeqrf_, Cf)
HLOGRAPH_GEQRF(zgeqrf_, Cd)
// QR with column pivoting.
void sgeqp3_(const LapackInt*, const LapackInt*, float*, const LapackInt*, LapackInt*, float*, float*,
             const LapackInt*, LapackInt*) HLOGRAPH_WEAK;
void dgeqp3_(const LapackInt*, const LapackInt*, double*, const LapackInt*, LapackInt*, double*, double*,
             const LapackInt*, LapackInt*) HLOGRAPH_WEAK;
void cgeqp3_(const LapackInt*, const LapackInt*, Cf*, const LapackInt*, LapackInt*, Cf*, Cf*, const LapackInt*,
             float*, LapackInt*) HLOGRAPH_WEAK;
void zgeqp3_(const LapackInt*, const LapackInt*, Cd*, const LapackInt*, LapackInt*, Cd*, Cd*, const LapackInt*,
             double*, LapackInt*) HLOGRAPH_WEAK;
// Q of a QR factorisation.
#define HLOGRAPH_ORGQR(name, T)                                                                                   \
  void name(const LapackInt*, const LapackInt*, const LapackInt*, T*, const LapackInt*, const T*, T*,            \
            const LapackInt*, LapackInt*) HLOGRAPH_WEAK;
HLOGRAPH_ORGQR(sorgqr_, float)
HLOGRAPH_ORGQR(dorgqr_, double)
HLOGRAPH_ORGQR(cungqr_, Cf)
HLOGRAPH_ORGQR(zungqr_, Cd)
// Symmetric / Hermitian eigendecomposition (divide and conquer).
void ssyevd_(const char*, const char*, const LapackInt*, float*, const LapackInt*, float*, float*, const LapackInt*,
             LapackInt*, const LapackInt*, LapackInt*, FLen, FLen) HLOGRAPH_WEAK;
void dsyevd_(const char*, const char*, const LapackInt*, double*, const LapackInt*, double*, double*,
             const LapackInt*, LapackInt*, const LapackInt*, LapackInt*, FLen, FLen) HLOGRAPH_WEAK;
void cheevd_(const char*, const char*, const LapackInt*, Cf*, const LapackInt*, float*, Cf*, const LapackInt*, float*,
             const LapackInt*, LapackInt*, const LapackInt*, LapackInt*, FLen, FLen) HLOGRAPH_WEAK;
void zheevd_(const char*, const char*, const LapackInt*, Cd*, const LapackInt*, double*, Cd*, const LapackInt*,
             double*, const LapackInt*, LapackInt*, const LapackInt*, LapackInt*, FLen, FLen) HLOGRAPH_WEAK;
// SVD (divide and conquer).
void sgesdd_(const char*, const LapackInt*, const LapackInt*, float*, const LapackInt*, float*, float*,
             const LapackInt*, float*, const LapackInt*, float*, const LapackInt*, LapackInt*, LapackInt*,
             FLen) HLOGRAPH_WEAK;
void dgesdd_(const char*, const LapackInt*, const LapackInt*, double*, const LapackInt*, double*, double*,
             const LapackInt*, double*, const LapackInt*, double*, const LapackInt*, LapackInt*, LapackInt*,
             FLen) HLOGRAPH_WEAK;
void cgesdd_(const char*, const LapackInt*, const LapackInt*, Cf*, const LapackInt*, float*, Cf*, const LapackInt*,
             Cf*, const LapackInt*, Cf*, const LapackInt*, float*, LapackInt*, LapackInt*, FLen) HLOGRAPH_WEAK;
void zgesdd_(const char*, const LapackInt*, const LapackInt*, Cd*, const LapackInt*, double*, Cd*, const LapackInt*,
             Cd*, const LapackInt*, Cd*, const LapackInt*, double*, LapackInt*, LapackInt*, FLen) HLOGRAPH_WEAK;
// SVD (QR iteration).
void sgesvd_(const char*, const char*, const LapackInt*, const LapackInt*, float*, const LapackInt*, float*, float*,
             const LapackInt*, float*, const LapackInt*, float*, const LapackInt*, LapackInt*, FLen,
             FLen) HLOGRAPH_WEAK;
void dgesvd_(const char*, const char*, const LapackInt*, const LapackInt*, double*, const LapackInt*, double*,
             double*, const LapackInt*, double*, const LapackInt*, double*, const LapackInt*, LapackInt*, FLen,
             FLen) HLOGRAPH_WEAK;
void cgesvd_(const char*, const char*, const LapackInt*, const LapackInt*, Cf*, const LapackInt*, float*, Cf*,
             const LapackInt*, Cf*, const LapackInt*, Cf*, const LapackInt*, float*, LapackInt*, FLen,
             FLen) HLOGRAPH_WEAK;
void zgesvd_(const char*, const char*, const LapackInt*, const LapackInt*, Cd*, const LapackInt*, double*, Cd*,
             const LapackInt*, Cd*, const LapackInt*, Cd*, const LapackInt*, double*, LapackInt*, FLen,
             FLen) HLOGRAPH_WEAK;
// General eigendecomposition.
void sgeev_(const char*, const char*, const LapackInt*, float*, const LapackInt*, float*, float*, float*,
            const LapackInt*, float*, const LapackInt*, float*, const LapackInt*, LapackInt*, FLen, FLen) HLOGRAPH_WEAK;
void dgeev_(const char*, const char*, const LapackInt*, double*, const LapackInt*, double*, double*, double*,
            const LapackInt*, double*, const LapackInt*, double*, const LapackInt*, LapackInt*, FLen,
            FLen) HLOGRAPH_WEAK;
void cgeev_(const char*, const char*, const LapackInt*, Cf*, const LapackInt*, Cf*, Cf*, const LapackInt*, Cf*,
            const LapackInt*, Cf*, const LapackInt*, float*, LapackInt*, FLen, FLen) HLOGRAPH_WEAK;
void zgeev_(const char*, const char*, const LapackInt*, Cd*, const LapackInt*, Cd*, Cd*, const LapackInt*, Cd*,
            const LapackInt*, Cd*, const LapackInt*, double*, LapackInt*, FLen, FLen) HLOGRAPH_WEAK;
}


namespace hlograph::cpu {
namespace {

template <typename T>
struct RealOfT {
  using type = T;
};
template <typename P>
struct RealOfT<std::complex<P>> {
  using type = P;
};
template <typename T>
using RealOf = typename RealOfT<T>::type;

template <typename T>
constexpr ir::ElementType ElementOf() {
  if constexpr (std::is_same_v<T, float>) {
    return ir::ElementType::kF32;
  } else if constexpr (std::is_same_v<T, double>) {
    return ir::ElementType::kF64;
  } else if constexpr (std::is_same_v<T, Cf>) {
    return ir::ElementType::kC64;
  } else {
    return ir::ElementType::kC128;
  }
}

// The routine of T's precision among the four.
template <typename T, typename S, typename D, typename C, typename Z>
auto Pick(S s, D d, C c, Z z) {
  if constexpr (std::is_same_v<T, float>) {
    return s;
  } else if constexpr (std::is_same_v<T, double>) {
    return d;
  } else if constexpr (std::is_same_v<T, Cf>) {
    return c;
  } else {
    return z;
  }
}

Status Missing(const KernelContext& ctx, const char* routine) {
  return ctx.Error(std::string("needs LAPACK's ") + routine + ", which the linked BLAS library does not provide");
}

// A character code ('L', 'N', 'V', ...) from mhlo.backend_config.
char ConfigChar(const ir::Operation& op, const std::string& name, char fallback) {
  const auto* dict = op.attr("mhlo.backend_config").as<ir::DictionaryAttr>();
  if (!dict) return fallback;
  const ir::Attribute* a = ir::FindEntry(*dict, name);
  const auto* i = a ? a->as<ir::IntegerAttr>() : nullptr;
  return i ? static_cast<char>(i->value) : fallback;
}

std::vector<int64_t> ExpectedLayout(int64_t rank, bool matrix) {
  std::vector<int64_t> layout;
  if (matrix && rank >= 2) {
    layout = {rank - 2, rank - 1};
    for (int64_t d = rank - 3; d >= 0; --d) layout.push_back(d);
  } else {
    for (int64_t d = rank - 1; d >= 0; --d) layout.push_back(d);
  }
  return layout;
}

Status CheckLayouts(const KernelContext& ctx, const char* attr, const std::vector<ir::Type>& types,
                    const std::vector<bool>& matrix) {
  const auto* list = ctx.op.attr(attr).as<ir::ArrayAttr>();
  if (!list) return Status::Ok();
  for (size_t i = 0; i < list->elements.size() && i < types.size() && i < matrix.size(); ++i) {
    const auto* dense = list->elements[i].as<ir::DenseElementsAttr>();
    const auto values = dense ? ir::verify::IntElements(*dense) : std::nullopt;
    const std::vector<int64_t> want = ExpectedLayout(types[i].rank(), matrix[i]);
    if (!values || *values != want) {
      return ctx.Error(std::string(attr) + " entry " + std::to_string(i) + " is not the layout " +
                       ir::verify::DimsStr(want) + (matrix[i] ? " (column-major matrices, batch dims major)" : "") +
                       ", the only one supported");
    }
  }
  return Status::Ok();
}

Status CheckAllLayouts(const KernelContext& ctx, const std::vector<bool>& operand_matrix,
                       const std::vector<bool>& result_matrix) {
  HLOGRAPH_TRY(CheckLayouts(ctx, "operand_layouts", ctx.op.OperandTypes(), operand_matrix));
  return CheckLayouts(ctx, "result_layouts", ctx.op.ResultTypes(), result_matrix);
}

Status ExpectCounts(const KernelContext& ctx, size_t operands, size_t results) {
  if (ctx.operands.size() != operands || ctx.op.num_results() != results) {
    return ctx.Error("expects " + std::to_string(operands) + " operands and " + std::to_string(results) +
                     " results");
  }
  return Status::Ok();
}

Status ExpectResult(const KernelContext& ctx, size_t i, ir::ElementType e, const std::vector<int64_t>& shape) {
  const ir::Type want = ir::Type::Tensor(e, shape);
  if (ctx.result_type(i) != want) {
    return ctx.Error("expects result " + std::to_string(i) + " to be " + want.ToString() + ", got " +
                     ctx.result_type(i).ToString());
  }
  return Status::Ok();
}

// A tensor as a batch of rows x cols matrices.
struct Batch {
  std::vector<int64_t> dims;  // the batch dims
  int64_t count = 1, rows = 0, cols = 0;
};

StatusOr<Batch> MatrixBatch(const KernelContext& ctx, const Tensor& t, ir::ElementType e, bool square) {
  if (t.element() != e) return ctx.Error("expects operands of element type " + std::string(ir::ElementTypeName(e)));
  if (t.rank() < 2) return ctx.Error("expects a matrix operand (rank at least 2), got " + t.type().ToString());
  Batch b;
  b.dims.assign(t.shape().begin(), t.shape().end() - 2);
  for (int64_t d : b.dims) b.count *= d;
  b.rows = t.shape()[t.shape().size() - 2];
  b.cols = t.shape().back();
  if (square && b.rows != b.cols) return ctx.Error("expects square matrices, got " + t.type().ToString());
  constexpr int64_t kMax = std::numeric_limits<int32_t>::max();
  if (b.rows > kMax || b.cols > kMax || b.rows * b.cols > kMax) return ctx.Error("matrix too large for LAPACK");
  return b;
}

std::vector<int64_t> With(std::vector<int64_t> dims, std::initializer_list<int64_t> tail) {
  dims.insert(dims.end(), tail.begin(), tail.end());
  return dims;
}

// Row-major rows x cols <-> column-major with leading dimension rows.
template <typename T>
void ToColMajor(const T* src, int64_t rows, int64_t cols, T* dst) {
  for (int64_t i = 0; i < rows; ++i) {
    for (int64_t j = 0; j < cols; ++j) dst[j * rows + i] = src[i * cols + j];
  }
}
template <typename T>
void FromColMajor(const T* src, int64_t rows, int64_t cols, T* dst) {
  for (int64_t i = 0; i < rows; ++i) {
    for (int64_t j = 0; j < cols; ++j) dst[i * cols + j] = src[j * rows + i];
  }
}

LapackInt Ld(int64_t rows) { return static_cast<LapackInt>(std::max<int64_t>(1, rows)); }

// The workspace size a query (lwork = -1) reported.
template <typename T>
LapackInt WorkSize(const T& query) {
  const double v = static_cast<double>(std::real(query));
  return static_cast<LapackInt>(std::max(1.0, std::ceil(v)));
}

// ---------------------------------------------------------------------------

// potrf: (a) -> (factor, info). The triangle not asked for keeps a's values.
template <typename T>
Status Potrf(KernelContext& ctx) {
  HLOGRAPH_TRY(ExpectCounts(ctx, 1, 2));
  HLOGRAPH_ASSIGN(const Batch b, MatrixBatch(ctx, ctx.operand(0), ElementOf<T>(), true));
  HLOGRAPH_TRY(ExpectResult(ctx, 0, ElementOf<T>(), ctx.operand(0).shape()));
  HLOGRAPH_TRY(ExpectResult(ctx, 1, ir::ElementType::kI32, b.dims));
  HLOGRAPH_TRY(CheckAllLayouts(ctx, {true}, {true, false}));
  auto* fn = Pick<T>(spotrf_, dpotrf_, cpotrf_, zpotrf_);
  if (!fn) return Missing(ctx, "potrf");
  const char uplo = ConfigChar(ctx.op, "uplo", 'L');
  if (uplo != 'L' && uplo != 'U') return ctx.Error("expects uplo 'L' or 'U'");
  Tensor out(ctx.result_type(0)), info(ctx.result_type(1));
  const int64_t n = b.rows, nn = n * n;
  std::vector<T> a(static_cast<size_t>(nn));
  const LapackInt ln = static_cast<LapackInt>(n), lda = Ld(n);
  for (int64_t i = 0; i < b.count; ++i) {
    ToColMajor(ctx.operand(0).data<T>() + i * nn, n, n, a.data());
    LapackInt status = 0;
    fn(&uplo, &ln, a.data(), &lda, &status, 1);
    FromColMajor(a.data(), n, n, out.mutable_data<T>() + i * nn);
    info.mutable_data<int32_t>()[i] = static_cast<int32_t>(status);
  }
  ctx.results.push_back(std::move(out));
  ctx.results.push_back(std::move(info));
  return Status::Ok();
}

// trsm: (a, b) -> x solving op(a) x = alpha b (side 'L') or x op(a) = alpha b
// (side 'R'). An optional scalar operand is alpha (default 1).
template <typename T>
Status Trsm(KernelContext& ctx) {
  if ((ctx.operands.size() != 2 && ctx.operands.size() != 3) || ctx.op.num_results() != 1) {
    return ctx.Error("expects 2 or 3 operands and 1 result");
  }
  size_t ia = 0, ib = 1;
  T alpha(1);
  if (ctx.operands.size() == 3) {
    size_t ialpha = ctx.operand(0).rank() == 0 ? 0 : 2;
    if (ialpha == 0) {
      ia = 1;
      ib = 2;
    }
    const Tensor& t = ctx.operand(ialpha);
    if (t.rank() != 0 || t.element() != ElementOf<T>()) return ctx.Error("expects alpha to be a scalar of a's type");
    alpha = t.data<T>()[0];
  }
  const Tensor& a = ctx.operand(ia);
  const Tensor& bt = ctx.operand(ib);
  HLOGRAPH_ASSIGN(const Batch ab, MatrixBatch(ctx, a, ElementOf<T>(), true));
  HLOGRAPH_ASSIGN(const Batch bb, MatrixBatch(ctx, bt, ElementOf<T>(), false));
  HLOGRAPH_TRY(ExpectResult(ctx, 0, ElementOf<T>(), bt.shape()));
  std::vector<bool> matrix(ctx.operands.size(), true);
  if (ctx.operands.size() == 3) matrix[ia == 0 ? 2 : 0] = false;
  HLOGRAPH_TRY(CheckAllLayouts(ctx, matrix, {true}));
  const char side = ConfigChar(ctx.op, "side", 'L');
  const char uplo = ConfigChar(ctx.op, "uplo", 'L');
  const char trans = ConfigChar(ctx.op, "trans_x", 'N');
  const char diag = ConfigChar(ctx.op, "diag", 'N');
  if ((side != 'L' && side != 'R') || (uplo != 'L' && uplo != 'U') || (trans != 'N' && trans != 'T' && trans != 'C') ||
      (diag != 'N' && diag != 'U')) {
    return ctx.Error("unsupported side/uplo/trans_x/diag in mhlo.backend_config");
  }
  const int64_t m = bb.rows, n = bb.cols;
  if (ab.dims != bb.dims || ab.rows != (side == 'L' ? m : n)) {
    return ctx.Error("a " + a.type().ToString() + " does not fit b " + bt.type().ToString());
  }
  Tensor out(ctx.result_type(0));
  const int64_t k = ab.rows;
  std::vector<T> acol(static_cast<size_t>(k * k)), bcol(static_cast<size_t>(m * n));
  const auto cside = side == 'L' ? CblasLeft : CblasRight;
  const auto cuplo = uplo == 'L' ? CblasLower : CblasUpper;
  const auto ctrans = trans == 'N' ? CblasNoTrans : (trans == 'T' || !kIsComplex<T>) ? CblasTrans : CblasConjTrans;
  const auto cdiag = diag == 'U' ? CblasUnit : CblasNonUnit;
  const int im = static_cast<int>(m), in = static_cast<int>(n), lda = static_cast<int>(std::max<int64_t>(1, k)),
            ldb = static_cast<int>(std::max<int64_t>(1, m));
  for (int64_t i = 0; i < bb.count; ++i) {
    ToColMajor(a.data<T>() + i * k * k, k, k, acol.data());
    ToColMajor(bt.data<T>() + i * m * n, m, n, bcol.data());
    if (m > 0 && n > 0) {
      if constexpr (std::is_same_v<T, float>) {
        cblas_strsm(CblasColMajor, cside, cuplo, ctrans, cdiag, im, in, alpha, acol.data(), lda, bcol.data(), ldb);
      } else if constexpr (std::is_same_v<T, double>) {
        cblas_dtrsm(CblasColMajor, cside, cuplo, ctrans, cdiag, im, in, alpha, acol.data(), lda, bcol.data(), ldb);
      } else if constexpr (std::is_same_v<T, Cf>) {
        cblas_ctrsm(CblasColMajor, cside, cuplo, ctrans, cdiag, im, in, &alpha, acol.data(), lda, bcol.data(), ldb);
      } else {
        cblas_ztrsm(CblasColMajor, cside, cuplo, ctrans, cdiag, im, in, &alpha, acol.data(), lda, bcol.data(), ldb);
      }
    }
    FromColMajor(bcol.data(), m, n, out.mutable_data<T>() + i * m * n);
  }
  ctx.results.push_back(std::move(out));
  return Status::Ok();
}

// getrf: (a) -> (lu, pivots (1-based), info).
template <typename T>
Status Getrf(KernelContext& ctx) {
  HLOGRAPH_TRY(ExpectCounts(ctx, 1, 3));
  HLOGRAPH_ASSIGN(const Batch b, MatrixBatch(ctx, ctx.operand(0), ElementOf<T>(), false));
  const int64_t m = b.rows, n = b.cols, k = std::min(m, n);
  HLOGRAPH_TRY(ExpectResult(ctx, 0, ElementOf<T>(), ctx.operand(0).shape()));
  HLOGRAPH_TRY(ExpectResult(ctx, 1, ir::ElementType::kI32, With(b.dims, {k})));
  HLOGRAPH_TRY(ExpectResult(ctx, 2, ir::ElementType::kI32, b.dims));
  HLOGRAPH_TRY(CheckAllLayouts(ctx, {true}, {true, false, false}));
  auto* fn = Pick<T>(sgetrf_, dgetrf_, cgetrf_, zgetrf_);
  if (!fn) return Missing(ctx, "getrf");
  Tensor out(ctx.result_type(0)), pivots(ctx.result_type(1)), info(ctx.result_type(2));
  std::vector<T> a(static_cast<size_t>(m * n));
  std::vector<LapackInt> ipiv(static_cast<size_t>(std::max<int64_t>(k, 1)));
  const LapackInt lm = static_cast<LapackInt>(m), ln = static_cast<LapackInt>(n), lda = Ld(m);
  for (int64_t i = 0; i < b.count; ++i) {
    ToColMajor(ctx.operand(0).data<T>() + i * m * n, m, n, a.data());
    LapackInt status = 0;
    fn(&lm, &ln, a.data(), &lda, ipiv.data(), &status);
    FromColMajor(a.data(), m, n, out.mutable_data<T>() + i * m * n);
    for (int64_t j = 0; j < k; ++j) pivots.mutable_data<int32_t>()[i * k + j] = static_cast<int32_t>(ipiv[j]);
    info.mutable_data<int32_t>()[i] = static_cast<int32_t>(status);
  }
  ctx.results.push_back(std::move(out));
  ctx.results.push_back(std::move(pivots));
  ctx.results.push_back(std::move(info));
  return Status::Ok();
}

// geqrf: (a) -> (householder vectors and r, tau).
template <typename T>
Status Geqrf(KernelContext& ctx) {
  HLOGRAPH_TRY(ExpectCounts(ctx, 1, 2));
  HLOGRAPH_ASSIGN(const Batch b, MatrixBatch(ctx, ctx.operand(0), ElementOf<T>(), false));
  const int64_t m = b.rows, n = b.cols, k = std::min(m, n);
  HLOGRAPH_TRY(ExpectResult(ctx, 0, ElementOf<T>(), ctx.operand(0).shape()));
  HLOGRAPH_TRY(ExpectResult(ctx, 1, ElementOf<T>(), With(b.dims, {k})));
  HLOGRAPH_TRY(CheckAllLayouts(ctx, {true}, {true, false}));
  auto* fn = Pick<T>(sgeqrf_, dgeqrf_, cgeqrf_, zgeqrf_);
  if (!fn) return Missing(ctx, "geqrf");
  Tensor out(ctx.result_type(0)), tau_out(ctx.result_type(1));
  std::vector<T> a(static_cast<size_t>(m * n)), tau(static_cast<size_t>(std::max<int64_t>(k, 1)));
  const LapackInt lm = static_cast<LapackInt>(m), ln = static_cast<LapackInt>(n), lda = Ld(m);
  T query{};
  LapackInt lwork = -1, status = 0;
  fn(&lm, &ln, a.data(), &lda, tau.data(), &query, &lwork, &status);
  lwork = WorkSize(query);
  std::vector<T> work(static_cast<size_t>(lwork));
  for (int64_t i = 0; i < b.count; ++i) {
    ToColMajor(ctx.operand(0).data<T>() + i * m * n, m, n, a.data());
    fn(&lm, &ln, a.data(), &lda, tau.data(), work.data(), &lwork, &status);
    FromColMajor(a.data(), m, n, out.mutable_data<T>() + i * m * n);
    std::copy(tau.begin(), tau.begin() + k, tau_out.mutable_data<T>() + i * k);
  }
  ctx.results.push_back(std::move(out));
  ctx.results.push_back(std::move(tau_out));
  return Status::Ok();
}

// geqp3: (a, jpvt) -> (householder vectors and r, jpvt (1-based), tau).
// Nonzero input pivots mark columns moved to the front first.
template <typename T>
Status Geqp3(KernelContext& ctx) {
  HLOGRAPH_TRY(ExpectCounts(ctx, 2, 3));
  HLOGRAPH_ASSIGN(const Batch b, MatrixBatch(ctx, ctx.operand(0), ElementOf<T>(), false));
  const int64_t m = b.rows, n = b.cols, k = std::min(m, n);
  const Tensor& jpvt_in = ctx.operand(1);
  if (jpvt_in.type() != ir::Type::Tensor(ir::ElementType::kI32, With(b.dims, {n}))) {
    return ctx.Error("expects jpvt of type i32 and shape [..., n], got " + jpvt_in.type().ToString());
  }
  HLOGRAPH_TRY(ExpectResult(ctx, 0, ElementOf<T>(), ctx.operand(0).shape()));
  HLOGRAPH_TRY(ExpectResult(ctx, 1, ir::ElementType::kI32, With(b.dims, {n})));
  HLOGRAPH_TRY(ExpectResult(ctx, 2, ElementOf<T>(), With(b.dims, {k})));
  HLOGRAPH_TRY(CheckAllLayouts(ctx, {true, false}, {true, false, false}));
  auto* fn = Pick<T>(sgeqp3_, dgeqp3_, cgeqp3_, zgeqp3_);
  if (!fn) return Missing(ctx, "geqp3");
  Tensor out(ctx.result_type(0)), jpvt_out(ctx.result_type(1)), tau_out(ctx.result_type(2));
  std::vector<T> a(static_cast<size_t>(m * n)), tau(static_cast<size_t>(std::max<int64_t>(k, 1)));
  std::vector<LapackInt> jpvt(static_cast<size_t>(std::max<int64_t>(n, 1)));
  std::vector<RealOf<T>> rwork(static_cast<size_t>(std::max<int64_t>(2 * n, 1)));
  const LapackInt lm = static_cast<LapackInt>(m), ln = static_cast<LapackInt>(n), lda = Ld(m);
  auto call = [&](T* work, LapackInt lwork, LapackInt* status) {
    if constexpr (kIsComplex<T>) {
      fn(&lm, &ln, a.data(), &lda, jpvt.data(), tau.data(), work, &lwork, rwork.data(), status);
    } else {
      fn(&lm, &ln, a.data(), &lda, jpvt.data(), tau.data(), work, &lwork, status);
    }
  };
  T query{};
  LapackInt status = 0;
  call(&query, -1, &status);
  const LapackInt lwork = WorkSize(query);
  std::vector<T> work(static_cast<size_t>(lwork));
  for (int64_t i = 0; i < b.count; ++i) {
    ToColMajor(ctx.operand(0).data<T>() + i * m * n, m, n, a.data());
    for (int64_t j = 0; j < n; ++j) jpvt[static_cast<size_t>(j)] = jpvt_in.data<int32_t>()[i * n + j];
    call(work.data(), lwork, &status);
    FromColMajor(a.data(), m, n, out.mutable_data<T>() + i * m * n);
    for (int64_t j = 0; j < n; ++j) jpvt_out.mutable_data<int32_t>()[i * n + j] = static_cast<int32_t>(jpvt[j]);
    std::copy(tau.begin(), tau.begin() + k, tau_out.mutable_data<T>() + i * k);
  }
  ctx.results.push_back(std::move(out));
  ctx.results.push_back(std::move(jpvt_out));
  ctx.results.push_back(std::move(tau_out));
  return Status::Ok();
}

// orgqr / ungqr: (householder vectors [m, n], tau [k]) -> q [m, n].
template <typename T>
Status Orgqr(KernelContext& ctx) {
  HLOGRAPH_TRY(ExpectCounts(ctx, 2, 1));
  HLOGRAPH_ASSIGN(const Batch b, MatrixBatch(ctx, ctx.operand(0), ElementOf<T>(), false));
  const Tensor& tau_in = ctx.operand(1);
  const int64_t m = b.rows, n = b.cols;
  const int64_t k = tau_in.rank() >= 1 ? tau_in.shape().back() : -1;
  if (tau_in.type() != ir::Type::Tensor(ElementOf<T>(), With(b.dims, {k}))) {
    return ctx.Error("expects tau of shape [..., k] and a's element type, got " + tau_in.type().ToString());
  }
  if (!(m >= n && n >= k && k >= 0)) return ctx.Error("expects m >= n >= k for orgqr");
  HLOGRAPH_TRY(ExpectResult(ctx, 0, ElementOf<T>(), ctx.operand(0).shape()));
  HLOGRAPH_TRY(CheckAllLayouts(ctx, {true, false}, {true}));
  auto* fn = Pick<T>(sorgqr_, dorgqr_, cungqr_, zungqr_);
  if (!fn) return Missing(ctx, kIsComplex<T> ? "ungqr" : "orgqr");
  Tensor out(ctx.result_type(0));
  std::vector<T> a(static_cast<size_t>(m * n)), tau(static_cast<size_t>(std::max<int64_t>(k, 1)));
  const LapackInt lm = static_cast<LapackInt>(m), ln = static_cast<LapackInt>(n), lk = static_cast<LapackInt>(k),
                  lda = Ld(m);
  T query{};
  LapackInt lwork = -1, status = 0;
  fn(&lm, &ln, &lk, a.data(), &lda, tau.data(), &query, &lwork, &status);
  lwork = WorkSize(query);
  std::vector<T> work(static_cast<size_t>(lwork));
  for (int64_t i = 0; i < b.count; ++i) {
    ToColMajor(ctx.operand(0).data<T>() + i * m * n, m, n, a.data());
    std::copy(tau_in.data<T>() + i * k, tau_in.data<T>() + (i + 1) * k, tau.begin());
    fn(&lm, &ln, &lk, a.data(), &lda, tau.data(), work.data(), &lwork, &status);
    FromColMajor(a.data(), m, n, out.mutable_data<T>() + i * m * n);
  }
  ctx.results.push_back(std::move(out));
  return Status::Ok();
}

// syevd / heevd: (a) -> (eigenvectors as columns, eigenvalues ascending, info).
template <typename T>
Status Syevd(KernelContext& ctx) {
  using R = RealOf<T>;
  HLOGRAPH_TRY(ExpectCounts(ctx, 1, 3));
  HLOGRAPH_ASSIGN(const Batch b, MatrixBatch(ctx, ctx.operand(0), ElementOf<T>(), true));
  const int64_t n = b.rows;
  HLOGRAPH_TRY(ExpectResult(ctx, 0, ElementOf<T>(), ctx.operand(0).shape()));
  HLOGRAPH_TRY(ExpectResult(ctx, 1, ElementOf<R>(), With(b.dims, {n})));
  HLOGRAPH_TRY(ExpectResult(ctx, 2, ir::ElementType::kI32, b.dims));
  HLOGRAPH_TRY(CheckAllLayouts(ctx, {true}, {true, false, false}));
  auto* fn = Pick<T>(ssyevd_, dsyevd_, cheevd_, zheevd_);
  if (!fn) return Missing(ctx, kIsComplex<T> ? "heevd" : "syevd");
  const char jobz = ConfigChar(ctx.op, "mode", 'V');
  const char uplo = ConfigChar(ctx.op, "uplo", 'L');
  if ((jobz != 'V' && jobz != 'N') || (uplo != 'L' && uplo != 'U')) return ctx.Error("unsupported mode or uplo");
  Tensor vectors(ctx.result_type(0)), values(ctx.result_type(1)), info(ctx.result_type(2));
  std::vector<T> a(static_cast<size_t>(n * n));
  std::vector<R> w(static_cast<size_t>(std::max<int64_t>(n, 1)));
  const LapackInt ln = static_cast<LapackInt>(n), lda = Ld(n);
  std::vector<T> work(1);
  std::vector<R> rwork(1);
  std::vector<LapackInt> iwork(1);
  LapackInt lwork = -1, lrwork = -1, liwork = -1, status = 0;
  auto call = [&]() {
    if constexpr (kIsComplex<T>) {
      fn(&jobz, &uplo, &ln, a.data(), &lda, w.data(), work.data(), &lwork, rwork.data(), &lrwork, iwork.data(),
         &liwork, &status, 1, 1);
    } else {
      fn(&jobz, &uplo, &ln, a.data(), &lda, w.data(), work.data(), &lwork, iwork.data(), &liwork, &status, 1, 1);
    }
  };
  call();
  lwork = WorkSize(work[0]);
  lrwork = WorkSize(rwork[0]);
  liwork = std::max<LapackInt>(1, iwork[0]);
  work.resize(static_cast<size_t>(lwork));
  rwork.resize(static_cast<size_t>(lrwork));
  iwork.resize(static_cast<size_t>(liwork));
  for (int64_t i = 0; i < b.count; ++i) {
    ToColMajor(ctx.operand(0).data<T>() + i * n * n, n, n, a.data());
    call();
    FromColMajor(a.data(), n, n, vectors.mutable_data<T>() + i * n * n);
    std::copy(w.begin(), w.begin() + n, values.mutable_data<R>() + i * n);
    info.mutable_data<int32_t>()[i] = static_cast<int32_t>(status);
  }
  ctx.results.push_back(std::move(vectors));
  ctx.results.push_back(std::move(values));
  ctx.results.push_back(std::move(info));
  return Status::Ok();
}

// The u and vt a gesdd/gesvd `mode` needs: 'A' full, 'S' reduced; 'N' and
// 'O' leave (one of) them untouched, so any shape is accepted there.
Status CheckSvdShapes(const KernelContext& ctx, char mode, int64_t m, int64_t n, const Tensor& u, const Tensor& vt) {
  const int64_t k = std::min(m, n);
  const int64_t ur = u.shape()[u.shape().size() - 2], uc = u.shape().back();
  const int64_t vr = vt.shape()[vt.shape().size() - 2], vc = vt.shape().back();
  bool ok = true;
  if (mode == 'A') ok = ur == m && uc == m && vr == n && vc == n;
  if (mode == 'S') ok = ur == m && uc == k && vr == k && vc == n;
  if (mode == 'O') ok = m >= n ? (vr == n && vc == n) : (ur == m && uc == m);
  if (!ok) return ctx.Error("u and vt do not have the shapes SVD mode '" + std::string(1, mode) + "' needs");
  return Status::Ok();
}

// gesdd / gesvd: (a) -> (a overwritten, singular values descending, u, vt, info).
template <typename T, bool kDivideAndConquer>
Status Svd(KernelContext& ctx) {
  using R = RealOf<T>;
  HLOGRAPH_TRY(ExpectCounts(ctx, 1, 5));
  HLOGRAPH_ASSIGN(const Batch b, MatrixBatch(ctx, ctx.operand(0), ElementOf<T>(), false));
  const int64_t m = b.rows, n = b.cols, k = std::min(m, n), mx = std::max(m, n);
  HLOGRAPH_TRY(ExpectResult(ctx, 0, ElementOf<T>(), ctx.operand(0).shape()));
  HLOGRAPH_TRY(ExpectResult(ctx, 1, ElementOf<R>(), With(b.dims, {k})));
  HLOGRAPH_TRY(ExpectResult(ctx, 4, ir::ElementType::kI32, b.dims));
  Tensor out(ctx.result_type(0)), s_out(ctx.result_type(1)), u_out(ctx.result_type(2)), vt_out(ctx.result_type(3)),
      info(ctx.result_type(4));
  for (const Tensor* t : {&u_out, &vt_out}) {
    if (t->element() != ElementOf<T>() || t->rank() != ctx.operand(0).rank() ||
        std::vector<int64_t>(t->shape().begin(), t->shape().end() - 2) != b.dims) {
      return ctx.Error("expects u and vt to be batches of matrices of a's element type");
    }
  }
  HLOGRAPH_TRY(CheckAllLayouts(ctx, {true}, {true, false, true, true, false}));
  const char mode = ConfigChar(ctx.op, "mode", 'A');
  if (mode != 'A' && mode != 'S' && mode != 'N' && mode != 'O') return ctx.Error("unsupported SVD mode");
  if (!kDivideAndConquer && mode == 'O') return ctx.Error("gesvd cannot overwrite a with both u and vt");
  HLOGRAPH_TRY(CheckSvdShapes(ctx, mode, m, n, u_out, vt_out));
  const int64_t ur = u_out.shape()[u_out.shape().size() - 2], uc = u_out.shape().back();
  const int64_t vr = vt_out.shape()[vt_out.shape().size() - 2], vc = vt_out.shape().back();
  std::vector<T> a(static_cast<size_t>(m * n)), u(static_cast<size_t>(std::max<int64_t>(ur * uc, 1))),
      vt(static_cast<size_t>(std::max<int64_t>(vr * vc, 1)));
  std::vector<R> s(static_cast<size_t>(std::max<int64_t>(k, 1)));
  std::vector<LapackInt> iwork(static_cast<size_t>(std::max<int64_t>(8 * k, 1)));
  int64_t rsize = 1;
  if constexpr (kIsComplex<T>) {
    rsize = kDivideAndConquer ? std::max({7 * k, 5 * k * k + 5 * k, 2 * mx * k + 2 * k * k + k}) : 5 * k;
  }
  std::vector<R> rwork(static_cast<size_t>(std::max<int64_t>(rsize, 1)));
  const LapackInt lm = static_cast<LapackInt>(m), ln = static_cast<LapackInt>(n), lda = Ld(m), ldu = Ld(ur),
                  ldvt = Ld(vr);
  std::vector<T> work(1);
  LapackInt lwork = -1, status = 0;
  auto call = [&]() {
    if constexpr (kDivideAndConquer) {
      auto* fn = Pick<T>(sgesdd_, dgesdd_, cgesdd_, zgesdd_);
      if constexpr (kIsComplex<T>) {
        fn(&mode, &lm, &ln, a.data(), &lda, s.data(), u.data(), &ldu, vt.data(), &ldvt, work.data(), &lwork,
           rwork.data(), iwork.data(), &status, 1);
      } else {
        fn(&mode, &lm, &ln, a.data(), &lda, s.data(), u.data(), &ldu, vt.data(), &ldvt, work.data(), &lwork,
           iwork.data(), &status, 1);
      }
    } else {
      auto* fn = Pick<T>(sgesvd_, dgesvd_, cgesvd_, zgesvd_);
      if constexpr (kIsComplex<T>) {
        fn(&mode, &mode, &lm, &ln, a.data(), &lda, s.data(), u.data(), &ldu, vt.data(), &ldvt, work.data(), &lwork,
           rwork.data(), &status, 1, 1);
      } else {
        fn(&mode, &mode, &lm, &ln, a.data(), &lda, s.data(), u.data(), &ldu, vt.data(), &ldvt, work.data(), &lwork,
           &status, 1, 1);
      }
    }
  };
  const bool available = kDivideAndConquer ? Pick<T>(sgesdd_, dgesdd_, cgesdd_, zgesdd_) != nullptr
                                           : Pick<T>(sgesvd_, dgesvd_, cgesvd_, zgesvd_) != nullptr;
  if (!available) return Missing(ctx, kDivideAndConquer ? "gesdd" : "gesvd");
  call();
  lwork = WorkSize(work[0]);
  work.resize(static_cast<size_t>(lwork));
  for (int64_t i = 0; i < b.count; ++i) {
    ToColMajor(ctx.operand(0).data<T>() + i * m * n, m, n, a.data());
    std::fill(u.begin(), u.end(), T{});
    std::fill(vt.begin(), vt.end(), T{});
    call();
    FromColMajor(a.data(), m, n, out.mutable_data<T>() + i * m * n);
    std::copy(s.begin(), s.begin() + k, s_out.mutable_data<R>() + i * k);
    FromColMajor(u.data(), ur, uc, u_out.mutable_data<T>() + i * ur * uc);
    FromColMajor(vt.data(), vr, vc, vt_out.mutable_data<T>() + i * vr * vc);
    info.mutable_data<int32_t>()[i] = static_cast<int32_t>(status);
  }
  ctx.results.push_back(std::move(out));
  ctx.results.push_back(std::move(s_out));
  ctx.results.push_back(std::move(u_out));
  ctx.results.push_back(std::move(vt_out));
  ctx.results.push_back(std::move(info));
  return Status::Ok();
}

// Real geev packs a conjugate pair's vectors as two real columns (re, im);
// unpack them into complex columns.
template <typename R>
void UnpackEigenvectors(const R* packed, const R* wi, int64_t n, std::complex<R>* out) {
  for (int64_t j = 0; j < n; ++j) {
    if (wi[j] != 0 && j + 1 < n) {
      for (int64_t i = 0; i < n; ++i) {
        const R re = packed[j * n + i], im = packed[(j + 1) * n + i];
        out[i * n + j] = {re, im};
        out[i * n + j + 1] = {re, -im};
      }
      ++j;
    } else {
      for (int64_t i = 0; i < n; ++i) out[i * n + j] = {packed[j * n + i], R(0)};
    }
  }
}

// geev, real: (a) -> (wr, wi, left vectors, right vectors (complex), info);
// complex: (a) -> (w, left vectors, right vectors, info). Eigenvectors are
// columns; ones not asked for (compute_left/compute_right 'N') are zero.
template <typename T>
Status Geev(KernelContext& ctx) {
  using R = RealOf<T>;
  using Cx = std::complex<R>;
  constexpr bool kComplex = kIsComplex<T>;
  const size_t nres = kComplex ? 4 : 5;
  HLOGRAPH_TRY(ExpectCounts(ctx, 1, nres));
  HLOGRAPH_ASSIGN(const Batch b, MatrixBatch(ctx, ctx.operand(0), ElementOf<T>(), true));
  const int64_t n = b.rows;
  size_t r = 0;
  if (!kComplex) HLOGRAPH_TRY(ExpectResult(ctx, r++, ElementOf<R>(), With(b.dims, {n})));
  HLOGRAPH_TRY(ExpectResult(ctx, r++, kComplex ? ElementOf<Cx>() : ElementOf<R>(), With(b.dims, {n})));
  HLOGRAPH_TRY(ExpectResult(ctx, r++, ElementOf<Cx>(), ctx.operand(0).shape()));
  HLOGRAPH_TRY(ExpectResult(ctx, r++, ElementOf<Cx>(), ctx.operand(0).shape()));
  HLOGRAPH_TRY(ExpectResult(ctx, r++, ir::ElementType::kI32, b.dims));
  std::vector<bool> matrix(nres, false);
  matrix[nres - 2] = matrix[nres - 3] = true;
  HLOGRAPH_TRY(CheckAllLayouts(ctx, {true}, matrix));
  auto* fn = Pick<T>(sgeev_, dgeev_, cgeev_, zgeev_);
  if (!fn) return Missing(ctx, "geev");
  const char jobvl = ConfigChar(ctx.op, "compute_left", 'N');
  const char jobvr = ConfigChar(ctx.op, "compute_right", 'V');
  if ((jobvl != 'N' && jobvl != 'V') || (jobvr != 'N' && jobvr != 'V')) return ctx.Error("unsupported compute mode");
  std::vector<Tensor> outs;
  for (size_t i = 0; i < nres; ++i) outs.emplace_back(ctx.result_type(i));
  const int64_t nn = n * n;
  const size_t sz = static_cast<size_t>(std::max<int64_t>(nn, 1)), sn = static_cast<size_t>(std::max<int64_t>(n, 1));
  std::vector<T> a(sz), vl(sz), vr(sz), w(sn);
  std::vector<R> wr(sn), wi(sn), rwork(static_cast<size_t>(std::max<int64_t>(2 * n, 1)));
  const LapackInt ln = static_cast<LapackInt>(n), lda = Ld(n);
  std::vector<T> work(1);
  LapackInt lwork = -1, status = 0;
  auto call = [&]() {
    if constexpr (kComplex) {
      fn(&jobvl, &jobvr, &ln, a.data(), &lda, w.data(), vl.data(), &lda, vr.data(), &lda, work.data(), &lwork,
         rwork.data(), &status, 1, 1);
    } else {
      fn(&jobvl, &jobvr, &ln, a.data(), &lda, wr.data(), wi.data(), vl.data(), &lda, vr.data(), &lda, work.data(),
         &lwork, &status, 1, 1);
    }
  };
  call();
  lwork = WorkSize(work[0]);
  work.resize(static_cast<size_t>(lwork));
  for (int64_t i = 0; i < b.count; ++i) {
    ToColMajor(ctx.operand(0).data<T>() + i * nn, n, n, a.data());
    std::fill(vl.begin(), vl.end(), T{});
    std::fill(vr.begin(), vr.end(), T{});
    call();
    size_t o = 0;
    if constexpr (kComplex) {
      std::copy(w.begin(), w.begin() + n, outs[o++].mutable_data<T>() + i * n);
      FromColMajor(vl.data(), n, n, outs[o++].mutable_data<T>() + i * nn);
      FromColMajor(vr.data(), n, n, outs[o++].mutable_data<T>() + i * nn);
    } else {
      std::copy(wr.begin(), wr.begin() + n, outs[o++].mutable_data<R>() + i * n);
      std::copy(wi.begin(), wi.begin() + n, outs[o++].mutable_data<R>() + i * n);
      UnpackEigenvectors(vl.data(), wi.data(), n, outs[o++].mutable_data<Cx>() + i * nn);
      UnpackEigenvectors(vr.data(), wi.data(), n, outs[o++].mutable_data<Cx>() + i * nn);
    }
    outs[o].mutable_data<int32_t>()[i] = static_cast<int32_t>(status);
  }
  for (Tensor& t : outs) ctx.results.push_back(std::move(t));
  return Status::Ok();
}

struct Routine {
  const char* name;
  KernelFn s, d, c, z;
};

// One of four kernels, by the element type of the first operand.
template <KernelFn S, KernelFn D, KernelFn C, KernelFn Z>
Status ByElementType(KernelContext& ctx) {
  if (ctx.operands.empty()) return ctx.Error("expects operands");
  switch (ctx.operand(0).element()) {
    case ir::ElementType::kF32: return S(ctx);
    case ir::ElementType::kF64: return D(ctx);
    case ir::ElementType::kC64: return C(ctx);
    case ir::ElementType::kC128: return Z(ctx);
    default: return ctx.Error("expects f32, f64, complex<f32> or complex<f64> operands");
  }
}

}  // namespace

KernelFn FindLinalgCustomCall(std::string_view target) {
  const std::optional<ir::LinalgTarget> parsed = ir::ParseLinalgTarget(target);
  if (!parsed) return nullptr;
  if (parsed->routine == "topk") return &TopK;
  // XLA's targets (Qr, ProductOfElementaryHouseholderReflectors): the same
  // contracts as LAPACK's, typed by the operand.
  if (parsed->precision == 0 && parsed->routine == "geqrf") {
    return &ByElementType<&Geqrf<float>, &Geqrf<double>, &Geqrf<Cf>, &Geqrf<Cd>>;
  }
  if (parsed->precision == 0 && parsed->routine == "orgqr") {
    return &ByElementType<&Orgqr<float>, &Orgqr<double>, &Orgqr<Cf>, &Orgqr<Cd>>;
  }
  static const Routine kRoutines[] = {
      {"potrf", &Potrf<float>, &Potrf<double>, &Potrf<Cf>, &Potrf<Cd>},
      {"trsm", &Trsm<float>, &Trsm<double>, &Trsm<Cf>, &Trsm<Cd>},
      {"getrf", &Getrf<float>, &Getrf<double>, &Getrf<Cf>, &Getrf<Cd>},
      {"geqrf", &Geqrf<float>, &Geqrf<double>, &Geqrf<Cf>, &Geqrf<Cd>},
      {"geqp3", &Geqp3<float>, &Geqp3<double>, &Geqp3<Cf>, &Geqp3<Cd>},
      {"orgqr", &Orgqr<float>, &Orgqr<double>, nullptr, nullptr},
      {"ungqr", nullptr, nullptr, &Orgqr<Cf>, &Orgqr<Cd>},
      {"syevd", &Syevd<float>, &Syevd<double>, nullptr, nullptr},
      {"heevd", nullptr, nullptr, &Syevd<Cf>, &Syevd<Cd>},
      {"gesdd", &Svd<float, true>, &Svd<double, true>, &Svd<Cf, true>, &Svd<Cd, true>},
      {"gesvd", &Svd<float, false>, &Svd<double, false>, &Svd<Cf, false>, &Svd<Cd, false>},
      {"geev", &Geev<float>, &Geev<double>, &Geev<Cf>, &Geev<Cd>},
  };
  for (const Routine& r : kRoutines) {
    if (parsed->routine != r.name) continue;
    switch (parsed->precision) {
      case 's': return r.s;
      case 'd': return r.d;
      case 'c': return r.c;
      case 'z': return r.z;
      default: return nullptr;
    }
  }
  return nullptr;
}

}  // namespace hlograph::cpu
