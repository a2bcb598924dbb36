// The `check` dialect (and its custom_call spellings): assertions that test
// programs make about values. A failed check is an error naming the first
// element that differs.
#include <cmath>
#include <sstream>

#include "backends/cpu/kernel_util.h"
#include "backends/cpu/kernels/check.h"
#include "ir/attribute_printer.h"

namespace hlograph::cpu {
namespace {

// The element at flat index `i` of `t`, as text, for messages.
std::string ElementString(const Tensor& t, int64_t i) {
  return DispatchElementType(t.element(), [&](auto tag) -> std::string {
    using T = typename decltype(tag)::type;
    std::ostringstream ss;
    ss.precision(9);
    const T v = t.data<T>()[i];
    if constexpr (kIsComplex<T>) {
      ss << "(" << v.real() << ", " << v.imag() << ")";
    } else if constexpr (std::is_same_v<T, bool>) {
      ss << (v ? "true" : "false");
    } else if constexpr (std::is_integral_v<T>) {
      ss << +v;
    } else {
      ss << Load(v);
    }
    return ss.str();
  });
}

std::string IndexString(const std::vector<int64_t>& shape, int64_t flat) {
  std::vector<int64_t> index(shape.size());
  for (size_t d = shape.size(); d-- > 0;) {
    index[d] = shape[d] ? flat % shape[d] : 0;
    flat = shape[d] ? flat / shape[d] : 0;
  }
  std::string s = "[";
  for (size_t d = 0; d < index.size(); ++d) s += (d ? ", " : "") + std::to_string(index[d]);
  return s + "]";
}

Status Mismatch(const Tensor& actual, const Tensor& expected, int64_t i, const std::string& why) {
  return Status::Error("check failed at index " + IndexString(actual.shape(), i) + ": got " +
                       ElementString(actual, i) + ", expected " + ElementString(expected, i) + why);
}

// Distance in units in the last place between two floats of the same type,
// through their sign-magnitude bit patterns mapped to a monotone integer line.
template <typename Bits>
int64_t UlpDistance(Bits a, Bits b, int bits) {
  const uint64_t sign = uint64_t{1} << (bits - 1);
  auto line = [&](uint64_t x) -> int64_t {
    return (x & sign) ? -static_cast<int64_t>(x & ~sign) : static_cast<int64_t>(x);
  };
  int64_t d = line(a) - line(b);
  return d < 0 ? -d : d;
}

}  // namespace

Status CheckTensors(const Tensor& actual, const Tensor& expected, CheckMode mode, double tolerance,
                    int64_t min_ulp, int64_t max_ulp) {
  if (actual.type() != expected.type()) {
    return Status::Error("check failed: got type " + actual.type().ToString() + ", expected " +
                         expected.type().ToString());
  }
  const int64_t n = actual.num_elements();
  const size_t width = static_cast<size_t>(ir::StorageBytes(actual.element()));
  if (mode == CheckMode::kBitwise) {
    for (int64_t i = 0; i < n; ++i) {
      if (std::memcmp(actual.bytes() + i * width, expected.bytes() + i * width, width) != 0) {
        return Mismatch(actual, expected, i, "");
      }
    }
    return Status::Ok();
  }
  return DispatchElementType(actual.element(), [&](auto tag) -> Status {
    using T = typename decltype(tag)::type;
    const T* a = actual.data<T>();
    const T* e = expected.data<T>();
    for (int64_t i = 0; i < n; ++i) {
      if constexpr (kIsComplex<T>) {
        // Per component: NaN matches NaN, an infinity the same infinity.
        auto close = [&](auto x, auto y) {
          return (std::isnan(x) && std::isnan(y)) || x == y || std::abs(x - y) <= tolerance;
        };
        const bool re_ok = close(a[i].real(), e[i].real());
        const bool im_ok = close(a[i].imag(), e[i].imag());
        if (!re_ok || !im_ok) return Mismatch(actual, expected, i, " (tolerance " + std::to_string(tolerance) + ")");
      } else if constexpr (kIsFloat<T>) {
        const double x = static_cast<double>(Load(a[i])), y = static_cast<double>(Load(e[i]));
        if (std::isnan(x) || std::isnan(y)) {
          if (std::isnan(x) && std::isnan(y)) continue;  // NaN equals NaN here
          return Mismatch(actual, expected, i, "");
        }
        if (mode == CheckMode::kAlmostEqual) {
          if (!(std::fabs(x - y) <= tolerance) && x != y) {
            return Mismatch(actual, expected, i, " (tolerance " + std::to_string(tolerance) + ")");
          }
        } else {
          uint64_t xb = 0, yb = 0;
          std::memcpy(&xb, &a[i], sizeof(T));
          std::memcpy(&yb, &e[i], sizeof(T));
          const int64_t ulps = x == y ? 0 : UlpDistance(xb, yb, ir::BitWidth(actual.element()));
          if (ulps < min_ulp || ulps > max_ulp) {
            return Mismatch(actual, expected, i,
                            " (" + std::to_string(ulps) + " ulp apart, allowed " + std::to_string(min_ulp) + ".." +
                                std::to_string(max_ulp) + ")");
          }
        }
      } else {
        if (std::memcmp(&a[i], &e[i], sizeof(T)) != 0) return Mismatch(actual, expected, i, "");
      }
    }
    return Status::Ok();
  });
}

namespace {

Tensor ConstantTensor(const ir::Attribute& value) {
  const auto* dense = value.as<ir::DenseElementsAttr>();
  Tensor t(dense->type);
  const size_t width = static_cast<size_t>(ir::StorageBytes(dense->type.element()));
  for (int64_t i = 0; i < t.num_elements(); ++i) {
    std::memcpy(t.mutable_bytes() + i * width, dense->bytes.data() + (dense->splat ? 0 : i * width), width);
  }
  return t;
}

double Tolerance(const ir::Operation& op) {
  const auto* f = op.attr("tolerance").as<ir::FloatAttr>();
  return f ? ir::FloatBitsToDouble(f->bits, f->type) : 1e-4;
}

Status ExpectEq(KernelContext& ctx) { return CheckTensors(ctx.operand(0), ctx.operand(1), CheckMode::kBitwise); }
Status ExpectEqConst(KernelContext& ctx) {
  return CheckTensors(ctx.operand(0), ConstantTensor(ctx.op.attr("value")), CheckMode::kBitwise);
}
Status ExpectAlmostEq(KernelContext& ctx) {
  return CheckTensors(ctx.operand(0), ctx.operand(1), CheckMode::kAlmostEqual, Tolerance(ctx.op));
}
Status ExpectAlmostEqConst(KernelContext& ctx) {
  return CheckTensors(ctx.operand(0), ConstantTensor(ctx.op.attr("value")), CheckMode::kAlmostEqual,
                      Tolerance(ctx.op));
}
Status ExpectClose(KernelContext& ctx) {
  return CheckTensors(ctx.operand(0), ctx.operand(1), CheckMode::kUlps, 0, IntAttr(ctx.op, "min_ulp_difference", 0),
                      IntAttr(ctx.op, "max_ulp_difference", 0));
}
Status ExpectSerializedEq(KernelContext& ctx) {
  return ctx.Error("needs the probe files of an instrumented run, which the CPU backend does not write");
}

}  // namespace

KernelFn FindCheckCustomCall(std::string_view target) {
  if (target == "check.expect_eq" || target == "check.eq") return &ExpectEq;
  if (target == "check.expect_almost_eq") return &ExpectAlmostEq;
  if (target == "check.expect_close") return &ExpectClose;
  return nullptr;
}

void RegisterCheckKernels(KernelRegistry& r) {
  r.Register(ir::OpId::kCheckExpectEq, &ExpectEq);
  r.Register(ir::OpId::kCheckExpectEqConst, &ExpectEqConst);
  r.Register(ir::OpId::kCheckExpectAlmostEq, &ExpectAlmostEq);
  r.Register(ir::OpId::kCheckExpectAlmostEqConst, &ExpectAlmostEqConst);
  r.Register(ir::OpId::kCheckExpectClose, &ExpectClose);
  r.Register(ir::OpId::kCheckExpectSerializedEq, &ExpectSerializedEq);
}

}  // namespace hlograph::cpu
