// The C++ type that stores each element type, and dispatch from a runtime
// ElementType to code templated on that type. Narrow floats (f16, bf16, the
// f8/f6/f4 kinds) are stored as their bits and computed in float, as XLA's
// CPU backend does; sub-byte integers are stored one per byte.
#pragma once

#include <complex>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "ir/element_type.h"
#include "ir/float_bits.h"

namespace hlograph::cpu {

template <ir::ElementType E, typename Bits>
struct NarrowFloat {
  static constexpr ir::ElementType kType = E;
  Bits bits;
};
using F16 = NarrowFloat<ir::ElementType::kF16, uint16_t>;
using BF16 = NarrowFloat<ir::ElementType::kBF16, uint16_t>;
using TF32 = NarrowFloat<ir::ElementType::kTF32, uint32_t>;
using F8E4M3FN = NarrowFloat<ir::ElementType::kF8E4M3FN, uint8_t>;
using F8E5M2 = NarrowFloat<ir::ElementType::kF8E5M2, uint8_t>;
using F8E4M3FNUZ = NarrowFloat<ir::ElementType::kF8E4M3FNUZ, uint8_t>;
using F8E5M2FNUZ = NarrowFloat<ir::ElementType::kF8E5M2FNUZ, uint8_t>;
using F8E4M3B11FNUZ = NarrowFloat<ir::ElementType::kF8E4M3B11FNUZ, uint8_t>;
using F8E4M3 = NarrowFloat<ir::ElementType::kF8E4M3, uint8_t>;
using F8E3M4 = NarrowFloat<ir::ElementType::kF8E3M4, uint8_t>;
using F8E8M0FNU = NarrowFloat<ir::ElementType::kF8E8M0FNU, uint8_t>;
using F4E2M1FN = NarrowFloat<ir::ElementType::kF4E2M1FN, uint8_t>;
using F6E2M3FN = NarrowFloat<ir::ElementType::kF6E2M3FN, uint8_t>;
using F6E3M2FN = NarrowFloat<ir::ElementType::kF6E3M2FN, uint8_t>;

template <typename T>
struct IsNarrowFloat : std::false_type {};
template <ir::ElementType E, typename B>
struct IsNarrowFloat<NarrowFloat<E, B>> : std::true_type {};
template <typename T>
inline constexpr bool kIsNarrowFloat = IsNarrowFloat<T>::value;
template <typename T>
inline constexpr bool kIsFloat = kIsNarrowFloat<T> || std::is_floating_point_v<T>;
template <typename T>
struct IsComplexT : std::false_type {};
template <typename T>
struct IsComplexT<std::complex<T>> : std::true_type {};
template <typename T>
inline constexpr bool kIsComplex = IsComplexT<T>::value;
template <typename T>
inline constexpr bool kIsInteger = std::is_integral_v<T> && !std::is_same_v<T, bool>;

// bf16 and f16 have exact, fast conversions to float.
inline float Bf16ToFloat(uint16_t b) {
  uint32_t u = uint32_t{b} << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
inline uint16_t FloatToBf16(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  if ((u & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((u >> 16) | 0x40);  // quiet NaN
  u += 0x7fffu + ((u >> 16) & 1);  // round to nearest even
  return static_cast<uint16_t>(u >> 16);
}

// The type arithmetic happens in: float for narrow floats, else itself.
template <typename T>
struct ComputeTypeOf {
  using type = T;
};
template <ir::ElementType E, typename B>
struct ComputeTypeOf<NarrowFloat<E, B>> {
  using type = float;
};
template <typename T>
using ComputeType = typename ComputeTypeOf<T>::type;

template <typename T>
inline ComputeType<T> Load(T v) {
  if constexpr (std::is_same_v<T, BF16>) {
    return Bf16ToFloat(v.bits);
  } else if constexpr (kIsNarrowFloat<T>) {
    return static_cast<float>(ir::FloatBitsToDouble(v.bits, T::kType));
  } else {
    return v;
  }
}

template <typename T>
inline T Store(ComputeType<T> v) {
  if constexpr (std::is_same_v<T, BF16>) {
    return BF16{FloatToBf16(v)};
  } else if constexpr (kIsNarrowFloat<T>) {
    using Bits = decltype(T{}.bits);
    return T{static_cast<Bits>(ir::DoubleToFloatBits(static_cast<double>(v), T::kType))};
  } else {
    return v;
  }
}

template <typename T>
struct Tag {
  using type = T;
};

// Calls fn(Tag<T>{}) with T the storage type of `t`.
template <typename Fn>
decltype(auto) DispatchElementType(ir::ElementType t, Fn&& fn) {
  using E = ir::ElementType;
  switch (t) {
    case E::kI1: return fn(Tag<bool>{});
    case E::kI2:
    case E::kI4:
    case E::kI8: return fn(Tag<int8_t>{});
    case E::kI16: return fn(Tag<int16_t>{});
    case E::kI32: return fn(Tag<int32_t>{});
    case E::kI64:
    case E::kIndex: return fn(Tag<int64_t>{});
    case E::kU2:
    case E::kU4:
    case E::kU8: return fn(Tag<uint8_t>{});
    case E::kU16: return fn(Tag<uint16_t>{});
    case E::kU32: return fn(Tag<uint32_t>{});
    case E::kU64: return fn(Tag<uint64_t>{});
    case E::kF4E2M1FN: return fn(Tag<F4E2M1FN>{});
    case E::kF6E2M3FN: return fn(Tag<F6E2M3FN>{});
    case E::kF6E3M2FN: return fn(Tag<F6E3M2FN>{});
    case E::kF8E3M4: return fn(Tag<F8E3M4>{});
    case E::kF8E4M3: return fn(Tag<F8E4M3>{});
    case E::kF8E4M3FN: return fn(Tag<F8E4M3FN>{});
    case E::kF8E4M3FNUZ: return fn(Tag<F8E4M3FNUZ>{});
    case E::kF8E4M3B11FNUZ: return fn(Tag<F8E4M3B11FNUZ>{});
    case E::kF8E5M2: return fn(Tag<F8E5M2>{});
    case E::kF8E5M2FNUZ: return fn(Tag<F8E5M2FNUZ>{});
    case E::kF8E8M0FNU: return fn(Tag<F8E8M0FNU>{});
    case E::kBF16: return fn(Tag<BF16>{});
    case E::kF16: return fn(Tag<F16>{});
    case E::kTF32: return fn(Tag<TF32>{});
    case E::kF32: return fn(Tag<float>{});
    case E::kF64: return fn(Tag<double>{});
    case E::kC64: return fn(Tag<std::complex<float>>{});
    case E::kC128: return fn(Tag<std::complex<double>>{});
  }
  return fn(Tag<float>{});
}

// Sub-byte integers wrap at their own width: keep i2/i4 sign-extended and
// ui2/ui4 masked after arithmetic.
inline int64_t WrapInteger(int64_t v, ir::ElementType t) {
  const int w = ir::BitWidth(t);
  if (w >= 64) return v;
  const uint64_t mask = (uint64_t{1} << w) - 1;
  uint64_t u = static_cast<uint64_t>(v) & mask;
  if (ir::IsSignedInteger(t) && (u >> (w - 1))) u |= ~mask;
  return static_cast<int64_t>(u);
}

}  // namespace hlograph::cpu
