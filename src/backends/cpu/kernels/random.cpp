// Random numbers: stablehlo.rng_bit_generator, bit-exact with XLA:CPU, and
// stablehlo.rng, whose values the spec leaves to the implementation.
//
// rng_bit_generator follows XLA's RngBitGenerator expansion: the state's
// first word is the key, the rest the counter; DEFAULT is PHILOX, as on
// XLA:CPU. Results of at most 32 bits keep the low bits of a 32-bit word,
// 64-bit results take a whole 64-bit word; the bits go to the result
// unchanged whatever its element type (floats get raw bits too, as in XLA).
#include <atomic>
#include <cmath>
#include <cstring>
#include <numbers>
#include <string>
#include <type_traits>

#include "backends/cpu/kernel_util.h"
#include "backends/cpu/kernels/random_bits.h"

namespace hlograph::cpu {
namespace random {
namespace {

uint32_t RotateLeft(uint32_t v, int distance) { return (v << distance) | (v >> (32 - distance)); }

std::array<uint32_t, 2> Split(uint64_t v) {
  return {static_cast<uint32_t>(v), static_cast<uint32_t>(v >> 32)};
}
uint64_t Join(uint32_t lo, uint32_t hi) { return uint64_t{lo} | (uint64_t{hi} << 32); }

std::array<uint32_t, 4> PhiloxCounter(uint64_t lo, uint64_t hi) {
  return {static_cast<uint32_t>(lo), static_cast<uint32_t>(lo >> 32), static_cast<uint32_t>(hi),
          static_cast<uint32_t>(hi >> 32)};
}

// (lo, hi) + delta as one 128-bit number.
void Add128(uint64_t& lo, uint64_t& hi, uint64_t delta) {
  const uint64_t sum = lo + delta;
  if (sum < lo) ++hi;
  lo = sum;
}

}  // namespace

std::array<uint32_t, 2> Threefry2x32(std::array<uint32_t, 2> key, std::array<uint32_t, 2> counter) {
  // Rotation distances of Threefry-2x32 (Random123, Table 4).
  static constexpr int kRotations[8] = {13, 15, 26, 6, 17, 29, 16, 24};
  // The key schedule's third word: the keys' parity with Skein's constant.
  const uint32_t ks[3] = {key[0], key[1], 0x1BD11BDAu ^ key[0] ^ key[1]};
  uint32_t x0 = counter[0] + ks[0];
  uint32_t x1 = counter[1] + ks[1];
  // 20 rounds: five groups of four, each followed by a key injection.
  for (uint32_t group = 0; group < 5; ++group) {
    for (int r = 0; r < 4; ++r) {
      x0 += x1;
      x1 = RotateLeft(x1, kRotations[(group % 2) * 4 + static_cast<uint32_t>(r)]);
      x1 ^= x0;
    }
    x0 += ks[(group + 1) % 3];
    x1 += ks[(group + 2) % 3] + group + 1;
  }
  return {x0, x1};
}

std::array<uint32_t, 4> Philox4x32(std::array<uint32_t, 2> key, std::array<uint32_t, 4> counter) {
  // Multipliers and Weyl key increments of Philox-4x32 (Random123).
  constexpr uint64_t kMul0 = 0xD2511F53u;
  constexpr uint64_t kMul1 = 0xCD9E8D57u;
  constexpr uint32_t kWeyl0 = 0x9E3779B9u;
  constexpr uint32_t kWeyl1 = 0xBB67AE85u;
  std::array<uint32_t, 4> x = counter;
  for (int round = 0; round < 10; ++round) {
    const uint64_t p0 = kMul0 * x[0];
    const uint64_t p1 = kMul1 * x[2];
    x = {static_cast<uint32_t>(p1 >> 32) ^ x[1] ^ key[0], static_cast<uint32_t>(p1),
         static_cast<uint32_t>(p0 >> 32) ^ x[3] ^ key[1], static_cast<uint32_t>(p0)};
    key[0] += kWeyl0;
    key[1] += kWeyl1;
  }
  return x;
}

std::vector<uint32_t> ThreeFryWords32(uint64_t key, uint64_t& counter, const std::vector<int64_t>& shape) {
  const std::array<uint32_t, 2> k = Split(key);
  int64_t count = 1;
  for (int64_t d : shape) count *= d;
  std::vector<uint32_t> out(static_cast<size_t>(count));
  if (shape.empty()) {  // a scalar takes the first word of one block
    out[0] = Threefry2x32(k, Split(counter))[0];
    counter += 1;
    return out;
  }
  // XLA halves the first even dimension (else the largest, rounding up):
  // block b of the halved shape, in row-major order, fills positions 2j and
  // 2j+1 of that dimension.
  const size_t rank = shape.size();
  size_t split = rank;
  for (size_t i = 0; i < rank && split == rank; ++i) {
    if (shape[i] % 2 == 0) split = i;
  }
  if (split == rank) {
    split = 0;
    for (size_t i = 1; i < rank; ++i) {
      if (shape[i] > shape[split]) split = i;
    }
  }
  int64_t outer = 1, inner = 1;
  for (size_t i = 0; i < split; ++i) outer *= shape[i];
  for (size_t i = split + 1; i < rank; ++i) inner *= shape[i];
  const int64_t dim = shape[split];
  const int64_t half = (dim + 1) / 2;
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t j = 0; j < half; ++j) {
      for (int64_t in = 0; in < inner; ++in) {
        const uint64_t block = static_cast<uint64_t>((o * half + j) * inner + in);
        const std::array<uint32_t, 2> y = Threefry2x32(k, Split(counter + block));
        out[static_cast<size_t>((o * dim + 2 * j) * inner + in)] = y[0];
        if (2 * j + 1 < dim) out[static_cast<size_t>((o * dim + 2 * j + 1) * inner + in)] = y[1];
      }
    }
  }
  counter += static_cast<uint64_t>(outer * half * inner);
  return out;
}

