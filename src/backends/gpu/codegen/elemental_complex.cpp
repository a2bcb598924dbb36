// Elementwise ops on complex<f32>/complex<f64> values: each is a call of a
// device function of the complex prelude (kernel_prelude_complex.cpp),
// which follows the interpreter's std::complex semantics. The inverse
// trigonometric and hyperbolic functions (glibc's casin & co.) and atan2
// are not translated yet.
#include <string>

#include "backends/gpu/codegen/elemental_internal.h"

namespace hlograph::gpu::elemental {
namespace {

using E = ir::ElementType;

struct ComplexFn {
  const char* op;
  const char* fn;
};

// Same-type unary ops.
constexpr ComplexFn kUnary[] = {
    {"stablehlo.negate", "hlo_cneg"},
    {"stablehlo.sign", "hlo_csign"},
    {"stablehlo.sqrt", "hlo_csqrt"},
    {"stablehlo.rsqrt", "hlo_crsqrt"},
    {"stablehlo.cbrt", "hlo_ccbrt"},
    {"stablehlo.exponential", "hlo_cexp"},
    {"stablehlo.exponential_minus_one", "hlo_cexpm1"},
    {"stablehlo.log", "hlo_clog"},
    {"stablehlo.log_plus_one", "hlo_clog1p"},
    {"stablehlo.logistic", "hlo_clogistic"},
    {"stablehlo.sine", "hlo_csin"},
    {"stablehlo.cosine", "hlo_ccos"},
    {"stablehlo.tan", "hlo_ctan"},
    {"stablehlo.tanh", "hlo_ctanh"},
    {"chlo.tan", "hlo_ctan"},
    {"chlo.sinh", "hlo_csinh"},
    {"chlo.cosh", "hlo_ccosh"},
    {"chlo.square", "hlo_csquare"},
    {"chlo.conj", "hlo_cconj"},
};

// Same-type binary ops.
constexpr ComplexFn kBinary[] = {
    {"stablehlo.add", "hlo_cadd"},      {"stablehlo.subtract", "hlo_csub"}, {"stablehlo.multiply", "hlo_cmul"},
    {"stablehlo.divide", "hlo_cdiv"},   {"stablehlo.power", "hlo_cpow"},    {"stablehlo.maximum", "hlo_cmax"},
    {"stablehlo.minimum", "hlo_cmin"},
};

template <size_t N>
const char* Find(const ComplexFn (&table)[N], const std::string& name) {
  for (const ComplexFn& f : table) {
    if (name == f.op) return f.fn;
  }
  return nullptr;
}

}  // namespace

StatusOr<std::string> ComplexOpExpr(const OpView& v) {
  const E t = v.in[0];
  const E part = ir::ComplexPart(t);
  const std::string& n = v.name;
  const size_t arity = v.args.size();
  for (E e : v.in) {
    if (e != t) return v.Error("expects operands of one element type");
  }
  if (n == "stablehlo.real" || n == "stablehlo.imag" || n == "stablehlo.abs") {
    if (v.out != part) return v.Error("expects the result to be the complex part type");
    if (n == "stablehlo.abs") return "hlo_cabs(" + v.arg(0) + ")";
    return "(" + v.arg(0) + (n == "stablehlo.real" ? ").re" : ").im");
  }
  if (v.out != t) return v.Error("expects the result element type to match the operand's");
  if (n == "stablehlo.clamp" && arity == 3) return "hlo_cclamp(" + v.arg(0) + ", " + v.arg(1) + ", " + v.arg(2) + ")";
  if (arity == 2) {
    if (const char* fn = Find(kBinary, n)) return std::string(fn) + "(" + v.arg(0) + ", " + v.arg(1) + ")";
  } else if (arity == 1) {
    if (const char* fn = Find(kUnary, n)) return std::string(fn) + "(" + v.arg(0) + ")";
  }
  return v.NotDefinedFor(t);
}

StatusOr<std::string> MakeComplexExpr(const OpView& v) {
  const E part = v.in[0];
  if (v.in[1] != part || !ir::ComplexOf(part) || *ir::ComplexOf(part) != v.out) {
    return v.Error("expects f32 or f64 parts and the matching complex result");
  }
  return "hlo_cplx<" + CType(part) + ">(" + v.arg(0) + ", " + v.arg(1) + ")";
}

}  // namespace hlograph::gpu::elemental
