// Helpers shared by the data-movement kernels (shape.cpp, indexing.cpp):
// strided copies of element boxes on raw bytes, and reading index operands.
//
// Data movement never looks at element values, so these kernels dispatch
// once on the element's storage size and move fixed-size words.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "backends/cpu/element_types.h"
#include "backends/cpu/kernel.h"
#include "backends/cpu/tensor.h"
#include "hlograph/status.h"

namespace hlograph::cpu {

// A 16-byte element (complex<f64>) moved as one word.
struct Word128 {
  uint64_t lo, hi;
};

// Calls fn(Tag<W>{}) with W an unsigned word of `bytes` bytes (1, 2, 4, 8 or
// 16: every StorageBytes value).
template <typename Fn>
decltype(auto) DispatchWord(int bytes, Fn&& fn) {
  switch (bytes) {
    case 1: return fn(Tag<uint8_t>{});
    case 2: return fn(Tag<uint16_t>{});
    case 4: return fn(Tag<uint32_t>{});
    case 8: return fn(Tag<uint64_t>{});
    default: return fn(Tag<Word128>{});
  }
}

inline int ElementBytes(const Tensor& t) { return ir::StorageBytes(t.element()); }

// Row-major strides, or zeros for a shape with no elements: the other dims
// of an empty tensor may be huge (their product need not fit in int64), and
// no box over it is ever walked.
inline std::vector<int64_t> Strides(const std::vector<int64_t>& shape) {
  for (int64_t d : shape) {
    if (d == 0) return std::vector<int64_t>(shape.size(), 0);
  }
  return RowMajorStrides(shape);
}

// A box of elements visited in two buffers at once, each with its own
// strides (in elements; zero repeats an element, negative walks backwards).
// Dims of size 1 are dropped and dims contiguous in both buffers merged, so
// a box that is row-major in both becomes one run. Built once per kernel and
// reused for every window it moves.
class StridedBox {
 public:
  StridedBox(const std::vector<int64_t>& sizes, const std::vector<int64_t>& src_strides,
             const std::vector<int64_t>& dst_strides) {
    for (size_t d = 0; d < sizes.size(); ++d) {
      if (sizes[d] == 0) {
        empty_ = true;
        sizes_ = {0};
        src_ = {0};
        dst_ = {0};
        return;
      }
      if (sizes[d] == 1) continue;
      if (!sizes_.empty() && src_.back() == src_strides[d] * sizes[d] && dst_.back() == dst_strides[d] * sizes[d]) {
        sizes_.back() *= sizes[d];
        src_.back() = src_strides[d];
        dst_.back() = dst_strides[d];
        continue;
      }
      sizes_.push_back(sizes[d]);
      src_.push_back(src_strides[d]);
      dst_.push_back(dst_strides[d]);
    }
    if (sizes_.empty()) {
      sizes_ = {1};
      src_ = {1};
      dst_ = {1};
    }
    const size_t inner = sizes_.size() - 1;
    outer_.assign(sizes_.begin(), sizes_.begin() + static_cast<std::ptrdiff_t>(inner));
    outer_src_.assign(src_.begin(), src_.begin() + static_cast<std::ptrdiff_t>(inner));
    outer_dst_.assign(dst_.begin(), dst_.begin() + static_cast<std::ptrdiff_t>(inner));
    // A transpose: the inner dim is contiguous in the destination only and
    // some outer dim in the source only. Copying tiles of those two dims
    // keeps both sides in cache.
    if (dst_.back() == 1 && src_.back() != 1 && sizes_.back() >= kMinTiled) {
      for (size_t k = 0; k < inner; ++k) {
        if (src_[k] == 1 && dst_[k] != 1 && sizes_[k] >= kMinTiled) {
          tiled_ = static_cast<int>(k);
          break;
        }
      }
    }
    for (size_t k = 0; k < inner; ++k) {
      if (static_cast<int>(k) == tiled_) continue;
      plane_.push_back(sizes_[k]);
      plane_src_.push_back(src_[k]);
      plane_dst_.push_back(dst_[k]);
    }
    counter_.assign(sizes_.size(), 0);
  }

