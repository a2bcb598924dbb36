// fft: FFT, IFFT, RFFT and IRFFT over the trailing fft_length dims, computed
// in double precision for every element type (f32 results are rounded
// once). Power-of-two lengths use an iterative radix-2 transform; any other
// length uses Bluestein's chirp-z algorithm on a power-of-two transform.
// IFFT and IRFFT scale by 1 / prod(fft_length), so they invert FFT and RFFT.
#include <cstring>  // element_types.h uses std::memcpy
#include <cmath>
#include <complex>
#include <memory>
#include <numbers>

#include "backends/cpu/kernel_util.h"
#include "backends/cpu/kernels/linalg_internal.h"

namespace hlograph::cpu::linalg {
namespace {

using C = std::complex<double>;

bool IsPowerOfTwo(int64_t n) { return n > 0 && (n & (n - 1)) == 0; }

// exp(-2 pi i num / den) with the angle reduced first, so large lengths
// keep full accuracy.
C UnitRoot(int64_t num, int64_t den) {
  num %= den;
  const double angle = -2.0 * std::numbers::pi * static_cast<double>(num) / static_cast<double>(den);
  return {std::cos(angle), std::sin(angle)};
}

class FftPlan {
 public:
  explicit FftPlan(int64_t n) : n_(n) {
    if (IsPowerOfTwo(n)) {
      twiddle_.resize(static_cast<size_t>(n / 2));
      for (int64_t j = 0; j < n / 2; ++j) twiddle_[static_cast<size_t>(j)] = UnitRoot(j, n);
      return;
    }
    // Bluestein: jk = (j^2 + k^2 - (k - j)^2) / 2, so the DFT is a
    // convolution with the chirp w_t = exp(-pi i t^2 / n), done as a
    // circular convolution of power-of-two length m >= 2n - 1.
    m_ = 1;
    while (m_ < 2 * n - 1) m_ *= 2;
    inner_ = std::make_unique<FftPlan>(m_);
    chirp_.resize(static_cast<size_t>(n));
    // t^2 mod 2n, kept incrementally ((t + 1)^2 = t^2 + 2t + 1), keeps the
    // angle exact; exp(-pi i x / n) = UnitRoot(x, 2n).
    for (int64_t t = 0, sq = 0; t < n; ++t) {
      chirp_[static_cast<size_t>(t)] = UnitRoot(sq, 2 * n);
      sq = (sq + 2 * t + 1) % (2 * n);
    }
    chirp_fft_.assign(static_cast<size_t>(m_), C(0, 0));
    chirp_fft_[0] = std::conj(chirp_[0]);
    for (int64_t t = 1; t < n; ++t) {
      chirp_fft_[static_cast<size_t>(t)] = std::conj(chirp_[static_cast<size_t>(t)]);
      chirp_fft_[static_cast<size_t>(m_ - t)] = std::conj(chirp_[static_cast<size_t>(t)]);
    }
    inner_->Run(chirp_fft_.data(), false);
  }

  // In place and unnormalised; `inverse` uses exp(+2 pi i jk / n).
  void Run(C* x, bool inverse) const {
    if (n_ <= 1) return;
    if (!inner_) {
      Radix2(x, inverse);
      return;
    }
    // inverse(x) = conj(forward(conj(x))).
    if (inverse) {
      for (int64_t i = 0; i < n_; ++i) x[i] = std::conj(x[i]);
    }
    std::vector<C> a(static_cast<size_t>(m_), C(0, 0));
    for (int64_t j = 0; j < n_; ++j) a[static_cast<size_t>(j)] = x[j] * chirp_[static_cast<size_t>(j)];
    inner_->Run(a.data(), false);
    for (int64_t j = 0; j < m_; ++j) a[static_cast<size_t>(j)] *= chirp_fft_[static_cast<size_t>(j)];
    inner_->Run(a.data(), true);
    const double scale = 1.0 / static_cast<double>(m_);
    for (int64_t k = 0; k < n_; ++k) {
      x[k] = a[static_cast<size_t>(k)] * scale * chirp_[static_cast<size_t>(k)];
      if (inverse) x[k] = std::conj(x[k]);
    }
  }

 private:
  void Radix2(C* x, bool inverse) const {
    const int64_t n = n_;
    for (int64_t i = 1, j = 0; i < n; ++i) {
      int64_t bit = n >> 1;
      for (; j & bit; bit >>= 1) j ^= bit;
      j ^= bit;
      if (i < j) std::swap(x[i], x[j]);
    }
    for (int64_t len = 2; len <= n; len <<= 1) {
      const int64_t half = len / 2;
      const int64_t step = n / len;
      for (int64_t i = 0; i < n; i += len) {
        for (int64_t j = 0; j < half; ++j) {
          C w = twiddle_[static_cast<size_t>(j * step)];
          if (inverse) w = std::conj(w);
          const C u = x[i + j];
          const C v = x[i + j + half] * w;
          x[i + j] = u + v;
          x[i + j + half] = u - v;
        }
      }
    }
  }

