// The source every generated kernel starts with: the f16/bf16 headers, the
// fixed-width integer types (NVRTC has no <cstdint>) and the hlo_* device
// helpers that ElementalExpr's expressions call. Each helper is a port of
// the CPU interpreter's element function (src/backends/cpu/kernels), so the
// two backends agree bit for bit wherever CUDA's math library does. The f8
// and complex helpers follow (kernel_prelude_narrow.cpp, _complex.cpp).
#include <string>

#include "backends/gpu/codegen/elemental.h"
#include "backends/gpu/codegen/elemental_internal.h"

namespace hlograph::gpu {
namespace {

constexpr const char* kPrelude = R"PRELUDE(// ---- hlograph kernel prelude ----
#include <cuda_fp16.h>
#include <cuda_bf16.h>

typedef signed char int8_t;
typedef short int16_t;
typedef int int32_t;
typedef long long int64_t;
typedef unsigned char uint8_t;
typedef unsigned short uint16_t;
typedef unsigned int uint32_t;
typedef unsigned long long uint64_t;

// Programmatic dependent launch (sm_90): a kernel may be launched while the
// kernels it depends on finish. It waits here for their results before it
// touches memory they write (a product first loads its weights, which they
// do not), then lets its own dependents start launching (they wait for it
// in turn), so one kernel waits ahead of the running one. Without a
// programmatic launch both are no-ops.
__device__ __forceinline__ void hlo_wait_for_producers() {
#if __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}

// A kernel with Fusion::dependents_at_start lets its dependents launch
// first thing instead: they load their weights while it waits and runs.
__device__ __forceinline__ void hlo_start_dependents() {
#if __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}

// Asks the copy engines to bring the bytes [from, to) into L2 (sm_90+), to
// be read by blocks not yet running: a hint no thread waits for, so the
// ragged 16-byte ends are left out. A range of more than `most` bytes (a
// window that skips most of them) is left alone. The first `sharers`
// blocks (about one per SM, those that start first) each take an equal
// share: one SM's copy engine alone would take longer than the kernel.
__device__ __forceinline__ void hlo_prefetch_l2(const char* from, const char* to, unsigned long long most,
                                                unsigned int sharers) {
#if __CUDA_ARCH__ >= 900
  unsigned long long lo, hi;
  asm("cvta.to.global.u64 %0, %1;" : "=l"(lo) : "l"(from));
  asm("cvta.to.global.u64 %0, %1;" : "=l"(hi) : "l"(to));
  lo = (lo + 15ull) & ~15ull;
  hi &= ~15ull;
  sharers = sharers < gridDim.x ? sharers : gridDim.x;
  if (blockIdx.x >= sharers || hi <= lo || hi - lo > most) return;
  const unsigned long long share = ((hi - lo) / sharers + 15ull) & ~15ull;
  const unsigned long long begin = lo + blockIdx.x * share, end = begin + share < hi ? begin + share : hi;
  const unsigned long long kChunk = 4096ull;
  for (unsigned long long at = begin + threadIdx.x * kChunk; at < end; at += blockDim.x * kChunk) {
    const unsigned int bytes = (unsigned int)(end - at < kChunk ? end - at : kChunk);
    asm volatile("cp.async.bulk.prefetch.L2.global [%0], %1;" ::"l"(at), "r"(bytes) : "memory");
  }
#endif
}

#if __CUDA_ARCH__ >= 900
// Thread-block clusters (split products): every block writes its partial
// sums into the first block's shared memory, and that block adds them. The
// cluster barrier serves twice: every thread arrives when it starts and
// waits before it writes another block's shared memory (every block of the
// cluster has then started); it arrives again once it has written
// (release), and the first block waits (acquire) before it reads. The
// others exit without waiting: an exited thread counts as arrived.
__device__ __forceinline__ void hlo_cluster_arrive_relaxed() {
  asm volatile("barrier.cluster.arrive.relaxed;" ::: "memory");
}
__device__ __forceinline__ void hlo_cluster_arrive_release() {
  asm volatile("barrier.cluster.arrive.release;" ::: "memory");
}
__device__ __forceinline__ void hlo_cluster_wait() { asm volatile("barrier.cluster.wait.acquire;" ::: "memory"); }
// Stores `v` in block `rank`'s shared memory at the place `local` has in this block's.
__device__ __forceinline__ void hlo_cluster_store(float* local, unsigned int rank, float v) {
  const unsigned int here = (unsigned int)__cvta_generic_to_shared(local);
  unsigned int there;
  asm volatile("mapa.shared::cluster.u32 %0, %1, %2;" : "=r"(there) : "r"(here), "r"(rank));
  asm volatile("st.shared::cluster.f32 [%0], %1;" ::"r"(there), "f"(v) : "memory");
}
#endif

// Integer traits: U the unsigned twin, S the signed twin, W the unsigned
// type arithmetic wraps in (at least 32 bits, so that no operand is
// promoted to int and overflows).
template <typename T> struct hlo_int;
#define HLO_INT_TRAITS(T, U_, S_, W_, SIGNED, BITS) \
  template <> struct hlo_int<T> { typedef U_ U; typedef S_ S; typedef W_ W; \
    static constexpr bool kSigned = SIGNED; static constexpr int kBits = BITS; };
HLO_INT_TRAITS(int8_t, uint8_t, int8_t, uint32_t, true, 8)
HLO_INT_TRAITS(int16_t, uint16_t, int16_t, uint32_t, true, 16)
HLO_INT_TRAITS(int32_t, uint32_t, int32_t, uint32_t, true, 32)
HLO_INT_TRAITS(int64_t, uint64_t, int64_t, uint64_t, true, 64)
HLO_INT_TRAITS(uint8_t, uint8_t, int8_t, uint32_t, false, 8)
HLO_INT_TRAITS(uint16_t, uint16_t, int16_t, uint32_t, false, 16)
HLO_INT_TRAITS(uint32_t, uint32_t, int32_t, uint32_t, false, 32)
HLO_INT_TRAITS(uint64_t, uint64_t, int64_t, uint64_t, false, 64)
#undef HLO_INT_TRAITS

// ---- f16 / bf16: rounding and raw bits ------------------------------------

// XLA rounds every f16/bf16 op's result to the format; fused expressions
// compute in float and round through these after each op.
__device__ __forceinline__ float hlo_round_f16(float x) { return __half2float(__float2half_rn(x)); }
// bf16 rounding goes through the packed conversion (F2FP, on a full-rate
// pipe): the one-value cvt.rn.bf16.f32 is F2F, on the quarter-rate
// conversion unit, which bounded bf16 loop kernels (docs/PERF.md, "bf16
// rounding at full rate").
// hlo_bf16_high leaves x's bf16 in the high half, hlo_bf16_low in the low.
__device__ __forceinline__ uint32_t hlo_bf16_high(float x) {
#if __CUDA_ARCH__ >= 800
  uint32_t p;
  asm("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(p) : "f"(x), "f"(0.0f));
  return p & 0xffff0000u;
#else
  return (uint32_t)__bfloat16_as_ushort(__float2bfloat16_rn(x)) << 16;
#endif
}
__device__ __forceinline__ uint16_t hlo_bf16_low(float x) {
#if __CUDA_ARCH__ >= 800
  uint32_t p;
  asm("cvt.rn.bf16x2.f32 %0, %1, %2;" : "=r"(p) : "f"(0.0f), "f"(x));
  return (uint16_t)p;
#else
  return __bfloat16_as_ushort(__float2bfloat16_rn(x));
#endif
}
__device__ __forceinline__ float hlo_round_bf16(float x) { return __uint_as_float(hlo_bf16_high(x)); }

// bf16 add, subtract and multiply in one packed FMA (full rate) instead of
// an f32 op and a rounding: a float holding a bf16 value has it in its high
// half and zeros below, which fma.rn.bf16x2 reads as (value, +0). The high
// half gets the result rounded once (as a bf16 unit computes it), the low
// half 0 * y + z with z = +0 or (a multiply) -0, so +0: the float holds the
// bf16 result, as hlo_round_bf16 leaves it. A NaN stays a NaN.
#if __CUDA_ARCH__ >= 800
__device__ __forceinline__ float hlo_bf16x2_fma(float a, uint32_t b, float c) {
  uint32_t d;
  asm("fma.rn.bf16x2 %0, %1, %2, %3;" : "=r"(d) : "r"(__float_as_uint(a)), "r"(b), "r"(__float_as_uint(c)));
  return __uint_as_float(d);
}
__device__ __forceinline__ float hlo_bf16_add(float a, float b) { return hlo_bf16x2_fma(a, 0x3f803f80u, b); }
__device__ __forceinline__ float hlo_bf16_sub(float a, float b) { return hlo_bf16x2_fma(b, 0xbf80bf80u, a); }
__device__ __forceinline__ float hlo_bf16_mul(float a, float b) {
  return hlo_bf16x2_fma(a, __float_as_uint(b), __uint_as_float(0x80008000u));
}
#else
__device__ __forceinline__ float hlo_bf16_add(float a, float b) { return hlo_round_bf16(a + b); }
__device__ __forceinline__ float hlo_bf16_sub(float a, float b) { return hlo_round_bf16(a - b); }
__device__ __forceinline__ float hlo_bf16_mul(float a, float b) { return hlo_round_bf16(__fmul_rn(a, b)); }
#endif

// The bits of a float that holds an f16/bf16 value; a NaN keeps its sign and
// the top of its payload (the conversion instructions may canonicalise it).
__device__ __forceinline__ uint16_t hlo_f16_bits(float x) {
  if (isnan(x)) {
    const uint32_t u = __float_as_uint(x);
    const uint32_t payload = (u >> 13) & 0x3ffu;
    return (uint16_t)(((u >> 16) & 0x8000u) | 0x7c00u | (payload ? payload : 0x200u));
  }
  return __half_as_ushort(__float2half_rn(x));
}
__device__ __forceinline__ float hlo_f16_from_bits(uint16_t b) {
  if ((b & 0x7c00u) == 0x7c00u && (b & 0x3ffu) != 0) {
    return __uint_as_float(((uint32_t)(b & 0x8000u) << 16) | 0x7f800000u | ((uint32_t)(b & 0x3ffu) << 13));
  }
  return __half2float(__ushort_as_half(b));
}
__device__ __forceinline__ uint16_t hlo_bf16_bits(float x) {
  const uint16_t b = (uint16_t)(__float_as_uint(x) >> 16);
  return (isnan(x) && (b & 0x7fu) == 0) ? (uint16_t)(b | 0x40u) : b;  // keep it a NaN
}
__device__ __forceinline__ float hlo_bf16_from_bits(uint16_t b) { return __uint_as_float((uint32_t)b << 16); }

// Loads and stores of f16/bf16 that keep NaNs' signs and payloads (the
// conversion instructions make them the canonical NaN), so that values
// bitcast to and from integers, and TOTALORDER comparisons, see the bits.
__device__ __forceinline__ float hlo_load_f16(__half h) { return hlo_f16_from_bits(__half_as_ushort(h)); }
__device__ __forceinline__ __half hlo_store_f16(float x) { return __ushort_as_half(hlo_f16_bits(x)); }
__device__ __forceinline__ __nv_bfloat16 hlo_store_bf16(float x) {
  return __ushort_as_bfloat16(isnan(x) ? hlo_bf16_bits(x) : hlo_bf16_low(x));
}
// A value an elementwise body computed is a float holding its bf16 exactly
// (loads are exact, every op's result is rounded): its store takes the
// high half of the bits, no conversion (measured on the H200: 5% of a
// bf16 gelu loop). Sums and products accumulated in f32 use the rounding
// store above.
__device__ __forceinline__ __nv_bfloat16 hlo_store_exact_bf16(float x) {
  return __ushort_as_bfloat16(hlo_bf16_bits(x));
}

// ---- integer arithmetic (XLA's rules) -------------------------------------

// x / 0 = -1 (all ones); INT_MIN / -1 = INT_MIN.
template <typename T> __device__ __forceinline__ T hlo_idiv(T a, T b) {
  typedef typename hlo_int<T>::W W;
  if (b == 0) return (T)~(W)0;
  if constexpr (hlo_int<T>::kSigned) {
    if (b == (T)-1) return (T)((W)0 - (W)a);
  }
  return (T)(a / b);
}
// x % 0 = x; INT_MIN % -1 = 0; the sign is the dividend's.
template <typename T> __device__ __forceinline__ T hlo_irem(T a, T b) {
  if (b == 0) return a;
  if constexpr (hlo_int<T>::kSigned) {
    if (b == (T)-1) return 0;
  }
  return (T)(a % b);
}
// Square-and-multiply over the exponent's low six bits (XLA's loop); a
// negative exponent gives 0 except for bases 1 and -1.
template <typename T> __device__ __forceinline__ T hlo_ipow(T a, T b) {
  typedef typename hlo_int<T>::W W;
  if constexpr (hlo_int<T>::kSigned) {
    if (b < 0) {
      if (a == 1) return 1;
      if (a == (T)-1) return (b & 1) ? (T)-1 : (T)1;
      return 0;
    }
  }
  W base = (W)a, acc = 1, e = (W)(typename hlo_int<T>::U)b;
  for (int i = 0; i < 6; ++i) {
    if (e & 1) acc *= base;
    base *= base;
    e >>= 1;
  }
  return (T)acc;
}
// |INT_MIN| = INT_MIN.
template <typename T> __device__ __forceinline__ T hlo_iabs(T a) {
  typedef typename hlo_int<T>::W W;
  if constexpr (hlo_int<T>::kSigned) {
    return a < 0 ? (T)((W)0 - (W)a) : a;
  } else {
    return a;
  }
}
template <typename T> __device__ __forceinline__ T hlo_isign(T a) {
  if constexpr (hlo_int<T>::kSigned) {
    return a > 0 ? (T)1 : (a < 0 ? (T)-1 : (T)0);
  } else {
    return a != 0 ? (T)1 : (T)0;
  }
}
template <typename T> __device__ __forceinline__ T hlo_imax(T a, T b) { return a >= b ? a : b; }
template <typename T> __device__ __forceinline__ T hlo_imin(T a, T b) { return a <= b ? a : b; }
template <typename T> __device__ __forceinline__ T hlo_iclamp(T lo, T x, T hi) {
  const T m = x >= lo ? x : lo;
  return m <= hi ? m : hi;
}
// Shift amounts are read as unsigned numbers of the operand's width; one of
// the width or more gives 0 (logical) or the sign fill (arithmetic, where
// the top bit is the sign for unsigned types too).
template <typename T> __device__ __forceinline__ T hlo_shl(T a, T b) {
  typedef typename hlo_int<T>::U U;
  typedef typename hlo_int<T>::W W;
  const U s = (U)b;
  if (s >= (U)hlo_int<T>::kBits) return 0;
  return (T)((W)(U)a << s);
}
template <typename T> __device__ __forceinline__ T hlo_shr_logical(T a, T b) {
  typedef typename hlo_int<T>::U U;
  typedef typename hlo_int<T>::W W;
  const U s = (U)b;
  if (s >= (U)hlo_int<T>::kBits) return 0;
  return (T)((W)(U)a >> s);
}
template <typename T> __device__ __forceinline__ T hlo_shr_arithmetic(T a, T b) {
  typedef typename hlo_int<T>::U U;
  typedef typename hlo_int<T>::S S;
  const U s = (U)b;
  const S v = (S)a;
  if (s >= (U)hlo_int<T>::kBits) return v < 0 ? (T)-1 : (T)0;
  return (T)(S)(v >> s);
}
template <typename T> __device__ __forceinline__ T hlo_popcnt(T a) {
  return (T)__popcll((unsigned long long)(typename hlo_int<T>::U)a);
}
template <typename T> __device__ __forceinline__ T hlo_clz(T a) {
  return (T)(__clzll((long long)(typename hlo_int<T>::U)a) - (64 - hlo_int<T>::kBits));
}
// chlo.mulhi: the high half of the double-width product.
template <typename T> __device__ __forceinline__ T hlo_mulhi(T a, T b) {
  if constexpr (hlo_int<T>::kBits == 64) {
    if constexpr (hlo_int<T>::kSigned) {
      return (T)__mul64hi((long long)a, (long long)b);
    } else {
      return (T)__umul64hi((unsigned long long)a, (unsigned long long)b);
    }
  } else if constexpr (hlo_int<T>::kSigned) {
    return (T)(((long long)a * (long long)b) >> hlo_int<T>::kBits);
  } else {
    return (T)(((unsigned long long)a * (unsigned long long)b) >> hlo_int<T>::kBits);
  }
}

template <typename T> __device__ __forceinline__ T hlo_isquare(T a) {
  typedef typename hlo_int<T>::W W;
  return (T)((W)a * (W)a);
}

// ---- float arithmetic -----------------------------------------------------

// Products go through the _rn intrinsics, which are never contracted into a
// fused multiply-add: each op rounds on its own, as in the interpreter,
// whatever --fmad says.
__device__ __forceinline__ float hlo_fsquare(float a) { return __fmul_rn(a, a); }
__device__ __forceinline__ double hlo_fsquare(double a) { return __dmul_rn(a, a); }
template <typename F> __device__ __forceinline__ bool hlo_is_pos_inf(F x) { return isinf(x) && x > (F)0; }
template <typename F> __device__ __forceinline__ bool hlo_is_neg_inf(F x) { return isinf(x) && x < (F)0; }

// IEEE 754-2019 maximum/minimum: NaN wins, +0 > -0.
template <typename F> __device__ __forceinline__ F hlo_fmax(F a, F b) {
  if (isnan(a)) return a;
  if (isnan(b)) return b;
  if (a == b) return signbit(a) ? b : a;
  return a > b ? a : b;
}
template <typename F> __device__ __forceinline__ F hlo_fmin(F a, F b) {
  if (isnan(a)) return a;
  if (isnan(b)) return b;
  if (a == b) return signbit(a) ? a : b;
  return a < b ? a : b;
}
// clamp = minimum(maximum(x, lo), hi).
template <typename F> __device__ __forceinline__ F hlo_fclamp(F lo, F x, F hi) {
  return hlo_fmin<F>(hlo_fmax<F>(x, lo), hi);
}
// NaN stays NaN, zeros keep their sign.
template <typename F> __device__ __forceinline__ F hlo_fsign(F a) {
  if (isnan(a)) return a;
  return copysign(a != (F)0 ? (F)1 : (F)0, a);
}
// 1 / (1 + e^-x), written so that neither branch overflows.
__device__ __forceinline__ float hlo_logistic(float a) {
  if (isnan(a)) return a;
  if (a >= 0.0f) return __fdiv_rn(1.0f, 1.0f + expf(-a));
  const float e = expf(a);
  return __fdiv_rn(e, 1.0f + e);
}
// Results rounded to bf16 or f16 take the hardware's approximations:
// tanh.approx's relative error is below 2^-10.9 and __expf's a few f32 ulps,
// under the rounding of a 16-bit result (half an ulp: 2^-9 for bf16,
// 2^-12 for f16, which they may move by one ulp), at a fraction of the
// instructions (tanhf and expf bound a bf16 gelu's loop by arithmetic).
__device__ __forceinline__ float hlo_tanh_narrow(float a) {
#if __CUDA_ARCH__ >= 750
  // tanh(a) = a (1 - a^2/3 ...): below 2^-10, a itself to 2^-21 (and a
  // subnormal is not flushed to zero).
  if (fabsf(a) < 0x1p-10f) return a;
  float r;
  asm("tanh.approx.f32 %0, %1;" : "=f"(r) : "f"(a));
  return r;
#else
  return tanhf(a);
#endif
}
__device__ __forceinline__ float hlo_exp_narrow(float a) { return __expf(a); }
__device__ __forceinline__ float hlo_logistic_narrow(float a) { return __frcp_rn(1.0f + __expf(-a)); }
__device__ __forceinline__ double hlo_logistic(double a) {
  if (isnan(a)) return a;
  if (a >= 0.0) return __ddiv_rn(1.0, 1.0 + exp(-a));
  const double e = exp(a);
  return __ddiv_rn(e, 1.0 + e);
}
// f32 cbrt through double and one Newton step: correctly rounded in all but
// the hardest cases, as the CPU backend's.
__device__ __forceinline__ float hlo_cbrt(float a) {
  const double r = cbrt((double)a);
  if (r == 0.0 || !isfinite(r)) return (float)r;
  return (float)(r - (r * r * r - (double)a) / (3.0 * r * r));
}
__device__ __forceinline__ double hlo_cbrt(double a) { return cbrt(a); }

// Total order of float bits: -NaN < -inf < ... < -0 < +0 < ... < inf < NaN.
__device__ __forceinline__ uint32_t hlo_total_order_key(float x) {
  const uint32_t b = __float_as_uint(x);
  return (b & 0x80000000u) ? ~b : (b | 0x80000000u);
}
__device__ __forceinline__ uint64_t hlo_total_order_key(double x) {
  const uint64_t b = (uint64_t)__double_as_longlong(x);
  return (b & 0x8000000000000000ull) ? ~b : (b | 0x8000000000000000ull);
}

// ---- conversions (XLA's rules) --------------------------------------------

// float -> signed integer of `bits` bits: truncate, saturate, NaN -> 0.
template <typename F> __device__ __forceinline__ int64_t hlo_float_to_signed(F d, int bits) {
  if (isnan(d)) return 0;
  const F hi = (F)(1ull << (bits - 1));  // a power of two: exact
  if (d <= -hi) return (int64_t)(~0ull << (bits - 1));
  if (d >= hi) return (int64_t)((1ull << (bits - 1)) - 1);
  return (int64_t)trunc(d);
}
// float -> unsigned integer of `bits` bits: truncate, saturate, NaN -> 0.
template <typename F> __device__ __forceinline__ uint64_t hlo_float_to_unsigned(F d, int bits) {
  if (isnan(d) || d <= (F)0) return 0;
  const F hi = (F)2 * (F)(1ull << (bits - 1));
  if (d >= hi) return bits >= 64 ? ~0ull : ((1ull << bits) - 1);
  return (uint64_t)trunc(d);
}
// Integer -> f16, correctly rounded: below 2^53 the double is exact, above
// it the result is infinity either way.
__device__ __forceinline__ float hlo_f16_from_double(double d) { return __half2float(__double2half(d)); }

// ---- reduce_precision (XLA's bit algorithm) -------------------------------

// Rounds the mantissa to `mantissa_bits` (nearest even), then sends exponents
// beyond the `exponent_bits` range to signed infinity and those at or below
// its smallest normal exponent to signed zero. A NaN stays the same NaN.
template <typename U>
__device__ __forceinline__ U hlo_reduce_precision_bits(U x, int src_exponent_bits, int src_mantissa_bits,
                                                       int exponent_bits, int mantissa_bits) {
  const U sign_mask = (U)((U)1 << (src_exponent_bits + src_mantissa_bits));
  const U exp_mask = (U)((U)(((U)1 << src_exponent_bits) - 1) << src_mantissa_bits);
  const U abs_bits = (U)(x & (U)(sign_mask - 1));
  const bool is_nan = abs_bits > exp_mask;
  U r = x;
  if (mantissa_bits < src_mantissa_bits) {
    const int drop = src_mantissa_bits - mantissa_bits;
    const U last_kept = (U)((U)1 << drop);
    const U bias = (U)((U)(last_kept >> 1) - 1 + ((r >> drop) & 1));
    r = (U)((U)(r + bias) & (U)~(U)(last_kept - 1));
  }
  if (exponent_bits < src_exponent_bits) {
    const long long src_bias = (1ll << (src_exponent_bits - 1)) - 1;
    const long long reduced_bias = (1ll << (exponent_bits - 1)) - 1;
    const unsigned long long max_exp = (unsigned long long)(src_bias + reduced_bias);
    const unsigned long long min_exp = (unsigned long long)(src_bias - reduced_bias);
    const unsigned long long e = (unsigned long long)(r & exp_mask);
    const U signed_zero = (U)(r & sign_mask);
    if (e > (max_exp << src_mantissa_bits)) {
      r = (U)(signed_zero | exp_mask);
    } else if (e <= (min_exp << src_mantissa_bits)) {
      r = signed_zero;
    }
  }
  return is_nan ? x : r;
}
__device__ __forceinline__ float hlo_reduce_precision(float x, int e, int m) {
  return __uint_as_float(hlo_reduce_precision_bits<uint32_t>(__float_as_uint(x), 8, 23, e, m));
}
__device__ __forceinline__ double hlo_reduce_precision(double x, int e, int m) {
  return __longlong_as_double(
      (long long)hlo_reduce_precision_bits<uint64_t>((uint64_t)__double_as_longlong(x), 11, 52, e, m));
}
__device__ __forceinline__ float hlo_reduce_precision_f16(float x, int e, int m) {
  return hlo_f16_from_bits(hlo_reduce_precision_bits<uint16_t>(hlo_f16_bits(x), 5, 10, e, m));
}
__device__ __forceinline__ float hlo_reduce_precision_bf16(float x, int e, int m) {
  return hlo_bf16_from_bits(hlo_reduce_precision_bits<uint16_t>(hlo_bf16_bits(x), 8, 7, e, m));
}

// ---- next_after -----------------------------------------------------------

// The neighbour of x towards y in x's 16-bit format, by stepping its bits:
// NaN if either is NaN, y if they are equal, the smallest denormal with
// y's sign when x is zero.
__device__ __forceinline__ uint16_t hlo_next_after_bits16(uint16_t b, float x, float y) {
  if (x == 0.0f) return (uint16_t)(1u | (signbit(y) ? 0x8000u : 0u));
  return (uint16_t)(((y > x) == (x > 0.0f)) ? b + 1u : b - 1u);
}
__device__ __forceinline__ float hlo_next_after_f16(float x, float y) {
  if (isnan(x)) return x;
  if (isnan(y)) return y;
  if (x == y) return y;
  return hlo_f16_from_bits(hlo_next_after_bits16(hlo_f16_bits(x), x, y));
}
__device__ __forceinline__ float hlo_next_after_bf16(float x, float y) {
  if (isnan(x)) return x;
  if (isnan(y)) return y;
  if (x == y) return y;
  return hlo_bf16_from_bits(hlo_next_after_bits16(hlo_bf16_bits(x), x, y));
}

// The CHLO special functions (erf, erf_inv, lgamma, digamma, ...), in
// double with the CPU backend's algorithms: ir/scalar_math.h, after this.
)PRELUDE";

}  // namespace

// ir/scalar_math.h as text (the build embeds it): the interpreter's
// special functions, compiled for the device.
constexpr const char* kScalarMath =
#include "scalar_math.inc"
    ;

const std::string& KernelPrelude() {
  static const std::string* const prelude =
      new std::string(kPrelude + std::string(kScalarMath) + elemental::NarrowFloatPrelude() + elemental::ComplexPrelude() +
                      "// ---- end of prelude ----\n");
  return *prelude;
}

const char* KernelIncludeDir() {
#ifdef HLOGRAPH_CUDA_INCLUDE_DIR
  return HLOGRAPH_CUDA_INCLUDE_DIR;
#else
  return "/usr/local/cuda/include";
#endif
}

}  // namespace hlograph::gpu
