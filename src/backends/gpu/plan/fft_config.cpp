#include "backends/gpu/plan/fft_config.h"

#include <algorithm>
#include <cstdio>

#include "backends/gpu/plan/library_refusals.h"
#include "backends/gpu/plan/plan_options.h"
#include "backends/gpu/plan/step_cost.h"
#include "ir/attribute.h"
#include "ir/verify/verify_util.h"

namespace hlograph::gpu {
namespace {

// The direct DFT's time per term (one output's product with one input
// point), in fp64 operations at the device's fp64 peak: a 64-bit index
// modulo, a unit root read from shared memory, four FMAs and the load.
// Measured: 57 ms for 1.7e10 terms on an H100 (34 TFLOP/s fp64).
constexpr double kDirectTermFlops = 110;
// cuFFT takes a transform in one pass through memory up to about this
// many points (a block's shared memory), in two or three beyond.
constexpr int64_t kOnePassPoints = 16384;

}  // namespace

int64_t FftConfig::points() const {
  int64_t n = 1;
  for (int64_t l : lengths) n *= l;
  return n;
}

int64_t FftConfig::input_elements() const {
  if (type != FftType::kComplexToReal || lengths.empty()) return points();
  return points() / lengths.back() * (lengths.back() / 2 + 1);
}

int64_t FftConfig::output_elements() const {
  if (type != FftType::kRealToComplex || lengths.empty()) return points();
  return points() / lengths.back() * (lengths.back() / 2 + 1);
}

int64_t FftConfig::input_bytes() const {
  const int64_t real = double_precision ? 8 : 4;
  return batch * input_elements() * (type == FftType::kRealToComplex ? real : 2 * real);
}

int64_t FftConfig::output_bytes() const {
  const int64_t real = double_precision ? 8 : 4;
  return batch * output_elements() * (type == FftType::kComplexToReal ? real : 2 * real);
}

std::string FftConfig::ToString() const {
  std::string s = "fft ";
  s += type == FftType::kComplexToComplex ? "C2C" : type == FftType::kRealToComplex ? "R2C" : "C2R";
  s += inverse ? " inverse " : " forward ";
  s += double_precision ? "f64 " : "f32 ";
  for (size_t i = 0; i < lengths.size(); ++i) s += (i ? "x" : "") + std::to_string(lengths[i]);
  s += " x " + std::to_string(batch);
  if (scale != 1) s += ", scaled by 1/" + std::to_string(points());
  return s;
}

StatusOr<FftConfig> FftConfigOf(const ir::Operation& fft) {
  const auto* kind_attr = fft.attr("fft_type").as<ir::EnumAttr>();
  const std::string kind = kind_attr ? kind_attr->value : "";
  FftConfig c;
  c.lengths = ir::verify::I64ArrayAttr(fft, "fft_length");
  const ir::Type& in = fft.operand(0)->type();
  const ir::Type& out = fft.result(0)->type();
  if (c.lengths.empty() || c.lengths.size() > 3 || static_cast<int64_t>(c.lengths.size()) > in.rank()) {
    return Status::Error("expects 1 to 3 fft_length entries, at most the operand's rank");
  }
  if (kind == "FFT" || kind == "IFFT") {
    c.type = FftType::kComplexToComplex;
  } else if (kind == "RFFT") {
    c.type = FftType::kRealToComplex;
  } else if (kind == "IRFFT") {
    c.type = FftType::kComplexToReal;
  } else {
    return Status::Error("unknown fft_type '" + kind + "'");
  }
  c.inverse = kind == "IFFT" || kind == "IRFFT";
  const ir::ElementType e = out.element();
  c.double_precision = e == ir::ElementType::kC128 || e == ir::ElementType::kF64;
  if (c.points() == 0) return Status::Error("an empty transform");
  const int64_t leading = in.rank() - static_cast<int64_t>(c.lengths.size());
  for (int64_t d = 0; d < leading; ++d) c.batch *= in.dim(d);
  if (c.inverse) c.scale = 1.0 / static_cast<double>(c.points());
  return c;
}

FftChoice ChooseFft(const FftConfig& c, const DeviceLimits& limits) {
  // A refusal stands even against a pin: cuFFT cannot run it here.
  if (const auto why = LibraryRefusal(c.ToString())) return {false, "direct DFT: cuFFT refused it (" + *why + ")"};
  const std::string& pinned = PlanOptions::Current().fft;
  if (pinned == "library") return {true, "HLOGRAPH_GPU_FFT=library"};
  if (pinned == "direct") return {false, "HLOGRAPH_GPU_FFT=direct"};
  const double hbm = limits.memory_bytes_per_s;
  const double in = static_cast<double>(c.input_bytes()), out = static_cast<double>(c.output_bytes());
  const double terms = static_cast<double>(c.batch) * static_cast<double>(c.output_elements()) *
                       static_cast<double>(c.points());
  const double direct = std::max(terms * kDirectTermFlops / limits.peak(ComputeUnit::kFp64), (in + out) / hbm);
  const double passes = c.points() > kOnePassPoints ? 2 : 1;
  double library = kLibraryCallSeconds + passes * (in + out) / hbm;
  if (c.scale != 1) library += 2 * out / hbm;                        // the scaling pass
  if (c.type == FftType::kComplexToReal) library += 2 * in / hbm;    // the input's copy
  const bool take = library < direct;
  const std::string estimates = take ? "cuFFT, ~" + MicrosecondsText(library) + " against the direct DFT's ~" + MicrosecondsText(direct)
                                     : "direct DFT, ~" + MicrosecondsText(direct) + " against cuFFT's ~" + MicrosecondsText(library);
  return {take, estimates + " (" + limits.name + ")"};
}

}  // namespace hlograph::gpu