std::vector<uint64_t> ThreeFryWords64(uint64_t key, uint64_t& counter, int64_t count) {
  const std::array<uint32_t, 2> k = Split(key);
  std::vector<uint64_t> out(static_cast<size_t>(count));
  for (int64_t i = 0; i < count; ++i) {
    const std::array<uint32_t, 2> y = Threefry2x32(k, Split(counter + static_cast<uint64_t>(i)));
    out[static_cast<size_t>(i)] = Join(y[0], y[1]);
  }
  counter += static_cast<uint64_t>(count);
  return out;
}

std::vector<uint32_t> PhiloxWords32(uint64_t key, uint64_t& lo, uint64_t& hi, int64_t count) {
  const std::array<uint32_t, 2> k = Split(key);
  std::vector<uint32_t> out(static_cast<size_t>(count));
  const int64_t blocks = (count + 3) / 4;
  for (int64_t b = 0; b < blocks; ++b) {
    uint64_t clo = lo, chi = hi;
    Add128(clo, chi, static_cast<uint64_t>(b));
    const std::array<uint32_t, 4> y = Philox4x32(k, PhiloxCounter(clo, chi));
    for (size_t j = 0; j < 4 && 4 * b + static_cast<int64_t>(j) < count; ++j) {
      out[static_cast<size_t>(4 * b) + j] = y[j];
    }
  }
  Add128(lo, hi, static_cast<uint64_t>(blocks));
  return out;
}

std::vector<uint64_t> PhiloxWords64(uint64_t key, uint64_t& lo, uint64_t& hi, int64_t count) {
  const std::array<uint32_t, 2> k = Split(key);
  std::vector<uint64_t> out(static_cast<size_t>(count));
  const int64_t blocks = (count + 1) / 2;
  for (int64_t b = 0; b < blocks; ++b) {
    uint64_t clo = lo, chi = hi;
    Add128(clo, chi, static_cast<uint64_t>(b));
    const std::array<uint32_t, 4> y = Philox4x32(k, PhiloxCounter(clo, chi));
    out[static_cast<size_t>(2 * b)] = Join(y[0], y[1]);
    if (2 * b + 1 < count) out[static_cast<size_t>(2 * b + 1)] = Join(y[2], y[3]);
  }
  Add128(lo, hi, static_cast<uint64_t>(blocks));
  return out;
}

namespace {
std::atomic<uint64_t> g_rng_invocations{0};
}  // namespace

void ResetRngInvocationCount() { g_rng_invocations.store(0); }

}  // namespace random

