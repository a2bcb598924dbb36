// stablehlo.rng_bit_generator: counter-based generators, one thread per
// output word, with XLA's layout of the words (the CPU interpreter's
// src/backends/cpu/kernels/random.cpp, which matches XLA bit for bit).
#include "backends/gpu/codegen/body_emitter.h"

namespace hlograph::gpu::emit {

namespace {

// Threefry-2x32 (20 rounds) and Philox-4x32 (10 rounds), Salmon et al.,
// "Parallel random numbers: as easy as 1, 2, 3" (SC 2011).
constexpr const char* kGenerators = R"(
__device__ __forceinline__ uint32_t hlo_rotl32(uint32_t v, int d) { return (v << d) | (v >> (32 - d)); }
__device__ void hlo_threefry2x32(uint32_t k0, uint32_t k1, uint32_t c0, uint32_t c1, uint32_t* y) {
  const int rot[8] = {13, 15, 26, 6, 17, 29, 16, 24};
  const uint32_t ks[3] = {k0, k1, 0x1BD11BDAu ^ k0 ^ k1};
  uint32_t x0 = c0 + ks[0], x1 = c1 + ks[1];
  for (uint32_t g = 0; g < 5; ++g) {
    for (int r = 0; r < 4; ++r) {
      x0 += x1;
      x1 = hlo_rotl32(x1, rot[(g % 2) * 4 + r]);
      x1 ^= x0;
    }
    x0 += ks[(g + 1) % 3];
    x1 += ks[(g + 2) % 3] + g + 1;
  }
  y[0] = x0;
  y[1] = x1;
}
__device__ void hlo_philox4x32(uint32_t k0, uint32_t k1, uint64_t lo, uint64_t hi, uint32_t* y) {
  uint32_t x[4] = {(uint32_t)lo, (uint32_t)(lo >> 32), (uint32_t)hi, (uint32_t)(hi >> 32)};
  for (int r = 0; r < 10; ++r) {
    const uint64_t p0 = 0xD2511F53ull * x[0], p1 = 0xCD9E8D57ull * x[2];
    const uint32_t n0 = (uint32_t)(p1 >> 32) ^ x[1] ^ k0, n1 = (uint32_t)p1;
    const uint32_t n2 = (uint32_t)(p0 >> 32) ^ x[3] ^ k1, n3 = (uint32_t)p0;
    x[0] = n0, x[1] = n1, x[2] = n2, x[3] = n3;
    k0 += 0x9E3779B9u;
    k1 += 0xBB67AE85u;
  }
  for (int i = 0; i < 4; ++i) y[i] = x[i];
}
// (lo, hi) + d as one 128-bit number.
__device__ __forceinline__ void hlo_add128(uint64_t& lo, uint64_t& hi, uint64_t d) {
  const uint64_t s = lo + d;
  if (s < lo) ++hi;
  lo = s;
}
)";

}  // namespace

