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
  ir::OpId op;
  const char* fn;
};

// Same-type unary ops.
constexpr ComplexFn kUnary[] = {
    {ir::OpId::kNegate, "hlo_cneg"},
    {ir::OpId::kSign, "hlo_csign"},
    {ir::OpId::kSqrt, "hlo_csqrt"},
    {ir::OpId::kRsqrt, "hlo_crsqrt"},
    {ir::OpId::kCbrt, "hlo_ccbrt"},
    {ir::OpId::kExponential, "hlo_cexp"},
    {ir::OpId::kExponentialMinusOne, "hlo_cexpm1"},
    {ir::OpId::kLog, "hlo_clog"},
    {ir::OpId::kLogPlusOne, "hlo_clog1p"},
    {ir::OpId::kLogistic, "hlo_clogistic"},
    {ir::OpId::kSine, "hlo_csin"},
    {ir::OpId::kCosine, "hlo_ccos"},
    {ir::OpId::kTan, "hlo_ctan"},
    {ir::OpId::kTanh, "hlo_ctanh"},
    {ir::OpId::kChloTan, "hlo_ctan"},
    {ir::OpId::kChloSinh, "hlo_csinh"},
    {ir::OpId::kChloCosh, "hlo_ccosh"},
    {ir::OpId::kChloSquare, "hlo_csquare"},
    {ir::OpId::kChloConj, "hlo_cconj"},
};

// Same-type binary ops.
constexpr ComplexFn kBinary[] = {
    {ir::OpId::kAdd, "hlo_cadd"},      {ir::OpId::kSubtract, "hlo_csub"}, {ir::OpId::kMultiply, "hlo_cmul"},
    {ir::OpId::kDivide, "hlo_cdiv"},   {ir::OpId::kPower, "hlo_cpow"},    {ir::OpId::kMaximum, "hlo_cmax"},
    {ir::OpId::kMinimum, "hlo_cmin"},
};

template <size_t N>
const char* Find(const ComplexFn (&table)[N], ir::OpId name) {
  for (const ComplexFn& f : table) {
    if (name == f.op) return f.fn;
  }
  return nullptr;
}

}  // namespace

StatusOr<std::string> ComplexOpExpr(const OpView& v) {
  const E t = v.in[0];
  const E part = ir::ComplexPart(t);
  const ir::OpId n = v.id;
  const size_t arity = v.args.size();
  for (E e : v.in) {
    if (e != t) return v.Error("expects operands of one element type");
  }
  if (n == ir::OpId::kReal || n == ir::OpId::kImag || n == ir::OpId::kAbs) {
    if (v.out != part) return v.Error("expects the result to be the complex part type");
    if (n == ir::OpId::kAbs) return "hlo_cabs(" + v.arg(0) + ")";
    return "(" + v.arg(0) + (n == ir::OpId::kReal ? ").re" : ").im");
  }
  if (v.out != t) return v.Error("expects the result element type to match the operand's");
  if (n == ir::OpId::kClamp && arity == 3) return "hlo_cclamp(" + v.arg(0) + ", " + v.arg(1) + ", " + v.arg(2) + ")";
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
