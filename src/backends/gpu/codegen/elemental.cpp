// Element types, loads/stores, literals and the arithmetic and math ops as
// CUDA C++ expressions; the ops that change element types are in
// elemental_convert.cpp, complex ops in elemental_complex.cpp, the hlo_*
// device helpers in kernel_prelude*.cpp.
//
// f16 and bf16 compute in float. XLA (and the CPU interpreter) round their
// results to the format after every op, so the expression of an op whose
// result is f16/bf16 wraps its float value in hlo_round_f16/hlo_round_bf16:
// fusing ops into one kernel then gives the same bits as running them one
// by one. Ops whose result is one of their operands' values (negate, abs,
// max, select, floor, ...) are exact and skip the rounding. The f8 formats
// compute in float too and round likewise (hlo_narrow_round).
#include "backends/gpu/codegen/elemental.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <set>
#include <string>
#include <vector>

#include "backends/gpu/codegen/elemental_internal.h"
#include "ir/float_bits.h"
#include "ir/type.h"

namespace hlograph::gpu {
namespace elemental {

using E = ir::ElementType;

Class ClassOf(E t) {
  if (t == E::kI1) return Class::kBool;
  if (ir::IsComplex(t)) return Class::kComplex;
  if (ir::IsFloat(t)) return Class::kFloat;
  if (ir::IsUnsignedInteger(t)) return Class::kUnsigned;
  return Class::kSigned;
}

std::string TypeName(E t) { return std::string(ir::ElementTypeName(t)); }

std::string CType(E t) {
  switch (t) {
    case E::kI1: return "bool";
    case E::kI8: return "int8_t";
    case E::kI16: return "int16_t";
    case E::kI32: return "int32_t";
    case E::kI64: return "int64_t";
    case E::kU8: return "uint8_t";
    case E::kU16: return "uint16_t";
    case E::kU32: return "uint32_t";
    case E::kU64: return "uint64_t";
    case E::kF64: return "double";
    case E::kC64: return "hlo_complex<float>";
    case E::kC128: return "hlo_complex<double>";
    default: return "float";  // f32, and the compute type of f16/bf16/f8
  }
}

Status OpView::Error(const std::string& message) const { return Status::Error(name + ": " + message); }

Status OpView::NotDefinedFor(E t) const {
  return Error("is not defined for element type " + TypeName(t) + " in the GPU code generator");
}

namespace {

// The unsigned type integer arithmetic of `t` wraps in (no promotion to int).
std::string WrapType(E t) { return ir::BitWidth(t) == 64 ? "uint64_t" : "uint32_t"; }

// "expf" for float compute, "exp" for double.
std::string MathFn(E t, const std::string& fn) { return t == E::kF64 ? fn : fn + "f"; }

// Rounds a float result to the f16/bf16/f8 result type.
std::string RoundTo(E t, const std::string& x) {
  if (t == E::kF16) return "hlo_round_f16(" + x + ")";
  if (t == E::kBF16) return "hlo_round_bf16(" + x + ")";
  if (IsNarrowFormat(t)) return "hlo_narrow_round<" + NarrowFormatName(t) + ">(" + x + ")";
  return x;
}

// The result of an op that is exact on f16/bf16 values (negate, floor, ...)
// can leave an f8 format (-x in an unsigned one, -0 in an FNUZ one): f8
// results are rounded after those too, as the interpreter stores them.
std::string Exact(E t, const std::string& x) { return IsNarrowFormat(t) ? RoundTo(t, x) : x; }

std::string Call(const std::string& fn, const std::vector<std::string>& args) {
  std::string s = fn + "(";
  for (size_t i = 0; i < args.size(); ++i) s += (i ? ", " : "") + args[i];
  return s + ")";
}

// A double-precision function of the CHLO family applied to a float operand:
// computed in double and rounded once, as the CPU backend does.
std::string ViaDouble(E t, const std::string& fn, const std::vector<std::string>& args) {
  if (t == E::kF64) return Call(fn, args);
  std::vector<std::string> widened;
  for (const auto& a : args) widened.push_back("(double)" + a);
  return "((float)" + Call(fn, widened) + ")";
}

// Float unary functions of CUDA's math library, by op name.
struct MathOp {
  ir::OpId op;
  const char* fn;  // the double version; float adds "f"
};
constexpr MathOp kMathOps[] = {
    {ir::OpId::kExponential, "exp"}, {ir::OpId::kExponentialMinusOne, "expm1"},
    {ir::OpId::kLog, "log"},         {ir::OpId::kLogPlusOne, "log1p"},
    {ir::OpId::kSine, "sin"},        {ir::OpId::kCosine, "cos"},
    {ir::OpId::kTan, "tan"},         {ir::OpId::kTanh, "tanh"},
    {ir::OpId::kChloTan, "tan"},              {ir::OpId::kChloAsin, "asin"},
    {ir::OpId::kChloAcos, "acos"},            {ir::OpId::kChloAtan, "atan"},
    {ir::OpId::kChloSinh, "sinh"},            {ir::OpId::kChloCosh, "cosh"},
    {ir::OpId::kChloAsinh, "asinh"},          {ir::OpId::kChloAcosh, "acosh"},
    {ir::OpId::kChloAtanh, "atanh"},
};
// Results exactly one of the operands' values (or a simple function of one
// that needs no rounding): no f16/bf16 rounding after them.
constexpr MathOp kExactOps[] = {
    {ir::OpId::kCeil, "ceil"},
    {ir::OpId::kFloor, "floor"},
    {ir::OpId::kRoundNearestAfz, "round"},
    {ir::OpId::kRoundNearestEven, "rint"},
};
// The ops computed by a function of ir/scalar_math.h in double (the
// prelude embeds that file): the interpreter's own algorithm.
struct ScalarFunction {
  ir::OpId op;
  const char* fn;
  int arity;
};
constexpr ScalarFunction kScalarFunctions[] = {
#define HLOGRAPH_SCALAR_FUNCTION(id, fn, arity) {ir::OpId::id, #fn, arity},
#include "ir/ops/scalar_function_ops.def"
#undef HLOGRAPH_SCALAR_FUNCTION
};

// The scalar function computing `op` on `arity` operands, or null.
const char* ScalarFunctionOf(ir::OpId op, int arity) {
  for (const ScalarFunction& f : kScalarFunctions) {
    if (f.op == op && f.arity == arity) return f.fn;
  }
  return nullptr;
}

template <size_t N>
const char* Lookup(const MathOp (&table)[N], ir::OpId name) {
  for (const MathOp& m : table) {
    if (name == m.op) return m.fn;
  }
  return nullptr;
}

// Integer binary arithmetic that wraps: (T)((W)a op (W)b).
std::string WrapBinary(E t, const std::string& a, const char* op, const std::string& b) {
  const std::string w = WrapType(t);
  return "((" + CType(t) + ")((" + w + ")" + a + " " + op + " (" + w + ")" + b + "))";
}

// Binary ops whose operands and result share one element type.
StatusOr<std::string> BinaryExpr(const OpView& v) {
  const E t = v.in[0];
  if (v.in[1] != t || v.out != t) return v.Error("expects operands and result of one element type");
  const std::string& a = v.arg(0);
  const std::string& b = v.arg(1);
  const ir::OpId n = v.id;
  const std::string ct = CType(t);
  const Class c = ClassOf(t);
  const bool is_int = c == Class::kSigned || c == Class::kUnsigned;
  const bool f64 = t == E::kF64;
  auto templ = [&](const std::string& fn) { return fn + "<" + ct + ">(" + a + ", " + b + ")"; };

  if (c == Class::kBool) {
    if (n == ir::OpId::kAdd || n == ir::OpId::kOr || n == ir::OpId::kMaximum) return "(" + a + " || " + b + ")";
    if (n == ir::OpId::kMultiply || n == ir::OpId::kAnd || n == ir::OpId::kMinimum) {
      return "(" + a + " && " + b + ")";
    }
    if (n == ir::OpId::kXor) return "(" + a + " != " + b + ")";
    return v.NotDefinedFor(t);
  }
  if (is_int) {
    if (n == ir::OpId::kAdd) return WrapBinary(t, a, "+", b);
    if (n == ir::OpId::kSubtract) return WrapBinary(t, a, "-", b);
    if (n == ir::OpId::kMultiply) return WrapBinary(t, a, "*", b);
    if (n == ir::OpId::kDivide) return templ("hlo_idiv");
    if (n == ir::OpId::kRemainder) return templ("hlo_irem");
    if (n == ir::OpId::kPower) return templ("hlo_ipow");
    if (n == ir::OpId::kMaximum) return templ("hlo_imax");
    if (n == ir::OpId::kMinimum) return templ("hlo_imin");
    if (n == ir::OpId::kAnd) return "((" + ct + ")(" + a + " & " + b + "))";
    if (n == ir::OpId::kOr) return "((" + ct + ")(" + a + " | " + b + "))";
    if (n == ir::OpId::kXor) return "((" + ct + ")(" + a + " ^ " + b + "))";
    if (n == ir::OpId::kShiftLeft) return templ("hlo_shl");
    if (n == ir::OpId::kShiftRightLogical) return templ("hlo_shr_logical");
    if (n == ir::OpId::kShiftRightArithmetic) return templ("hlo_shr_arithmetic");
    if (n == ir::OpId::kChloMulhi) return templ("hlo_mulhi");
    return v.NotDefinedFor(t);
  }
  // Floats. Exact results first, then those rounded to f16/bf16.
  if (n == ir::OpId::kMaximum) return templ("hlo_fmax");
  if (n == ir::OpId::kMinimum) return templ("hlo_fmin");
  if (n == ir::OpId::kChloNextAfter) {
    if (t == E::kF16) return Call("hlo_next_after_f16", {a, b});
    if (t == E::kBF16) return Call("hlo_next_after_bf16", {a, b});
    if (IsNarrowFormat(t)) return Call("hlo_narrow_next_after<" + NarrowFormatName(t) + ">", {a, b});
    return Call(MathFn(t, "nextafter"), {a, b});
  }
  if (t == E::kBF16) {  // one packed bf16 instruction, rounded once (kernel prelude)
    if (n == ir::OpId::kAdd) return Call("hlo_bf16_add", {a, b});
    if (n == ir::OpId::kSubtract) return Call("hlo_bf16_sub", {a, b});
    if (n == ir::OpId::kMultiply) return Call("hlo_bf16_mul", {a, b});
  }
  std::string r;
  if (n == ir::OpId::kAdd) {
    r = "(" + a + " + " + b + ")";
  } else if (n == ir::OpId::kSubtract) {
    r = "(" + a + " - " + b + ")";
  } else if (n == ir::OpId::kMultiply) {
    r = Call(f64 ? "__dmul_rn" : "__fmul_rn", {a, b});
  } else if (n == ir::OpId::kDivide) {
    r = Call(f64 ? "__ddiv_rn" : "__fdiv_rn", {a, b});
  } else if (n == ir::OpId::kRemainder) {
    r = Call(MathFn(t, "fmod"), {a, b});
  } else if (n == ir::OpId::kPower) {
    r = Call(MathFn(t, "pow"), {a, b});
  } else if (n == ir::OpId::kAtan2) {
    r = Call(MathFn(t, "atan2"), {a, b});
  } else if (const char* fn = ScalarFunctionOf(n, 2)) {
    r = ViaDouble(t, fn, {a, b});
  } else {
    return v.NotDefinedFor(t);
  }
  return RoundTo(t, r);
}

// Unary ops whose operand and result share one element type.
StatusOr<std::string> UnaryExpr(const OpView& v) {
  const E t = v.in[0];
  const ir::OpId n = v.id;
  const std::string& a = v.arg(0);
  if (v.out != t) return v.Error("expects the result element type to match the operand's");
  const std::string ct = CType(t);
  const Class c = ClassOf(t);
  auto templ = [&](const std::string& fn) { return fn + "<" + ct + ">(" + a + ")"; };

  if (c == Class::kBool) {
    if (n == ir::OpId::kNot) return "(!" + a + ")";
    return v.NotDefinedFor(t);
  }
  if (c != Class::kFloat) {
    if (n == ir::OpId::kNegate) return "((" + ct + ")((" + WrapType(t) + ")0 - (" + WrapType(t) + ")" + a + "))";
    if (n == ir::OpId::kNot) return "((" + ct + ")~" + a + ")";
    if (n == ir::OpId::kAbs) return templ("hlo_iabs");
    if (n == ir::OpId::kSign) return templ("hlo_isign");
    if (n == ir::OpId::kPopcnt) return templ("hlo_popcnt");
    if (n == ir::OpId::kCountLeadingZeros) return templ("hlo_clz");
    if (n == ir::OpId::kChloSquare) return templ("hlo_isquare");
    return v.NotDefinedFor(t);
  }
  const bool f64 = t == E::kF64;
  // Exact on the format's values: no rounding.
  if (n == ir::OpId::kNegate) return Exact(t, "(-" + a + ")");
  if (n == ir::OpId::kAbs) return Call(MathFn(t, "fabs"), {a});
  if (n == ir::OpId::kSign) return Exact(t, templ("hlo_fsign"));
  if (n == ir::OpId::kChloConj || n == ir::OpId::kReal) return a;
  if (n == ir::OpId::kImag) return std::string(f64 ? "0.0" : "0.0f");
  if (const char* fn = Lookup(kExactOps, n)) return Exact(t, Call(MathFn(t, fn), {a}));
  std::string r;
  const bool narrow = t == E::kBF16 || t == E::kF16;  // approximations the rounding hides (kernel prelude)
  if (narrow && n == ir::OpId::kTanh) {
    r = Call("hlo_tanh_narrow", {a});
  } else if (narrow && n == ir::OpId::kExponential) {
    r = Call("hlo_exp_narrow", {a});
  } else if (narrow && n == ir::OpId::kLogistic) {
    r = Call("hlo_logistic_narrow", {a});
  } else if (const char* fn = Lookup(kMathOps, n)) {
    r = Call(MathFn(t, fn), {a});
  } else if (const char* scalar = ScalarFunctionOf(n, 1)) {
    r = ViaDouble(t, scalar, {a});
  } else if (n == ir::OpId::kSqrt) {
    r = Call(f64 ? "__dsqrt_rn" : "__fsqrt_rn", {a});
  } else if (n == ir::OpId::kRsqrt) {
    // 1 / sqrt(x), both correctly rounded, as the interpreter (not rsqrtf).
    r = f64 ? "__ddiv_rn(1.0, __dsqrt_rn(" + a + "))" : "__fdiv_rn(1.0f, __fsqrt_rn(" + a + "))";
  } else if (n == ir::OpId::kCbrt) {
    r = Call("hlo_cbrt", {a});
  } else if (n == ir::OpId::kLogistic) {
    r = Call("hlo_logistic", {a});
  } else if (n == ir::OpId::kChloSquare) {
    r = Call("hlo_fsquare", {a});
  } else {
    return v.NotDefinedFor(t);
  }
  return RoundTo(t, r);
}

// is_finite and the chlo.is_*inf predicates: float operand, i1 result.
StatusOr<std::string> PredicateExpr(const OpView& v) {
  const E t = v.in[0];
  if (ClassOf(t) != Class::kFloat) return v.NotDefinedFor(t);
  if (v.out != E::kI1) return v.Error("expects an i1 result");
  const std::string ct = CType(t);
  const std::string& a = v.arg(0);
  if (v.id == ir::OpId::kIsFinite) return "((bool)isfinite(" + a + "))";
  if (v.id == ir::OpId::kChloIsInf) return "((bool)isinf(" + a + "))";
  if (v.id == ir::OpId::kChloIsPosInf) return "hlo_is_pos_inf<" + ct + ">(" + a + ")";
  return "hlo_is_neg_inf<" + ct + ">(" + a + ")";
}

StatusOr<std::string> SelectExpr(const OpView& v) {
  if (v.in[0] != E::kI1) return v.Error("expects an i1 pred");
  if (v.in[1] != v.out || v.in[2] != v.out) return v.Error("expects on_true and on_false of the result type");
  return "(" + v.arg(0) + " ? " + v.arg(1) + " : " + v.arg(2) + ")";
}

// clamp(min, x, max) = minimum(maximum(x, min), max).
StatusOr<std::string> ClampExpr(const OpView& v) {
  const E t = v.out;
  if (v.in[0] != t || v.in[1] != t || v.in[2] != t) {
    return v.Error("expects min, operand, max and result of one element type");
  }
  const std::string& lo = v.arg(0);
  const std::string& x = v.arg(1);
  const std::string& hi = v.arg(2);
  switch (ClassOf(t)) {
    case Class::kBool: return "((" + x + " || " + lo + ") && " + hi + ")";
    case Class::kFloat: return "hlo_fclamp<" + CType(t) + ">(" + lo + ", " + x + ", " + hi + ")";
    case Class::kComplex: return "hlo_cclamp(" + lo + ", " + x + ", " + hi + ")";
    default: return "hlo_iclamp<" + CType(t) + ">(" + lo + ", " + x + ", " + hi + ")";
  }
}

StatusOr<std::string> RealImagExpr(const OpView& v) {
  if (ClassOf(v.in[0]) != Class::kFloat) return v.NotDefinedFor(v.in[0]);
  return UnaryExpr(v);
}

// The element type of a value, when it is a tensor.
bool ElementOf(const ir::Value* value, E* e) {
  if (value == nullptr || !value->type().IsTensor()) return false;
  *e = value->type().element();
  return true;
}

std::string FormatHexFloat(double d, bool is_float) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%a", d);
  std::string s = std::string(buf) + (is_float ? "f" : "");
  return d < 0 || std::signbit(d) ? "(" + s + ")" : s;
}

}  // namespace
}  // namespace elemental