// The state's first word is the key, the rest the counter; DEFAULT is
// PHILOX. Results of at most 32 bits take the low bits of a 32-bit word,
// 64-bit results a whole 64-bit word; the bits go to the result unchanged
// whatever its element type. Thread 0 also writes the advanced state.
StatusOr<KernelSource> EmitRngBitGenerator(const Fusion& f, const EmitOptions& options) {
  const ir::Operation& op = *f.ops.back();
  const auto* attr = op.attr("rng_algorithm").as<ir::EnumAttr>();
  std::string algorithm = attr ? attr->value : "DEFAULT";
  if (algorithm == "DEFAULT") algorithm = "PHILOX";
  const bool three_fry = algorithm == "THREE_FRY";
  if (!three_fry && algorithm != "PHILOX") return Status::Error("rng algorithm " + algorithm + " is not supported");
  const ir::Type& state_type = op.operand(0)->type();
  const int64_t words = state_type.NumElements();
  if (state_type.element() != ir::ElementType::kU64 || (three_fry ? words != 2 : (words != 2 && words != 3))) {
    return Status::Error("rng_bit_generator expects a state of 2 (or for PHILOX 3) ui64 words");
  }
  const ir::Type& out_type = op.result(1)->type();
  const ir::ElementType element = out_type.element();
  const int width = ir::BitWidth(element);
  if (width % 8 != 0 || ir::IsComplex(element)) {
    return Status::Error("rng_bit_generator of " + out_type.ToString() + " is not supported on the GPU yet");
  }
  const bool wide = width > 32;
  const int64_t count = out_type.NumElements();
  const std::vector<int64_t>& shape = out_type.shape();

  // THREE_FRY with 32-bit words: XLA halves the first even dimension (else
  // the largest, rounding up); block b of the halved shape fills positions
  // 2j and 2j+1 of that dimension.
  size_t split = shape.size();
  for (size_t i = 0; i < shape.size() && split == shape.size(); ++i) {
    if (shape[i] % 2 == 0) split = i;
  }
  if (split == shape.size() && !shape.empty()) {
    split = 0;
    for (size_t i = 1; i < shape.size(); ++i) {
      if (shape[i] > shape[split]) split = i;
    }
  }
  int64_t outer = 1, inner = 1, dim = 1;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i < split) outer *= shape[i];
    if (i > split) inner *= shape[i];
    if (i == split) dim = shape[i];
  }
  const int64_t half = (dim + 1) / 2;
  int64_t blocks;
  if (three_fry) {
    blocks = wide ? count : (shape.empty() ? 1 : outer * half * inner);
  } else {
    blocks = wide ? (count + 1) / 2 : (count + 3) / 4;
  }

  std::ostringstream body;
  BodyEmitter e(f, body);
  e.Line("const long long N = " + std::to_string(count) + "LL;");
  HLOGRAPH_ASSIGN(std::string key, e.Emit(op.operand(0), {"0"}));
  HLOGRAPH_ASSIGN(std::string c1, e.Emit(op.operand(0), {"1"}));
  std::string c2 = key;  // a 2-word PHILOX state's counter is (s[1], key)
  if (words == 3) {
    HLOGRAPH_ASSIGN(c2, e.Emit(op.operand(0), {"2"}));
  }
  e.Line("const uint32_t k0 = (uint32_t)" + key + ", k1 = (uint32_t)(" + key + " >> 32);");
  e.Open("if (blockIdx.x == 0 && threadIdx.x == 0)");
  e.Line("uint64_t lo = " + c1 + ", hi = " + c2 + ";");
  e.Line(three_fry ? "lo += " + std::to_string(blocks) + "ull;"
                   : "hlo_add128(lo, hi, " + std::to_string(blocks) + "ull);");
  e.Line("o0[0] = " + key + ";");
  e.Line("o0[1] = lo;");
  if (words == 3) e.Line("o0[2] = hi;");
  e.Close();
  e.Open(kGridStrideLoop);
  e.Line("uint32_t y[4];");
  std::string word;
  if (three_fry && wide) {
    e.Line("const uint64_t c = " + c1 + " + (uint64_t)lin;");
    e.Line("hlo_threefry2x32(k0, k1, (uint32_t)c, (uint32_t)(c >> 32), y);");
    word = "((uint64_t)y[0] | ((uint64_t)y[1] << 32))";
  } else if (three_fry) {
    if (shape.empty()) {
      e.Line("const long long block = 0, piece = 0;");
    } else {
      e.Line("const long long o = lin / " + std::to_string(dim * inner) + "LL, p = (lin / " + std::to_string(inner) +
             "LL) % " + std::to_string(dim) + "LL, in = lin % " + std::to_string(inner) + "LL;");
      e.Line("const long long block = (o * " + std::to_string(half) + "LL + p / 2) * " + std::to_string(inner) +
             "LL + in, piece = p % 2;");
    }
    e.Line("const uint64_t c = " + c1 + " + (uint64_t)block;");
    e.Line("hlo_threefry2x32(k0, k1, (uint32_t)c, (uint32_t)(c >> 32), y);");
    word = "y[piece]";
  } else {
    const int per_block = wide ? 2 : 4;
    e.Line("uint64_t lo = " + c1 + ", hi = " + c2 + ";");
    e.Line("hlo_add128(lo, hi, (uint64_t)(lin / " + std::to_string(per_block) + "));");
    e.Line("hlo_philox4x32(k0, k1, lo, hi, y);");
    const std::string j = "(int)(lin % " + std::to_string(per_block) + ")";
    word = wide ? "((uint64_t)y[2 * " + j + "] | ((uint64_t)y[2 * " + j + " + 1] << 32))" : "y[" + j + "]";
  }
  // The raw bits, whatever the element type.
  const std::string bits_type = UnsignedType(width);
  e.Line("((" + bits_type + "*)o1)[lin] = (" + bits_type + ")" + word + ";");
  e.Close();
  HLOGRAPH_ASSIGN(std::string head, KernelOpening(f));
  KernelSource k{f.name, std::string(kGenerators) + head + body.str() + "}\n", GridStride(std::max<int64_t>(count, 1), options),
                 std::string("rng_bit_generator (") + (three_fry ? "threefry" : "philox") + ", thread per word)"};
  return k;
}

}  // namespace hlograph::gpu::emit
