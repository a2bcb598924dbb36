// stablehlo.fft (FFT, IFFT, RFFT, IRFFT over the trailing 1 to 3 dims) as a
// direct DFT: one thread per output element sums over the transformed
// dims. Like the interpreter, it computes in double precision whatever the
// element type and rounds once at the end; the unit roots come from a
// table in shared memory (sincospi of exact fractions), so f32 results
// agree with the interpreter's to about an ulp. O(n) work per output per
// transformed element: fine for the lengths programs use today, not a
// substitute for an FFT on long signals.
#include <cstdio>

#include "backends/gpu/codegen/body_emitter.h"

namespace hlograph::gpu::emit {
namespace {

// Unit-root tables larger than this are computed per term instead.
constexpr int64_t kTableBytes = 32 * 1024;

std::string Ll(int64_t v) { return std::to_string(v) + "LL"; }

std::string HexDouble(double d) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%a", d);
  return buf;
}

// The unit roots exp(2 pi i m / n_d) of each transformed dim d, as double2
// (cos, sin): from a shared table, or computed where they are needed.
class UnitRoots {
 public:
  UnitRoots(BodyEmitter& e, const std::vector<int64_t>& lengths) : e_(e), lengths_(lengths) {
    int64_t entries = 0;
    for (int64_t n : lengths) entries += n;
    tables_ = entries * 16 <= kTableBytes;
  }

  bool tables() const { return tables_; }

  // Declares and fills the tables (every thread of the block takes part).
  void Fill() {
    if (!tables_) return;
    for (size_t d = 0; d < lengths_.size(); ++d) {
      const std::string t = "roots" + std::to_string(d), n = Ll(lengths_[d]);
      e_.Line("__shared__ double2 " + t + "[" + std::to_string(std::max<int64_t>(lengths_[d], 1)) + "];");
      e_.Open("for (long long m = threadIdx.x; m < " + n + "; m += blockDim.x)");
      e_.Line("double s, c;");
      e_.Line("sincospi(2.0 * (double)m / (double)" + n + ", &s, &c);");
      e_.Line(t + "[m] = make_double2(c, s);");
      e_.Close();
    }
    e_.Line("__syncthreads();");
  }

  // A variable holding exp(2 pi i m / n_d) for the index expression `m`
  // (in [0, n_d)).
  std::string Root(size_t d, const std::string& m) {
    const std::string w = e_.Fresh("w");
    if (tables_) {
      e_.Line("const double2 " + w + " = roots" + std::to_string(d) + "[" + m + "];");
    } else {
      e_.Line("double2 " + w + ";");
      e_.Line("sincospi(2.0 * (double)(" + m + ") / (double)" + Ll(lengths_[d]) + ", &" + w + ".y, &" + w + ".x);");
    }
    return w;
  }

 private:
  BodyEmitter& e_;
  const std::vector<int64_t>& lengths_;
  bool tables_ = false;
};

// exp(sign 2 pi i sum_d j_d k_d / n_d) over dims [from, to) of `lengths`,
// as a double2 variable: the product of the dims' unit roots.
std::string Twiddle(BodyEmitter& e, UnitRoots& roots, const std::vector<int64_t>& lengths, size_t from, size_t to,
                    const Index& j, const Index& k, bool inverse) {
  std::string w;
  for (size_t d = from; d < to; ++d) {
    const std::string m = e.IndexVar("(" + j[d] + " * " + k[d] + ") % " + Ll(lengths[d]));
    const std::string r = roots.Root(d, m);
    if (w.empty()) {
      w = r;
      continue;
    }
    const std::string p = e.Fresh("w");
    e.Line("const double2 " + p + " = make_double2(" + w + ".x * " + r + ".x - " + w + ".y * " + r + ".y, " + w +
           ".x * " + r + ".y + " + w + ".y * " + r + ".x);");
    w = p;
  }
  if (w.empty()) {
    w = e.Fresh("w");
    e.Line("const double2 " + w + " = make_double2(1.0, 0.0);");
  }
  if (!inverse) {  // the forward transform uses exp(-...)
    const std::string c = e.Fresh("w");
    e.Line("const double2 " + c + " = make_double2(" + w + ".x, -" + w + ".y);");
    w = c;
  }
  return w;
}

// `x` (an operand's compute-type variable) as (re, im) in double.
std::pair<std::string, std::string> Widen(const ir::Value* v, const std::string& x) {
  if (ir::IsComplex(v->type().element())) return {"(double)" + x + ".re", "(double)" + x + ".im"};
  return {"(double)" + x, "0.0"};
}

}  // namespace