namespace {

using ir::ElementType;

// Stores the low `BitWidth(type)` bits of each word as one element of `out`
// (sign-extending signed sub-byte integers, which are kept that way).
template <typename Word>
void StoreWords(const std::vector<Word>& words, Tensor& out) {
  const ElementType type = out.element();
  const int width = ir::BitWidth(type);
  const int bytes = ir::StorageBytes(type);
  const uint64_t mask = width >= 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1;
  const bool sign_extend = ir::IsSignedInteger(type) && width < bytes * 8;
  uint8_t* dst = out.mutable_bytes();
  for (size_t i = 0; i < words.size(); ++i) {
    uint64_t v = static_cast<uint64_t>(words[i]) & mask;
    if (sign_extend && ((v >> (width - 1)) & 1)) v |= ~mask;
    std::memcpy(dst + i * static_cast<size_t>(bytes), &v, static_cast<size_t>(bytes));  // little-endian host
  }
}

Status RngBitGenerator(KernelContext& ctx) {
  const Tensor& state = ctx.operand(0);
  const auto* attr = ctx.op.attr("rng_algorithm").as<ir::EnumAttr>();
  std::string algorithm = attr ? attr->value : "DEFAULT";
  if (algorithm == "DEFAULT") algorithm = "PHILOX";  // XLA:CPU's choice
  if (algorithm != "THREE_FRY" && algorithm != "PHILOX") {
    return ctx.Error("does not know the rng algorithm " + algorithm);
  }
  if (state.element() != ElementType::kU64) {
    return ctx.Error("expects a ui64 state (XLA rejects " + state.type().ToString() + ")");
  }
  const int64_t words = state.num_elements();
  const bool three_fry = algorithm == "THREE_FRY";
  if (three_fry ? words != 2 : (words != 2 && words != 3)) {
    return ctx.Error("expects a " + algorithm + " state of " + (three_fry ? "2" : "2 or 3") +
                     " ui64 words, got " + state.type().ToString());
  }
  const ir::Type& out_type = ctx.result_type(1);
  const ElementType element = out_type.element();
  if (ir::IsBool(element) || ir::IsComplex(element)) {
    return ctx.Error("cannot produce random bits of type " + out_type.ToString());
  }
  const bool wide = ir::BitWidth(element) > 32;
  const uint64_t* s = state.data<uint64_t>();
  const uint64_t key = s[0];

  Tensor new_state(state.type());
  uint64_t* ns = new_state.mutable_data<uint64_t>();
  ns[0] = key;
  Tensor out(out_type);
  const int64_t count = out.num_elements();
  if (three_fry) {
    uint64_t counter = s[1];
    if (wide) {
      StoreWords(random::ThreeFryWords64(key, counter, count), out);
    } else {
      StoreWords(random::ThreeFryWords32(key, counter, out_type.shape()), out);
    }
    ns[1] = counter;
  } else {
    // A 2-word state's counter is (s[1], key) as a 128-bit number; only its
    // low word is written back. A 3-word state holds (s[1], s[2]).
    uint64_t lo = s[1];
    uint64_t hi = words == 3 ? s[2] : key;
    if (wide) {
      StoreWords(random::PhiloxWords64(key, lo, hi, count), out);
    } else {
      StoreWords(random::PhiloxWords32(key, lo, hi, count), out);
    }
    ns[1] = lo;
    if (words == 3) ns[2] = hi;
  }
  ctx.results.push_back(std::move(new_state));
  ctx.results.push_back(std::move(out));
  return Status::Ok();
}

// stablehlo.rng. Element e of invocation n uses the Philox-4x32 blocks with
// counter (e low, e high, attempt, n low) and key (kRngKey0, kRngKey1 ^ n
// high): values are a pure function of the invocation count, the element
// index and the operands. Attempts beyond the first happen only when a draw
// is rejected (an unbiased integer range, or a float that rounds to b).
constexpr uint32_t kRngKey0 = 0x243F6A88u;  // digits of pi: an arbitrary fixed key
constexpr uint32_t kRngKey1 = 0x85A308D3u;
constexpr uint32_t kMaxAttempts = 64;

class ElementStream {
 public:
  ElementStream(uint64_t invocation, uint64_t element)
      : key_{kRngKey0, kRngKey1 ^ static_cast<uint32_t>(invocation >> 32)},
        counter_{static_cast<uint32_t>(element), static_cast<uint32_t>(element >> 32), 0,
                 static_cast<uint32_t>(invocation)} {}

  uint64_t Next() {
    if (used_ == 2) {
      ++counter_[2];
      used_ = 0;
    }
    if (used_ == 0) block_ = random::Philox4x32(key_, counter_);
    const uint64_t v = (uint64_t{block_[2 * used_]} << 32) | block_[2 * used_ + 1];
    ++used_;
    return v;
  }
  // Uniform in [0, 1) on a grid of 2^-53.
  double NextUnit() { return static_cast<double>(Next() >> 11) * 0x1p-53; }