using elemental::ClassOf;
using elemental::CType;
using E = ir::ElementType;

namespace {
Status UnsupportedType(E t) {
  return Status::Error("element type " + elemental::TypeName(t) + " is not supported by the GPU code generator");
}
}  // namespace

StatusOr<std::string> StorageType(E t) {
  if (!IsSupportedElementType(t)) return UnsupportedType(t);
  if (t == E::kF16) return std::string("__half");
  if (t == E::kBF16) return std::string("__nv_bfloat16");
  if (elemental::IsNarrowFormat(t)) return std::string("uint8_t");
  return CType(t);
}

StatusOr<std::string> ComputeType(E t) {
  if (!IsSupportedElementType(t)) return UnsupportedType(t);
  return CType(t);
}

// f16 goes through hlo_load_f16/hlo_store_f16 rather than __half2float/
// __float2half_rn, which turn every NaN into the canonical one: a NaN's sign
// and payload survive (bitcast_convert and TOTALORDER compare see them, as
// in the interpreter). Values are otherwise converted exactly the same way.
// bf16 loads are exact shifts; stores keep NaNs likewise.
// f8 loads decode the byte exactly; stores keep a NaN's sign and payload
// as for f16 (the value is already rounded to the format).
std::string LoadExpr(E t, const std::string& storage_expr) {
  if (t == E::kF16) return "hlo_load_f16(" + storage_expr + ")";
  if (t == E::kBF16) return "__bfloat162float(" + storage_expr + ")";
  if (elemental::IsNarrowFormat(t)) {
    return "hlo_narrow_to_float<" + elemental::NarrowFormatName(t) + ">(" + storage_expr + ")";
  }
  return storage_expr;
}