  bool empty() const { return empty_; }

  // Calls fn(src_offset, dst_offset, count, src_stride, dst_stride) for each
  // innermost run, in row-major order of the box.
  template <typename Fn>
  void ForEachRun(Fn&& fn) const {
    if (empty_) return;
    const int64_t n = sizes_.back(), ss = src_.back(), ds = dst_.back();
    Walk(outer_, outer_src_, outer_dst_, [&](int64_t so, int64_t dof) { fn(so, dof, n, ss, ds); });
  }

  // The transposing copy of CopyBox: tiles of (the source-contiguous dim,
  // the inner dim) for every position of the other dims.
  template <typename W>
  void CopyTiled(const W* src, W* dst) const {
    constexpr int64_t kTile = 32;
    const auto a = static_cast<size_t>(tiled_);
    const int64_t na = sizes_[a], nb = sizes_.back();
    const int64_t a_dst = dst_[a], b_src = src_.back();
    Walk(plane_, plane_src_, plane_dst_, [&](int64_t so, int64_t dof) {
      const W* s = src + so;
      W* d = dst + dof;
      for (int64_t a0 = 0; a0 < na; a0 += kTile) {
        const int64_t a1 = std::min(na, a0 + kTile);
        for (int64_t b0 = 0; b0 < nb; b0 += kTile) {
          const int64_t b1 = std::min(nb, b0 + kTile);
          for (int64_t i = a0; i < a1; ++i) {
            for (int64_t j = b0; j < b1; ++j) d[i * a_dst + j] = s[i + j * b_src];
          }
        }
      }
    });
  }

  bool tiled() const { return !empty_ && tiled_ >= 0; }

  // A box that is a single run (no outer dims): kernels that move many
  // small windows copy it inline instead of walking it.
  bool single_run() const { return !empty_ && outer_.empty() && tiled_ < 0; }
  int64_t run_size() const { return sizes_.back(); }
  int64_t run_src_stride() const { return src_.back(); }
  int64_t run_dst_stride() const { return dst_.back(); }

 private:
  static constexpr int64_t kMinTiled = 8;

  // Calls fn(src_offset, dst_offset) for every index of `sizes`.
  template <typename Fn>
  void Walk(const std::vector<int64_t>& sizes, const std::vector<int64_t>& src, const std::vector<int64_t>& dst,
            Fn&& fn) const {
    const int rank = static_cast<int>(sizes.size());
    std::fill(counter_.begin(), counter_.end(), 0);
    int64_t so = 0, dof = 0;
    while (true) {
      fn(so, dof);
      int k = rank - 1;
      for (; k >= 0; --k) {
        const auto uk = static_cast<size_t>(k);
        so += src[uk];
        dof += dst[uk];
        if (++counter_[uk] < sizes[uk]) break;
        so -= src[uk] * sizes[uk];
        dof -= dst[uk] * sizes[uk];
        counter_[uk] = 0;
      }
      if (k < 0) return;
    }
  }