 private:
  std::array<uint32_t, 2> key_;
  std::array<uint32_t, 4> counter_;
  std::array<uint32_t, 4> block_{};
  size_t used_ = 0;
};

template <typename T>
T UniformFloat(T a, T b, ElementStream& stream) {
  const double lo = static_cast<double>(Load(a));
  const double hi = static_cast<double>(Load(b));
  if (!(lo < hi)) return a;
  const double span = hi - lo;
  for (uint32_t attempt = 0; attempt < kMaxAttempts; ++attempt) {
    const double u = stream.NextUnit();
    // lo*(1-u) + hi*u cannot overflow where hi - lo does.
    const double x = std::isfinite(span) ? lo + u * span : lo * (1 - u) + hi * u;
    const T t = Store<T>(static_cast<ComputeType<T>>(x));
    const double back = static_cast<double>(Load(t));
    if (back >= lo && back < hi) return t;  // rounding may reach b: draw again
  }
  return a;
}

template <typename T>
T UniformInt(T a, T b, ElementStream& stream) {
  if (!(a < b)) return a;
  using U = std::make_unsigned_t<T>;
  const uint64_t range = static_cast<U>(static_cast<U>(b) - static_cast<U>(a));
  // Reject the lowest 2^64 mod range words so every residue is equally likely.
  const uint64_t threshold = (uint64_t{0} - range) % range;
  uint64_t w = stream.Next();
  for (uint32_t attempt = 1; w < threshold && attempt < kMaxAttempts; ++attempt) w = stream.Next();
  return static_cast<T>(static_cast<U>(static_cast<U>(a) + static_cast<U>(w % range)));
}

// Box-Muller: mean a, standard deviation b.
template <typename T>
T Normal(T a, T b, ElementStream& stream) {
  const double u1 = 1.0 - stream.NextUnit();  // (0, 1]: log stays finite
  const double u2 = stream.NextUnit();
  const double z = std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * std::numbers::pi * u2);
  return Store<T>(static_cast<ComputeType<T>>(static_cast<double>(Load(a)) + static_cast<double>(Load(b)) * z));
}

Status Rng(KernelContext& ctx) {
  const ir::Type& type = ctx.result_type(0);
  const Tensor& shape = ctx.operand(2);
  bool shape_matches = shape.num_elements() == type.rank();
  for (int64_t i = 0; shape_matches && i < shape.num_elements(); ++i) {
    shape_matches = ReadInt(shape, i) == type.shape()[static_cast<size_t>(i)];
  }
  if (!shape_matches) return ctx.Error("expects the shape operand to equal the result's shape " + type.ToString());
  const auto* attr = ctx.op.attr("rng_distribution").as<ir::EnumAttr>();
  const bool normal = attr && attr->value == "NORMAL";
  if (!normal && !(attr && attr->value == "UNIFORM")) return ctx.Error("does not know this rng distribution");
  const ElementType element = type.element();
  if (ir::IsComplex(element) || (normal && !ir::IsFloat(element))) {
    return ctx.Error("cannot draw " + std::string(normal ? "NORMAL" : "UNIFORM") + " numbers of type " +
                     type.ToString());
  }
  const uint64_t invocation = random::g_rng_invocations.fetch_add(1);
  Tensor out(type);
  const int64_t count = out.num_elements();
  DispatchElementType(element, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (!kIsComplex<T>) {
      const T a = ctx.operand(0).data<T>()[0];
      const T b = ctx.operand(1).data<T>()[0];
      T* dst = out.mutable_data<T>();
      for (int64_t e = 0; e < count; ++e) {
        if constexpr (std::is_same_v<T, bool>) {
          dst[e] = a;  // [false, true) holds only false
        } else {
          ElementStream stream(invocation, static_cast<uint64_t>(e));
          if constexpr (kIsFloat<T>) {
            dst[e] = normal ? Normal(a, b, stream) : UniformFloat(a, b, stream);
          } else {
            dst[e] = UniformInt(a, b, stream);
          }
        }
      }
    }
  });
  ctx.results.push_back(std::move(out));
  return Status::Ok();
}

}  // namespace

void RegisterRandomKernels(KernelRegistry& r) {
  r.Register(ir::OpId::kRngBitGenerator, &RngBitGenerator);
  r.Register(ir::OpId::kRng, &Rng);
}

}  // namespace hlograph::cpu