std::string StoreExactExpr(E t, const std::string& compute_expr) {
  return t == E::kBF16 ? "hlo_store_exact_bf16(" + compute_expr + ")" : StoreExpr(t, compute_expr);
}

std::string StoreExpr(E t, const std::string& compute_expr) {
  if (t == E::kF16) return "hlo_store_f16(" + compute_expr + ")";
  if (t == E::kBF16) return "hlo_store_bf16(" + compute_expr + ")";
  if (elemental::IsNarrowFormat(t)) {
    return "hlo_narrow_bits<" + elemental::NarrowFormatName(t) + ">(" + compute_expr + ")";
  }
  return compute_expr;
}

StatusOr<std::string> LiteralExpr(E t, uint64_t bits) {
  if (!IsSupportedElementType(t)) return UnsupportedType(t);
  if (t == E::kC128) return Status::Error("a complex<f64> literal takes 128 bits: use ElementLiteralExpr");
  if (t == E::kC64) {
    HLOGRAPH_ASSIGN(const std::string re, LiteralExpr(E::kF32, bits & 0xffffffffu));
    HLOGRAPH_ASSIGN(const std::string im, LiteralExpr(E::kF32, bits >> 32));
    return "hlo_cplx<float>(" + re + ", " + im + ")";
  }
  const int width = ir::BitWidth(t);
  const uint64_t mask = width >= 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1;
  bits &= mask;
  switch (ClassOf(t)) {
    case elemental::Class::kBool: return std::string(bits ? "true" : "false");
    case elemental::Class::kUnsigned: return "((" + CType(t) + ")" + std::to_string(bits) + "ull)";
    case elemental::Class::kSigned: {
      if (width < 64 && (bits >> (width - 1)) & 1) bits |= ~mask;
      const auto v = static_cast<int64_t>(bits);
      if (v == INT64_MIN) return std::string("((int64_t)(-9223372036854775807ll - 1))");
      return "((" + CType(t) + ")" + std::to_string(v) + "ll)";
    }
    case elemental::Class::kFloat:
    case elemental::Class::kComplex: break;
  }
  if (t == E::kF64) {
    double d;
    std::memcpy(&d, &bits, 8);
    if (std::isfinite(d)) return elemental::FormatHexFloat(d, false);
    char buf[64];
    std::snprintf(buf, sizeof buf, "__longlong_as_double((long long)0x%016llxull)", static_cast<unsigned long long>(bits));
    return std::string(buf);
  }
  if (elemental::IsNarrowFormat(t)) {
    // The float of the same value (exact); a NaN as the loads decode it.
    const double d = ir::FloatBitsToDouble(bits, t);
    const std::string name = elemental::NarrowFormatName(t);
    if (std::isnan(d)) return "hlo_narrow_to_float<" + name + ">(" + std::to_string(bits) + "u)";
    if (std::isinf(d)) return std::string(d < 0 ? "__uint_as_float(0xff800000u)" : "__uint_as_float(0x7f800000u)");
    return elemental::FormatHexFloat(static_cast<double>(static_cast<float>(d)), true);
  }
  // f32, and f16/bf16 as the float of the same value (exact).
  uint32_t f32_bits;
  if (t == E::kF32) {
    f32_bits = static_cast<uint32_t>(bits);
  } else if (t == E::kBF16) {
    f32_bits = static_cast<uint32_t>(bits) << 16;
  } else {
    const uint32_t sign = static_cast<uint32_t>(bits & 0x8000) << 16;
    const uint32_t exp = static_cast<uint32_t>(bits >> 10) & 0x1f, man = static_cast<uint32_t>(bits) & 0x3ff;
    if (exp == 0x1f) {
      f32_bits = sign | 0x7f800000u | (man << 13);  // inf, or NaN with its payload
    } else {
      const float f = static_cast<float>(ir::FloatBitsToDouble(bits, E::kF16));
      std::memcpy(&f32_bits, &f, 4);
    }
  }
  float f;
  std::memcpy(&f, &f32_bits, 4);
  if (std::isfinite(f)) return elemental::FormatHexFloat(static_cast<double>(f), true);
  char buf[48];
  std::snprintf(buf, sizeof buf, "__uint_as_float(0x%08xu)", f32_bits);
  return std::string(buf);
}