StatusOr<KernelSource> EmitFft(const Fusion& f, const EmitOptions& options) {
  const ir::Operation& fft = *f.ops.back();
  const ir::Value* x = fft.operand(0);
  const ir::Type& in_type = x->type();
  const ir::Type& out_type = fft.result(0)->type();
  const auto* type_attr = fft.attr("fft_type").as<ir::EnumAttr>();
  const std::string kind = type_attr ? type_attr->value : "";
  const std::vector<int64_t> lengths = I64s(fft, "fft_length");
  const size_t rank = static_cast<size_t>(out_type.rank()), l = lengths.size();
  if (l == 0 || l > 3 || l > rank || static_cast<size_t>(in_type.rank()) != rank) {
    return Status::Error("stablehlo.fft: expects 1 to 3 fft_length entries, at most the rank");
  }
  if (kind != "FFT" && kind != "IFFT" && kind != "RFFT" && kind != "IRFFT") {
    return Status::Error("stablehlo.fft: unknown fft_type '" + kind + "'");
  }
  const size_t first = rank - l;
  const int64_t n_last = lengths.back();
  // The trailing dims: the signal's lengths, but for the half spectrum of
  // RFFT's result and IRFFT's operand.
  const ir::Type& signal = kind == "IRFFT" ? out_type : in_type;
  const ir::Type& spectrum = kind == "IRFFT" ? in_type : out_type;
  for (size_t d = 0; d < l; ++d) {
    const int64_t half = d + 1 == l && (kind == "RFFT" || kind == "IRFFT") ? n_last / 2 + 1 : lengths[d];
    if (signal.dim(static_cast<int64_t>(first + d)) != lengths[d] ||
        spectrum.dim(static_cast<int64_t>(first + d)) != half) {
      return Status::Error("stablehlo.fft: the operand and result shapes do not match fft_length");
    }
  }
  double total = 1;
  for (int64_t n : lengths) total *= static_cast<double>(n);
  const bool inverse = kind == "IFFT" || kind == "IRFFT";
  const std::string scale = HexDouble(inverse ? 1.0 / total : 1.0);
  const ir::ElementType out_elem = out_type.element();
  HLOGRAPH_ASSIGN(const std::string out_ct, ComputeType(out_elem));

  HLOGRAPH_ASSIGN(std::string head, KernelOpening(f));
  if (out_type.NumElements() == 0 || total == 0) {  // nothing to compute (and no length to divide by)
    KernelSource empty{f.name, head + "}\n", GridStride(0, options), "fft (empty)"};
    empty.launch.grid = {0, 1, 1};
    return empty;
  }
  std::ostringstream body;
  BodyEmitter e(f, body);
  UnitRoots roots(e, lengths);
  roots.Fill();
  e.Line("const long long N = " + Ll(out_type.NumElements()) + ";");
  e.Open(kGridStrideLoop);
  const Index out_idx = e.Delinearize("lin", out_type.shape());
  // j: positions in the signal, k: frequencies (per transformed dim).
  Index batch(out_idx.begin(), out_idx.begin() + static_cast<std::ptrdiff_t>(first));
  Index outer(out_idx.begin() + static_cast<std::ptrdiff_t>(first), out_idx.end());
  std::string result;
  if (kind != "IRFFT") {
    // X[k] = sum_j x[j] exp(-+2 pi i sum_d j_d k_d / n_d).
    e.Line("double acc_re = 0.0, acc_im = 0.0;");
    Index j(l);
    for (size_t d = 0; d < l; ++d) {
      j[d] = e.Fresh("pos");  // fresh: index variables are j<n>
      e.Open("for (long long " + j[d] + " = 0; " + j[d] + " < " + Ll(lengths[d]) + "; ++" + j[d] + ")");
    }
    const std::string w = Twiddle(e, roots, lengths, 0, l, j, outer, inverse);
    Index at = batch;
    at.insert(at.end(), j.begin(), j.end());
    HLOGRAPH_ASSIGN(const std::string v, e.Emit(x, at));
    const auto [re, im] = Widen(x, v);
    e.Line("const double xr = " + re + ", xi = " + im + ";");
    e.Line("acc_re += xr * " + w + ".x - xi * " + w + ".y;");
    e.Line("acc_im += xr * " + w + ".y + xi * " + w + ".x;");
    for (size_t d = 0; d < l; ++d) e.Close();
    const std::string part = out_elem == ir::ElementType::kC128 ? "double" : "float";
    result = "hlo_cplx<" + part + ">((" + part + ")(acc_re * " + scale + "), (" + part + ")(acc_im * " + scale + "))";
  } else {
    // The interpreter's IRFFT: the inverse over the leading dims on the half
    // spectrum H, each last-dim line extended by Hermitian symmetry
    // (H[k] = conj(H[n - k]) for k > n / 2), then the inverse over the last
    // dim, of which the real part is kept.
    const int64_t h = n_last / 2 + 1;
    e.Line("double acc = 0.0;");
    e.Open("for (long long kl = 0; kl < " + Ll(n_last) + "; ++kl)");
    e.Line("const bool mirrored = kl >= " + Ll(h) + ";");
    e.Line("const long long ks = mirrored ? " + Ll(n_last) + " - kl : kl;");
    e.Line("double h_re = 0.0, h_im = 0.0;");
    Index k(l);
    for (size_t d = 0; d + 1 < l; ++d) {
      k[d] = e.Fresh("freq");
      e.Open("for (long long " + k[d] + " = 0; " + k[d] + " < " + Ll(lengths[d]) + "; ++" + k[d] + ")");
    }
    k[l - 1] = "ks";
    const std::string w = Twiddle(e, roots, lengths, 0, l - 1, outer, k, true);
    Index at = batch;
    at.insert(at.end(), k.begin(), k.end());
    HLOGRAPH_ASSIGN(const std::string v, e.Emit(x, at));
    const auto [re, im] = Widen(x, v);
    e.Line("const double xr = " + re + ", xi = " + im + ";");
    e.Line("h_re += xr * " + w + ".x - xi * " + w + ".y;");
    e.Line("h_im += xr * " + w + ".y + xi * " + w + ".x;");
    for (size_t d = 0; d + 1 < l; ++d) e.Close();
    e.Line("if (mirrored) h_im = -h_im;");
    const std::string m = e.IndexVar("(" + outer[l - 1] + " * kl) % " + Ll(n_last));
    const std::string r = roots.Root(l - 1, m);
    e.Line("acc += h_re * " + r + ".x - h_im * " + r + ".y;");
    e.Close();
    result = "(" + out_ct + ")(acc * " + scale + ")";
  }
  e.Line("o0[lin] = " + StoreExpr(out_elem, result) + ";");
  e.Close();
  return KernelSource{f.name, head + body.str() + "}\n", GridStride(out_type.NumElements(), options),
                      std::string("fft (direct DFT, thread per output") + (roots.tables() ? ", root tables)" : ")")};
}

}  // namespace hlograph::gpu::emit