  int64_t n_;
  std::vector<C> twiddle_;
  int64_t m_ = 0;
  std::unique_ptr<FftPlan> inner_;
  std::vector<C> chirp_;
  std::vector<C> chirp_fft_;
};

// Transforms row-major `data` of `shape` along `axis`, in place.
void TransformAxis(std::vector<C>& data, const std::vector<int64_t>& shape, size_t axis, bool inverse) {
  const int64_t n = shape[axis];
  if (n <= 1 || data.empty()) return;
  int64_t inner = 1;
  for (size_t d = axis + 1; d < shape.size(); ++d) inner *= shape[d];
  const int64_t outer = static_cast<int64_t>(data.size()) / (n * inner);
  const FftPlan plan(n);
  std::vector<C> line(static_cast<size_t>(n));
  for (int64_t o = 0; o < outer; ++o) {
    C* block = data.data() + o * n * inner;
    if (inner == 1) {
      plan.Run(block, inverse);
      continue;
    }
    for (int64_t i = 0; i < inner; ++i) {
      for (int64_t j = 0; j < n; ++j) line[static_cast<size_t>(j)] = block[j * inner + i];
      plan.Run(line.data(), inverse);
      for (int64_t j = 0; j < n; ++j) block[j * inner + i] = line[static_cast<size_t>(j)];
    }
  }
}

std::vector<C> LoadComplex(const Tensor& t) {
  std::vector<C> out(static_cast<size_t>(t.num_elements()));
  DispatchElementType(t.element(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* p = t.data<T>();
    for (size_t i = 0; i < out.size(); ++i) {
      if constexpr (kIsComplex<T>) {
        out[i] = C(static_cast<double>(p[i].real()), static_cast<double>(p[i].imag()));
      } else if constexpr (kIsFloat<T>) {
        out[i] = C(static_cast<double>(Load(p[i])), 0.0);
      }
    }
  });
  return out;
}

// Writes values (complex results) or their real parts (IRFFT), times scale.
void StoreResult(const std::vector<C>& values, double scale, Tensor& result) {
  DispatchElementType(result.element(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* p = result.mutable_data<T>();
    for (size_t i = 0; i < values.size(); ++i) {
      if constexpr (kIsComplex<T>) {
        using P = typename T::value_type;
        p[i] = T(static_cast<P>(values[i].real() * scale), static_cast<P>(values[i].imag() * scale));
      } else if constexpr (kIsFloat<T>) {
        p[i] = Store<T>(static_cast<ComputeType<T>>(values[i].real() * scale));
      }
    }
  });
}

Status Fft(KernelContext& ctx) {
  const Tensor& operand = ctx.operand(0);
  Tensor result(ctx.result_type(0));
  const auto* type_attr = ctx.op.attr("fft_type").as<ir::EnumAttr>();
  const std::string type = type_attr ? type_attr->value : "";
  const std::vector<int64_t> lengths = I64Array(ctx.op, "fft_length");
  const size_t rank = static_cast<size_t>(operand.rank());
  const size_t l = lengths.size();
  if (l == 0 || l > rank || result.rank() != operand.rank()) {
    return ctx.Error("expects 1 to rank fft_length entries");
  }
  const size_t first = rank - l;
  double total = 1;
  for (int64_t n : lengths) total *= static_cast<double>(n);
  for (size_t i = 0; i < l; ++i) {
    if (result.shape()[first + i] != lengths[i] && !(type == "RFFT" && i + 1 == l)) {
      return ctx.Error("the result's trailing dimensions do not match fft_length");
    }
  }
  if (result.num_elements() == 0 || operand.num_elements() == 0) {
    ctx.results.push_back(std::move(result));
    return Status::Ok();
  }

  if (type == "FFT" || type == "IFFT") {
    const bool inverse = type == "IFFT";
    std::vector<C> data = LoadComplex(operand);
    for (size_t axis = first; axis < rank; ++axis) TransformAxis(data, operand.shape(), axis, inverse);
    StoreResult(data, inverse ? 1.0 / total : 1.0, result);
  } else if (type == "RFFT") {
    std::vector<C> data = LoadComplex(operand);
    for (size_t axis = first; axis < rank; ++axis) TransformAxis(data, operand.shape(), axis, false);
    // Keep the non-redundant half of the last axis.
    const int64_t n = operand.shape().back();
    const int64_t h = result.shape().back();
    if (h != n / 2 + 1) return ctx.Error("expects the result's last dimension to be fft_length / 2 + 1");
    std::vector<C> half(static_cast<size_t>(result.num_elements()));
    const int64_t rows = result.num_elements() / h;
    for (int64_t r = 0; r < rows; ++r) {
      for (int64_t k = 0; k < h; ++k) half[static_cast<size_t>(r * h + k)] = data[static_cast<size_t>(r * n + k)];
    }
    StoreResult(half, 1.0, result);
  } else if (type == "IRFFT") {
    // Inverse over the leading fft axes on the half spectrum; then every
    // line along the last axis is the spectrum of a real signal, extended
    // by Hermitian symmetry (imaginary parts of its self-conjugate bins drop
    // out with the final real part).
    const int64_t n = lengths.back();
    const int64_t h = operand.shape().back();
    if (h != n / 2 + 1) return ctx.Error("expects the operand's last dimension to be fft_length / 2 + 1");
    std::vector<C> half = LoadComplex(operand);
    for (size_t axis = first; axis + 1 < rank; ++axis) TransformAxis(half, operand.shape(), axis, true);
    const int64_t rows = operand.num_elements() / h;
    if (rows * n != result.num_elements()) return ctx.Error("the operand and result shapes do not agree");
    std::vector<C> full(static_cast<size_t>(rows * n));
    for (int64_t r = 0; r < rows; ++r) {
      const C* src = half.data() + r * h;
      C* dst = full.data() + r * n;
      for (int64_t k = 0; k < n; ++k) dst[k] = k < h ? src[k] : std::conj(src[n - k]);
    }
    TransformAxis(full, result.shape(), rank - 1, true);
    StoreResult(full, 1.0 / total, result);
  } else {
    return ctx.Error("unknown fft_type '" + type + "'");
  }
  ctx.results.push_back(std::move(result));
  return Status::Ok();
}

}  // namespace

void RegisterFftKernels(KernelRegistry& r) { r.Register(ir::OpId::kFft, &Fft); }

}  // namespace hlograph::cpu::linalg