  bool empty_ = false;
  int tiled_ = -1;
  std::vector<int64_t> sizes_, src_, dst_;              // merged dims, the inner dim last
  std::vector<int64_t> outer_, outer_src_, outer_dst_;  // all but the inner dim
  std::vector<int64_t> plane_, plane_src_, plane_dst_;  // all but the inner and tiled dims
  mutable std::vector<int64_t> counter_;
};

// Copies n elements with the given strides.
template <typename W>
inline void CopyRun(const W* from, W* to, int64_t n, int64_t ss, int64_t ds) {
  if (ss == 1 && ds == 1) {
    std::memcpy(to, from, static_cast<size_t>(n) * sizeof(W));
    return;
  }
  for (int64_t i = 0; i < n; ++i) to[i * ds] = from[i * ss];
}

// dst[box] = src[box]; src and dst point at the box's first element.
template <typename W>
void CopyBox(const StridedBox& box, const W* src, W* dst) {
  if (box.tiled()) {
    box.CopyTiled(src, dst);
    return;
  }
  box.ForEachRun([&](int64_t s, int64_t d, int64_t n, int64_t ss, int64_t ds) { CopyRun(src + s, dst + d, n, ss, ds); });
}

inline void CopyBox(const StridedBox& box, int element_bytes, const uint8_t* src, uint8_t* dst) {
  DispatchWord(element_bytes, [&](auto tag) {
    using W = typename decltype(tag)::type;
    CopyBox(box, reinterpret_cast<const W*>(src), reinterpret_cast<W*>(dst));
  });
}

// Sets `count` elements at `dst` to the element at `value`.
inline void FillElements(uint8_t* dst, int64_t count, int element_bytes, const uint8_t* value) {
  DispatchWord(element_bytes, [&](auto tag) {
    using W = typename decltype(tag)::type;
    W v;
    std::memcpy(&v, value, sizeof(W));
    std::fill_n(reinterpret_cast<W*>(dst), count, v);
  });
}

// Offset (in elements) of `index` under `strides`.
inline int64_t Offset(const std::vector<int64_t>& index, const std::vector<int64_t>& strides) {
  int64_t off = 0;
  for (size_t i = 0; i < index.size(); ++i) off += index[i] * strides[i];
  return off;
}

inline int64_t Clamp(int64_t v, int64_t lo, int64_t hi) { return std::max(lo, std::min(v, hi)); }

// The elements of an integer tensor as int64. Unsigned 64-bit values above
// INT64_MAX saturate: they are past the end of any dimension either way.
inline StatusOr<std::vector<int64_t>> IndexValues(const Tensor& t, const std::string& what) {
  if (!t.type().IsTensor() || !ir::IsInteger(t.element())) {
    return Status::Error("expects " + what + " to be an integer tensor, got " + t.type().ToString());
  }
  std::vector<int64_t> out(static_cast<size_t>(t.num_elements()));
  DispatchElementType(t.element(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
      const T* p = t.data<T>();
      for (size_t i = 0; i < out.size(); ++i) {
        if constexpr (std::is_same_v<T, uint64_t>) {
          out[i] = p[i] > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())
                       ? std::numeric_limits<int64_t>::max()
                       : static_cast<int64_t>(p[i]);
        } else {
          out[i] = static_cast<int64_t>(p[i]);
        }
      }
    }
  });
  return out;
}

// A rank-0 integer operand (a start index).
inline StatusOr<int64_t> ScalarIndex(const Tensor& t, const std::string& what) {
  if (!t.type().IsTensor() || t.rank() != 0) {
    return Status::Error("expects " + what + " to be a rank-0 integer tensor, got " + t.type().ToString());
  }
  HLOGRAPH_ASSIGN(std::vector<int64_t> v, IndexValues(t, what));
  return v[0];
}

// A rank-1 integer operand holding one value per dimension (a shape, or
// per-dimension start/limit/stride/padding values) of a rank-`rank` tensor.
inline StatusOr<std::vector<int64_t>> DimValues(const Tensor& t, int64_t rank, const std::string& what) {
  if (!t.type().IsTensor() || t.rank() != 1 || t.shape()[0] != rank) {
    return Status::Error("expects " + what + " to be a tensor<" + std::to_string(rank) + "x integer>, got " +
                         t.type().ToString());
  }
  return IndexValues(t, what);
}

inline std::string DimsToString(const std::vector<int64_t>& v) {
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

// The result type a data-movement kernel must produce: a tensor of
// `element` and `shape`.
inline Status ExpectResult(const KernelContext& ctx, ir::ElementType element, const std::vector<int64_t>& shape) {
  const ir::Type& r = ctx.result_type(0);
  if (!r.IsTensor() || r.element() != element || r.shape() != shape) {
    return ctx.Error("expects the result type " + ir::Type::Tensor(element, shape).ToString() + ", got " +
                     r.ToString());
  }
  return Status::Ok();
}

}  // namespace hlograph::cpu