StatusOr<std::string> ElementLiteralExpr(E t, const uint8_t* bytes) {
  if (!IsSupportedElementType(t)) return UnsupportedType(t);
  auto read = [&](size_t offset, size_t n) {
    uint64_t bits = 0;
    for (size_t i = 0; i < n && i < 8; ++i) bits |= uint64_t{bytes[offset + i]} << (8 * i);
    return bits;
  };
  if (!ir::IsComplex(t)) return LiteralExpr(t, read(0, static_cast<size_t>(ir::StorageBytes(t))));
  // The real part, then the imaginary part.
  const E part = ir::ComplexPart(t);
  const size_t half = static_cast<size_t>(ir::StorageBytes(part));
  HLOGRAPH_ASSIGN(const std::string re, LiteralExpr(part, read(0, half)));
  HLOGRAPH_ASSIGN(const std::string im, LiteralExpr(part, read(half, half)));
  return "hlo_cplx<" + CType(part) + ">(" + re + ", " + im + ")";
}

StatusOr<std::string> ElementalExpr(const ir::Operation& op, const std::vector<std::string>& operands) {
  const ir::OpId id = op.id();
  const std::string& name = op.name();
  if (!IsElementwiseOp(id)) {
    return Status::Error(name + " is not an elementwise op that the GPU code generator translates");
  }
  if (operands.size() != op.num_operands()) {
    return Status::Error(name + ": expects " + std::to_string(op.num_operands()) + " operand expressions, got " +
                         std::to_string(operands.size()));
  }
  if (op.num_results() != 1) return Status::Error(name + ": expects a single result");
  elemental::OpView v{op, id, name, operands, {}, E::kF32};
  for (size_t i = 0; i <= op.num_operands(); ++i) {
    const ir::Value* value = i < op.num_operands() ? op.operand(i) : op.result(0);
    E e;
    if (!elemental::ElementOf(value, &e)) return v.Error("expects tensor operands and result");
    if (!IsSupportedElementType(e)) {
      return v.Error("element type " + elemental::TypeName(e) + " is not supported by the GPU code generator");
    }
    if (i < op.num_operands()) {
      v.in.push_back(e);
    } else {
      v.out = e;
    }
  }
  const size_t arity = operands.size();
  if (id == ir::OpId::kConvert) return elemental::ConvertExpr(v);
  if (id == ir::OpId::kBitcastConvert) return elemental::BitcastConvertExpr(v);
  if (id == ir::OpId::kReducePrecision) return elemental::ReducePrecisionExpr(v);
  if (id == ir::OpId::kCompare) return elemental::CompareExpr(v);
  if (id == ir::OpId::kSelect) return elemental::SelectExpr(v);
  if (id == ir::OpId::kComplex) return elemental::MakeComplexExpr(v);
  if (ir::IsComplex(v.in[0])) return elemental::ComplexOpExpr(v);
  if (id == ir::OpId::kClamp) return elemental::ClampExpr(v);
  if (id == ir::OpId::kReal || id == ir::OpId::kImag) return elemental::RealImagExpr(v);
  if (id == ir::OpId::kIsFinite || id == ir::OpId::kChloIsInf || id == ir::OpId::kChloIsPosInf ||
      id == ir::OpId::kChloIsNegInf) {
    return elemental::PredicateExpr(v);
  }
  if (arity == 2) return elemental::BinaryExpr(v);
  if (arity == 1) return elemental::UnaryExpr(v);
  return v.Error("has an unexpected number of operands (" + std::to_string(arity) + ")");
}

}  // namespace hlograph::gpu
