// The GPU code generator's elementwise expressions (backends/gpu/codegen/
// elemental.h). NVRTC needs no GPU, so every op x element type is compiled
// to a cubin here on any machine with the CUDA toolkit; where a GPU exists
// the same kernels run on edge-case inputs and are compared with the CPU
// interpreter bit for bit (a few ulp for transcendental functions).
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>
#include <nvrtc.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "backends/cpu/interpreter.h"
#include "backends/cpu/tensor.h"
#include "backends/gpu/codegen/elemental.h"
#include "backends/gpu/plan/elementwise_support.h"
#include "ir/elementwise_ops.h"
#include "ir/float_bits.h"
#include "ir/module.h"
#include "test_util.h"

namespace hlograph::testing {
namespace {

using E = ir::ElementType;
using gpu::ElementalExpr;

const std::vector<E> kF8Types = {E::kF8E3M4,       E::kF8E4M3, E::kF8E4M3FN,   E::kF8E4M3FNUZ,
                                 E::kF8E4M3B11FNUZ, E::kF8E5M2, E::kF8E5M2FNUZ, E::kF8E8M0FNU};
const std::vector<E> kFloatTypes = [] {
  std::vector<E> t = {E::kF16, E::kBF16, E::kF32, E::kF64};
  t.insert(t.end(), kF8Types.begin(), kF8Types.end());
  return t;
}();
const std::vector<E> kAllTypes = [] {
  std::vector<E> t = {E::kI1, E::kI8, E::kI16, E::kI32, E::kI64, E::kU8, E::kU16, E::kU32, E::kU64};
  t.insert(t.end(), kFloatTypes.begin(), kFloatTypes.end());
  t.insert(t.end(), {E::kC64, E::kC128});
  return t;
}();
const std::vector<E> kIntTypes = {E::kI8, E::kI16, E::kI32, E::kI64, E::kU8, E::kU16, E::kU32, E::kU64};

std::string TypeName(E e) { return std::string(ir::ElementTypeName(e)); }
std::string TensorType(E e, int64_t n) { return "tensor<" + std::to_string(n) + "x" + TypeName(e) + ">"; }

// One op applied to 1-D operands of n elements (generic syntax).
std::string OpProgram(const std::string& op, const std::vector<E>& operands, E result, const std::string& attrs,
                      int64_t n) {
  std::string params, args, types;
  for (size_t i = 0; i < operands.size(); ++i) {
    const std::string t = TensorType(operands[i], n);
    params += (i ? ", " : "") + std::string("%a") + std::to_string(i) + ": " + t;
    args += (i ? ", " : "") + std::string("%a") + std::to_string(i);
    types += (i ? ", " : "") + t;
  }
  const std::string r = TensorType(result, n);
  return "func.func @main(" + params + ") -> " + r + " {\n  %r = \"" + op + "\"(" + args + ") " +
         (attrs.empty() ? "" : "{" + attrs + "} ") + ": (" + types + ") -> " + r + "\n  return %r : " + r + "\n}\n";
}

// A parsed one-op program and its op.
struct Parsed {
  std::vector<std::unique_ptr<ir::Module>> modules;
  const ir::Operation* op = nullptr;
};

Parsed Parse(const std::string& text) {
  Parsed p;
  p.modules = ParseOrDie(text);
  if (p.modules.empty()) return p;
  const ir::Operation* func = p.modules[0]->EntryFunction();
  if (func == nullptr || func->num_regions() == 0) {
    ADD_FAILURE() << "no entry function in\n" << text;
    return p;
  }
  p.op = func->region(0).front().operations()[0].get();
  return p;
}

// ---------------------------------------------------------------------------
// The cases: every supported op on every element type it is defined for.

// kLoose: complex power, whose result amplifies an ulp of difference in
// log and atan2 by the exponent.
enum Accuracy { kExact, kApprox, kLoose };

struct Case {
  std::string op;
  std::vector<E> operands;
  E result;
  std::string attrs;
  Accuracy accuracy = kExact;
  std::string Label() const {
    std::string s = op + "(";
    for (size_t i = 0; i < operands.size(); ++i) s += (i ? "," : "") + TypeName(operands[i]);
    return s + ")->" + TypeName(result) + (attrs.empty() ? "" : " {" + attrs + "}");
  }
};

enum Classes { kB = 1, kI = 2, kF = 4, kC = 8 };

struct OpSpec {
  const char* op;
  int arity;
  int classes;
  Accuracy accuracy;
};

const OpSpec kSameTypeOps[] = {
    {"stablehlo.add", 2, kB | kI | kF | kC, kExact},
    {"stablehlo.subtract", 2, kI | kF | kC, kExact},
    {"stablehlo.multiply", 2, kB | kI | kF | kC, kExact},
    {"stablehlo.divide", 2, kI | kF | kC, kExact},
    {"stablehlo.remainder", 2, kI | kF, kExact},
    {"stablehlo.power", 2, kI | kF, kApprox},
    {"stablehlo.maximum", 2, kB | kI | kF | kC, kExact},
    {"stablehlo.minimum", 2, kB | kI | kF | kC, kExact},
    {"stablehlo.atan2", 2, kF, kApprox},
    {"stablehlo.and", 2, kB | kI, kExact},
    {"stablehlo.or", 2, kB | kI, kExact},
    {"stablehlo.xor", 2, kB | kI, kExact},
    {"stablehlo.shift_left", 2, kI, kExact},
    {"stablehlo.shift_right_logical", 2, kI, kExact},
    {"stablehlo.shift_right_arithmetic", 2, kI, kExact},
    {"chlo.mulhi", 2, kI, kExact},
    {"chlo.next_after", 2, kF, kExact},
    {"chlo.polygamma", 2, kF, kApprox},
    {"chlo.zeta", 2, kF, kApprox},
    {"stablehlo.negate", 1, kI | kF | kC, kExact},
    {"stablehlo.not", 1, kB | kI, kExact},
    {"stablehlo.popcnt", 1, kI, kExact},
    {"stablehlo.count_leading_zeros", 1, kI, kExact},
    {"stablehlo.sign", 1, kI | kF, kExact},
    {"stablehlo.abs", 1, kI | kF, kExact},
    {"stablehlo.ceil", 1, kF, kExact},
    {"stablehlo.floor", 1, kF, kExact},
    {"stablehlo.round_nearest_afz", 1, kF, kExact},
    {"stablehlo.round_nearest_even", 1, kF, kExact},
    {"stablehlo.sqrt", 1, kF, kExact},
    {"stablehlo.rsqrt", 1, kF, kExact},
    {"stablehlo.cbrt", 1, kF | kC, kApprox},
    {"stablehlo.exponential", 1, kF | kC, kApprox},
    {"stablehlo.exponential_minus_one", 1, kF | kC, kApprox},
    {"stablehlo.log", 1, kF | kC, kApprox},
    {"stablehlo.log_plus_one", 1, kF | kC, kApprox},
    {"stablehlo.logistic", 1, kF | kC, kApprox},
    {"stablehlo.sine", 1, kF | kC, kApprox},
    {"stablehlo.cosine", 1, kF | kC, kApprox},
    {"stablehlo.tan", 1, kF | kC, kApprox},
    {"stablehlo.tanh", 1, kF | kC, kApprox},
    {"stablehlo.real", 1, kF, kExact},
    {"stablehlo.imag", 1, kF, kExact},
    {"chlo.tan", 1, kF | kC, kApprox},
    {"chlo.asin", 1, kF, kApprox},
    {"chlo.acos", 1, kF, kApprox},
    {"chlo.atan", 1, kF, kApprox},
    {"chlo.sinh", 1, kF | kC, kApprox},
    {"chlo.cosh", 1, kF | kC, kApprox},
    {"chlo.asinh", 1, kF, kApprox},
    {"chlo.acosh", 1, kF, kApprox},
    {"chlo.atanh", 1, kF, kApprox},
    {"chlo.square", 1, kI | kF | kC, kExact},
    {"chlo.conj", 1, kF | kC, kExact},
    {"chlo.erf", 1, kF, kApprox},
    {"chlo.erfc", 1, kF, kApprox},
    {"chlo.erf_inv", 1, kF, kApprox},
    {"chlo.lgamma", 1, kF, kApprox},
    {"chlo.digamma", 1, kF, kApprox},
    {"chlo.bessel_i1e", 1, kF, kApprox},
};

// Complex versions of these go through hypot (CUDA's for complex<f64>):
// compared to a few ulp.
const OpSpec kComplexApproxOps[] = {
    {"stablehlo.sign", 1, kC, kApprox},
    {"stablehlo.sqrt", 1, kC, kApprox},
    {"stablehlo.rsqrt", 1, kC, kApprox},
    {"stablehlo.power", 2, kC, kLoose},
};

int ClassOf(E e) {
  if (e == E::kI1) return kB;
  if (ir::IsComplex(e)) return kC;
  return ir::IsFloat(e) ? kF : kI;
}

std::vector<Case> AllCases() {
  std::vector<Case> cases;
  auto add_same_type = [&](const OpSpec& s) {
    for (E e : kAllTypes) {
      if (s.classes & ClassOf(e)) cases.push_back({s.op, std::vector<E>(static_cast<size_t>(s.arity), e), e, "", s.accuracy});
    }
  };
  for (const OpSpec& s : kSameTypeOps) add_same_type(s);
  for (const OpSpec& s : kComplexApproxOps) add_same_type(s);
  // Complex -> real parts.
  for (E e : {E::kC64, E::kC128}) {
    cases.push_back({"stablehlo.real", {e}, ir::ComplexPart(e), ""});
    cases.push_back({"stablehlo.imag", {e}, ir::ComplexPart(e), ""});
    cases.push_back({"stablehlo.abs", {e}, ir::ComplexPart(e), "", kApprox});
    cases.push_back({"stablehlo.complex", {ir::ComplexPart(e), ir::ComplexPart(e)}, e, ""});
  }
  for (const char* op : {"stablehlo.is_finite", "chlo.is_inf", "chlo.is_pos_inf", "chlo.is_neg_inf"}) {
    for (E e : kFloatTypes) cases.push_back({op, {e}, E::kI1, ""});
  }
  for (E e : kAllTypes) {
    cases.push_back({"stablehlo.select", {E::kI1, e, e}, e, ""});
    cases.push_back({"stablehlo.clamp", {e, e, e}, e, ""});
    const char* type = e == E::kI1                               ? nullptr
                       : ir::IsFloat(e) || ir::IsComplex(e) ? "FLOAT"
                       : ir::IsSignedInteger(e)             ? "SIGNED"
                                                            : "UNSIGNED";
    for (const char* dir : {"EQ", "NE", "GE", "GT", "LE", "LT"}) {
      std::string attrs = std::string("comparison_direction = #stablehlo<comparison_direction ") + dir + ">";
      cases.push_back({"stablehlo.compare", {e, e}, E::kI1,
                       type ? attrs + ", compare_type = #stablehlo<comparison_type " + type + ">" : attrs});
      if (ir::IsFloat(e)) {
        cases.push_back({"stablehlo.compare", {e, e}, E::kI1, attrs + ", compare_type = #stablehlo<comparison_type TOTALORDER>"});
      }
    }
    for (E to : kAllTypes) {
      if (to != e) cases.push_back({"stablehlo.convert", {e}, to, ""});
      if (to != e && ir::BitWidth(to) == ir::BitWidth(e)) cases.push_back({"stablehlo.bitcast_convert", {e}, to, ""});
    }
  }
  for (E e : kFloatTypes) {
    for (auto [exp, man] : std::vector<std::pair<int, int>>{{5, 10}, {8, 7}, {4, 3}, {8, 23}, {2, 1}, {11, 52}}) {
      cases.push_back({"stablehlo.reduce_precision", {e}, e,
                       "exponent_bits = " + std::to_string(exp) + " : i32, mantissa_bits = " + std::to_string(man) + " : i32"});
    }
  }
  return cases;
}

// ---------------------------------------------------------------------------
// Kernels.

// `__global__ void <name>(const S0* a0, ..., R* r, int n)`: r[i] = op(a0[i], ...).
StatusOr<std::string> CaseKernel(const Case& c, const ir::Operation& op, const std::string& name) {
  std::string params, body;
  std::vector<std::string> names;
  for (size_t i = 0; i < c.operands.size(); ++i) {
    HLOGRAPH_ASSIGN(const std::string storage, gpu::StorageType(c.operands[i]));
    HLOGRAPH_ASSIGN(const std::string compute, gpu::ComputeType(c.operands[i]));
    const std::string a = "a" + std::to_string(i), x = "x" + std::to_string(i);
    params += "const " + storage + "* __restrict__ " + a + ", ";
    body += "  const " + compute + " " + x + " = " + gpu::LoadExpr(c.operands[i], a + "[i]") + ";\n  (void)" + x +
            ";\n";
    names.push_back(x);
  }
  HLOGRAPH_ASSIGN(const std::string result_storage, gpu::StorageType(c.result));
  HLOGRAPH_ASSIGN(const std::string expr, ElementalExpr(op, names));
  return "extern \"C\" __global__ void " + name + "(" + params + result_storage +
         "* __restrict__ r, int n) {\n  const int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i >= n) return;\n" +
         body + "  r[i] = " + gpu::StoreExpr(c.result, expr) + ";\n}\n";
}

struct CompileResult {
  bool ok = false;
  std::string log;
  std::string cubin;
};

// NVRTC straight to a cubin for sm_<arch>.
CompileResult Compile(const std::string& source, int arch) {
  CompileResult out;
  nvrtcProgram prog;
  if (nvrtcCreateProgram(&prog, source.c_str(), "elemental_test.cu", 0, nullptr, nullptr) != NVRTC_SUCCESS) {
    out.log = "nvrtcCreateProgram failed";
    return out;
  }
  const std::string arch_opt = "--gpu-architecture=sm_" + std::to_string(arch);
  const std::string include = std::string("-I") + gpu::KernelIncludeDir();
  const char* opts[] = {arch_opt.c_str(), "-std=c++17", include.c_str()};
  const nvrtcResult r = nvrtcCompileProgram(prog, 3, opts);
  size_t log_size = 0;
  nvrtcGetProgramLogSize(prog, &log_size);
  out.log.resize(log_size);
  if (log_size > 0) nvrtcGetProgramLog(prog, out.log.data());
  while (!out.log.empty() && (out.log.back() == '\0' || out.log.back() == '\n')) out.log.pop_back();
  if (r == NVRTC_SUCCESS) {
    size_t size = 0;
    nvrtcGetCUBINSize(prog, &size);
    out.cubin.resize(size);
    nvrtcGetCUBIN(prog, out.cubin.data());
    out.ok = true;
  }
  nvrtcDestroyProgram(&prog);
  return out;
}

// The source with line numbers, for failure messages.
std::string Numbered(const std::string& source) {
  std::string out;
  int line = 1;
  size_t start = 0;
  while (start < source.size()) {
    size_t end = source.find('\n', start);
    if (end == std::string::npos) end = source.size();
    out += std::to_string(line++) + ": " + source.substr(start, end - start) + "\n";
    start = end + 1;
  }
  return out;
}

// The cases compiled in batches (one NVRTC program per batch of kernels).
struct Batch {
  std::vector<size_t> cases;
  std::vector<Parsed> parsed;
  std::string source;
};

constexpr int64_t kProgramElements = 1;  // the parsed programs' shape (only the op matters)

std::vector<Batch> BuildBatches(const std::vector<Case>& cases, size_t per_batch) {
  std::vector<Batch> batches;
  for (size_t i = 0; i < cases.size(); ++i) {
    if (batches.empty() || batches.back().cases.size() == per_batch) {
      batches.emplace_back();
      batches.back().source = gpu::KernelPrelude();
    }
    Batch& b = batches.back();
    Parsed p = Parse(OpProgram(cases[i].op, cases[i].operands, cases[i].result, cases[i].attrs, kProgramElements));
    if (p.op == nullptr) continue;
    auto kernel = CaseKernel(cases[i], *p.op, "k" + std::to_string(i));
    if (!kernel.ok()) {
      ADD_FAILURE() << cases[i].Label() << ": " << kernel.status().message();
      continue;
    }
    b.source += "// " + cases[i].Label() + "\n" + *kernel;
    b.cases.push_back(i);
    b.parsed.push_back(std::move(p));
  }
  return batches;
}

// ---------------------------------------------------------------------------
// String-level tests.

std::string ExprOf(const std::string& op, const std::vector<E>& operands, E result, const std::vector<std::string>& args,
                   const std::string& attrs = "") {
  Parsed p = Parse(OpProgram(op, operands, result, attrs, 4));
  if (p.op == nullptr) return "<parse error>";
  auto expr = ElementalExpr(*p.op, args);
  return expr.ok() ? *expr : "error: " + expr.status().message();
}

TEST(GpuElemental, TypesLoadsAndStores) {
  EXPECT_EQ(*gpu::StorageType(E::kF16), "__half");
  EXPECT_EQ(*gpu::StorageType(E::kBF16), "__nv_bfloat16");
  EXPECT_EQ(*gpu::StorageType(E::kI1), "bool");
  EXPECT_EQ(*gpu::StorageType(E::kU64), "uint64_t");
  EXPECT_EQ(*gpu::ComputeType(E::kF16), "float");
  EXPECT_EQ(*gpu::ComputeType(E::kBF16), "float");
  EXPECT_EQ(*gpu::ComputeType(E::kF64), "double");
  EXPECT_EQ(*gpu::ComputeType(E::kI8), "int8_t");
  EXPECT_EQ(gpu::LoadExpr(E::kF16, "p[i]"), "hlo_load_f16(p[i])");
  EXPECT_EQ(gpu::LoadExpr(E::kBF16, "p[i]"), "__bfloat162float(p[i])");
  EXPECT_EQ(gpu::StoreExpr(E::kBF16, "x"), "hlo_store_bf16(x)");
  EXPECT_EQ(gpu::LoadExpr(E::kI32, "p[i]"), "p[i]");
  // f8: a byte, computed in float; complex: a struct of two parts.
  EXPECT_EQ(*gpu::StorageType(E::kF8E4M3FN), "uint8_t");
  EXPECT_EQ(*gpu::ComputeType(E::kF8E5M2), "float");
  EXPECT_EQ(gpu::LoadExpr(E::kF8E4M3FN, "p[i]"), "hlo_narrow_to_float<hlo_f8e4m3fn>(p[i])");
  EXPECT_EQ(gpu::StoreExpr(E::kF8E5M2FNUZ, "x"), "hlo_narrow_bits<hlo_f8e5m2fnuz>(x)");
  EXPECT_EQ(*gpu::StorageType(E::kC64), "hlo_complex<float>");
  EXPECT_EQ(*gpu::ComputeType(E::kC128), "hlo_complex<double>");
  EXPECT_EQ(gpu::LoadExpr(E::kC64, "p[i]"), "p[i]");
  for (E e : kAllTypes) EXPECT_TRUE(gpu::IsSupportedElementType(e)) << TypeName(e);
  for (E e : {E::kF4E2M1FN, E::kF6E2M3FN, E::kI4, E::kU2, E::kTF32, E::kIndex}) {
    EXPECT_FALSE(gpu::IsSupportedElementType(e)) << TypeName(e);
    auto s = gpu::StorageType(e);
    ASSERT_FALSE(s.ok());
    EXPECT_TRUE(HasSubstr(s.status().message(), "element type " + TypeName(e) + " is not supported"));
  }
}

TEST(GpuElemental, Expressions) {
  EXPECT_EQ(ExprOf("stablehlo.add", {E::kI32, E::kI32}, E::kI32, {"a", "b"}), "((int32_t)((uint32_t)a + (uint32_t)b))");
  EXPECT_EQ(ExprOf("stablehlo.add", {E::kF32, E::kF32}, E::kF32, {"a", "b"}), "(a + b)");
  // f16 results are rounded after every op.
  EXPECT_EQ(ExprOf("stablehlo.add", {E::kF16, E::kF16}, E::kF16, {"a", "b"}), "hlo_round_f16((a + b))");
  // bf16 adds, subtracts and multiplies: one packed bf16 FMA, rounded once.
  EXPECT_EQ(ExprOf("stablehlo.multiply", {E::kBF16, E::kBF16}, E::kBF16, {"a", "b"}), "hlo_bf16_mul(a, b)");
  EXPECT_EQ(ExprOf("stablehlo.subtract", {E::kBF16, E::kBF16}, E::kBF16, {"a", "b"}), "hlo_bf16_sub(a, b)");
  EXPECT_EQ(ExprOf("stablehlo.divide", {E::kBF16, E::kBF16}, E::kBF16, {"a", "b"}), "hlo_round_bf16(__fdiv_rn(a, b))");
  EXPECT_EQ(ExprOf("stablehlo.maximum", {E::kF16, E::kF16}, E::kF16, {"a", "b"}), "hlo_fmax<float>(a, b)");
  EXPECT_EQ(ExprOf("stablehlo.add", {E::kI1, E::kI1}, E::kI1, {"a", "b"}), "(a || b)");
  EXPECT_EQ(ExprOf("stablehlo.divide", {E::kU16, E::kU16}, E::kU16, {"a", "b"}), "hlo_idiv<uint16_t>(a, b)");
  EXPECT_EQ(ExprOf("stablehlo.exponential", {E::kF32}, E::kF32, {"x"}), "expf(x)");
  EXPECT_EQ(ExprOf("stablehlo.exponential", {E::kF64}, E::kF64, {"x"}), "exp(x)");
  EXPECT_EQ(ExprOf("chlo.erf", {E::kF32}, E::kF32, {"x"}), "((float)hlo_erf((double)x))");
  EXPECT_EQ(ExprOf("chlo.zeta", {E::kF64, E::kF64}, E::kF64, {"s", "q"}), "hlo_zeta(s, q)");
  EXPECT_EQ(ExprOf("stablehlo.select", {E::kI1, E::kF32, E::kF32}, E::kF32, {"p", "a", "b"}), "(p ? a : b)");
  EXPECT_EQ(ExprOf("stablehlo.compare", {E::kF32, E::kF32}, E::kI1, {"a", "b"},
                   "comparison_direction = #stablehlo<comparison_direction LT>, "
                   "compare_type = #stablehlo<comparison_type TOTALORDER>"),
            "(hlo_total_order_key(a) < hlo_total_order_key(b))");
  EXPECT_EQ(ExprOf("stablehlo.compare", {E::kU8, E::kU8}, E::kI1, {"a", "b"},
                   "comparison_direction = #stablehlo<comparison_direction GE>"),
            "(a >= b)");
  EXPECT_EQ(ExprOf("stablehlo.convert", {E::kF32}, E::kI8, {"x"}), "((int8_t)hlo_float_to_signed<float>(x, 8))");
  EXPECT_EQ(ExprOf("stablehlo.convert", {E::kF64}, E::kF16, {"x"}), "hlo_f16_from_double(x)");
  EXPECT_EQ(ExprOf("stablehlo.convert", {E::kF32}, E::kI1, {"x"}), "(x != 0)");
  EXPECT_EQ(ExprOf("stablehlo.bitcast_convert", {E::kF32}, E::kI32, {"x"}), "((int32_t)__float_as_uint(x))");
  EXPECT_EQ(ExprOf("stablehlo.reduce_precision", {E::kF32}, E::kF32, {"x"},
                   "exponent_bits = 5 : i32, mantissa_bits = 10 : i32"),
            "hlo_reduce_precision(x, 5, 10)");
  // Nothing to reduce: the operand itself.
  EXPECT_EQ(ExprOf("stablehlo.reduce_precision", {E::kF16}, E::kF16, {"x"},
                   "exponent_bits = 8 : i32, mantissa_bits = 23 : i32"),
            "x");
  EXPECT_EQ(ExprOf("stablehlo.imag", {E::kF64}, E::kF64, {"x"}), "0.0");
}

TEST(GpuElemental, Errors) {
  EXPECT_TRUE(HasSubstr(ExprOf("stablehlo.add", {E::kF4E2M1FN, E::kF4E2M1FN}, E::kF4E2M1FN, {"a", "b"}),
                        "error: stablehlo.add: element type f4E2M1FN is not supported by the GPU code generator"));
  EXPECT_TRUE(HasSubstr(ExprOf("chlo.asin", {E::kC64}, E::kC64, {"a"}),
                        "chlo.asin: is not defined for element type complex<f32>"));
  EXPECT_TRUE(HasSubstr(ExprOf("stablehlo.convert", {E::kI4}, E::kF32, {"a"}),
                        "stablehlo.convert: element type i4 is not supported"));
  EXPECT_TRUE(HasSubstr(ExprOf("stablehlo.subtract", {E::kI1, E::kI1}, E::kI1, {"a", "b"}),
                        "stablehlo.subtract: is not defined for element type i1"));
  EXPECT_TRUE(HasSubstr(ExprOf("stablehlo.sine", {E::kI32}, E::kI32, {"a"}),
                        "stablehlo.sine: is not defined for element type i32"));
  EXPECT_TRUE(HasSubstr(ExprOf("stablehlo.add", {E::kF32, E::kF32}, E::kF32, {"a"}), "expects 2 operand expressions, got 1"));
  EXPECT_TRUE(HasSubstr(ExprOf("stablehlo.compare", {E::kI32, E::kI32}, E::kI1, {"a", "b"},
                               "comparison_direction = #stablehlo<comparison_direction LT>, "
                               "compare_type = #stablehlo<comparison_type TOTALORDER>"),
                        "TOTALORDER only for float operands"));
  // Not elementwise.
  Parsed p = Parse(
      "func.func @main(%a: tensor<4xf32>) -> tensor<2x2xf32> {\n"
      "  %r = \"stablehlo.reshape\"(%a) : (tensor<4xf32>) -> tensor<2x2xf32>\n"
      "  return %r : tensor<2x2xf32>\n}\n");
  ASSERT_NE(p.op, nullptr);
  EXPECT_FALSE(gpu::IsElementwise(*p.op));
  auto expr = ElementalExpr(*p.op, {"a"});
  ASSERT_FALSE(expr.ok());
  EXPECT_TRUE(HasSubstr(expr.status().message(), "stablehlo.reshape is not an elementwise op"));
  // bitcast_convert between widths changes the shape: not elementwise.
  p = Parse(
      "func.func @main(%a: tensor<2xf32>) -> tensor<2x2xi16> {\n"
      "  %r = \"stablehlo.bitcast_convert\"(%a) : (tensor<2xf32>) -> tensor<2x2xi16>\n"
      "  return %r : tensor<2x2xi16>\n}\n");
  ASSERT_NE(p.op, nullptr);
  EXPECT_FALSE(gpu::IsElementwise(*p.op));
}

// The planner's table of elementwise ops (plan/elementwise_support.h)
// names only ops these cases translate, complex ones only where a complex
// case does.
TEST(GpuElemental, EveryOpThePlannerFusesHasACase) {
  std::set<std::string> covered, complex_covered;
  for (const Case& c : AllCases()) {
    covered.insert(c.op);
    if (!c.operands.empty() && ir::IsComplex(c.operands[0])) complex_covered.insert(c.op);
  }
  for (int i = 0; i < ir::kNumOpIds; ++i) {
    const auto id = static_cast<ir::OpId>(i);
    if (!gpu::IsElementwiseOp(id)) continue;
    const std::string name(ir::OpIdName(id));
    EXPECT_TRUE(covered.count(name)) << name << " is fused by the planner but has no translation case";
    if (gpu::HasComplexTranslation(id) && name != "stablehlo.real" && name != "stablehlo.imag" &&
        name != "stablehlo.abs" && name != "stablehlo.convert" && name != "stablehlo.bitcast_convert" &&
        name != "stablehlo.compare" && name != "stablehlo.select" && name != "stablehlo.clamp") {
      EXPECT_TRUE(complex_covered.count(name)) << name << " on complex operands has no translation case";
    }
  }
}

// Every elementwise op declared (ir/elementwise_ops.def) is fused, so a new
// one has no translation case until the code generator has it.
TEST(GpuElemental, EveryDeclaredElementwiseOpIsFused) {
  for (const ir::ElementwiseOp& op : ir::ElementwiseOps()) {
    if (op.id == ir::OpId::kUniformQuantize || op.id == ir::OpId::kUniformDequantize) continue;
    EXPECT_TRUE(gpu::IsElementwiseOp(op.id)) << op.name;
  }
  EXPECT_FALSE(gpu::IsElementwiseOp(ir::OpId::kDotGeneral));
  EXPECT_FALSE(gpu::IsElementwiseOp(ir::OpId::kNumOps));
}

TEST(GpuElemental, IsElementwiseCoversEveryCase) {
  for (const Case& c : AllCases()) {
    Parsed p = Parse(OpProgram(c.op, c.operands, c.result, c.attrs, 2));
    ASSERT_NE(p.op, nullptr) << c.Label();
    EXPECT_TRUE(gpu::IsElementwise(*p.op)) << c.Label();
  }
}

TEST(GpuElemental, Literals) {
  EXPECT_EQ(*gpu::LiteralExpr(E::kI1, 1), "true");
  EXPECT_EQ(*gpu::LiteralExpr(E::kI8, 0xff), "((int8_t)-1ll)");
  EXPECT_EQ(*gpu::LiteralExpr(E::kI8, ~uint64_t{0}), "((int8_t)-1ll)");
  EXPECT_EQ(*gpu::LiteralExpr(E::kI64, uint64_t{1} << 63), "((int64_t)(-9223372036854775807ll - 1))");
  EXPECT_EQ(*gpu::LiteralExpr(E::kU32, 0xffffffffu), "((uint32_t)4294967295ull)");
  EXPECT_EQ(*gpu::LiteralExpr(E::kF32, 0x3fc00000u), "0x1.8p+0f");
  EXPECT_EQ(*gpu::LiteralExpr(E::kF32, 0x80000000u), "(-0x0p+0f)");
  EXPECT_EQ(*gpu::LiteralExpr(E::kF32, 0x7fc00001u), "__uint_as_float(0x7fc00001u)");
  EXPECT_EQ(*gpu::LiteralExpr(E::kF64, 0x3ff0000000000000ull), "0x1p+0");
  EXPECT_EQ(*gpu::LiteralExpr(E::kF64, 0xfff0000000000000ull), "__longlong_as_double((long long)0xfff0000000000000ull)");
  EXPECT_EQ(*gpu::LiteralExpr(E::kF16, 0x3c00), "0x1p+0f");
  EXPECT_EQ(*gpu::LiteralExpr(E::kF16, 0x0001), "0x1p-24f");  // the smallest f16 denormal
  EXPECT_EQ(*gpu::LiteralExpr(E::kF16, 0xfc00), "__uint_as_float(0xff800000u)");
  EXPECT_EQ(*gpu::LiteralExpr(E::kBF16, 0xc040), "(-0x1.8p+1f)");
  EXPECT_FALSE(gpu::LiteralExpr(E::kI4, 0).ok());
  EXPECT_FALSE(gpu::LiteralExpr(E::kC128, 0).ok());  // 128 bits: ElementLiteralExpr
  EXPECT_EQ(*gpu::LiteralExpr(E::kC64, 0xbf80000040000000ull), "hlo_cplx<float>(0x1p+1f, (-0x1p+0f))");
  const uint8_t c128[16] = {0, 0, 0, 0, 0, 0, 0xf0, 0x3f, 0, 0, 0, 0, 0, 0, 0, 0x40};
  EXPECT_EQ(*gpu::ElementLiteralExpr(E::kC128, c128), "hlo_cplx<double>(0x1p+0, 0x1p+1)");
  EXPECT_EQ(*gpu::LiteralExpr(E::kF8E4M3FN, 0x38), "0x1p+0f");
  EXPECT_EQ(*gpu::LiteralExpr(E::kF8E4M3FN, 0x7f), "hlo_narrow_to_float<hlo_f8e4m3fn>(127u)");  // NaN
  EXPECT_EQ(*gpu::LiteralExpr(E::kF8E5M2, 0xfc), "__uint_as_float(0xff800000u)");

  // Every literal compiles.
  std::string source = gpu::KernelPrelude() + "extern \"C\" __global__ void k(double* r) {\n";
  int i = 0;
  for (E e : kAllTypes) {
    for (uint64_t bits : {uint64_t{0}, uint64_t{1}, ~uint64_t{0}, uint64_t{0x7f80}, uint64_t{0x7ff0000000000000},
                          uint64_t{0x8000000000000000}, uint64_t{0x7fc00000}, uint64_t{0x00000001}}) {
      uint8_t bytes[16] = {};
      std::memcpy(bytes, &bits, 8);
      std::memcpy(bytes + 8, &bits, 8);
      const std::string lit = *gpu::ElementLiteralExpr(e, bytes);
      source += "  r[" + std::to_string(i++) + "] = (double)" + (ir::IsComplex(e) ? "(" + lit + ").im" : lit) + ";\n";
    }
  }
  source += "}\n";
  const CompileResult r = Compile(source, 90);
  EXPECT_TRUE(r.ok) << r.log << "\n" << Numbered(source);
  EXPECT_EQ(r.log, "");
}

// A chain of fused ops: operands that are themselves expressions.
TEST(GpuElemental, NestedExpressionsCompile) {
  Parsed mul = Parse(OpProgram("stablehlo.multiply", {E::kF16, E::kF16}, E::kF16, "", 4));
  Parsed add = Parse(OpProgram("stablehlo.add", {E::kF16, E::kF16}, E::kF16, "", 4));
  Parsed cvt = Parse(OpProgram("stablehlo.convert", {E::kF16}, E::kI32, "", 4));
  Parsed shl = Parse(OpProgram("stablehlo.shift_left", {E::kI32, E::kI32}, E::kI32, "", 4));
  ASSERT_TRUE(mul.op && add.op && cvt.op && shl.op);
  auto m = ElementalExpr(*mul.op, {"x", *gpu::LiteralExpr(E::kF16, 0x4000)});
  ASSERT_TRUE(m.ok());
  auto a = ElementalExpr(*add.op, {*m, "x"});
  ASSERT_TRUE(a.ok());
  auto c = ElementalExpr(*cvt.op, {*a});
  ASSERT_TRUE(c.ok());
  auto s = ElementalExpr(*shl.op, {*c, *gpu::LiteralExpr(E::kI32, 3)});
  ASSERT_TRUE(s.ok());
  const std::string source = gpu::KernelPrelude() + "extern \"C\" __global__ void k(const __half* p, int32_t* r) {\n" +
                             "  const float x = " + gpu::LoadExpr(E::kF16, "p[threadIdx.x]") + ";\n  r[threadIdx.x] = " +
                             *s + ";\n}\n";
  const CompileResult r = Compile(source, 90);
  EXPECT_TRUE(r.ok) << r.log << "\n" << Numbered(source);
  EXPECT_EQ(r.log, "");
}

// Every op x element type compiles for sm_90 without a warning.
TEST(GpuElemental, EveryCaseCompiles) {
  const std::vector<Case> cases = AllCases();
  EXPECT_GT(cases.size(), 600u);
  for (const Batch& b : BuildBatches(cases, 400)) {
    const CompileResult r = Compile(b.source, 90);
    EXPECT_TRUE(r.ok) << r.log << "\n" << Numbered(b.source);
    EXPECT_EQ(r.log, "");
  }
}

// ---------------------------------------------------------------------------
// On a GPU: each case's kernel against the CPU interpreter.

// Edge-case inputs of each element type, as bit patterns.
std::vector<uint64_t> EdgeValues(E e) {
  auto f32 = [](float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return uint64_t{u};
  };
  auto f64 = [](double d) {
    uint64_t u;
    std::memcpy(&u, &d, 8);
    return u;
  };
  const float kInfF = std::numeric_limits<float>::infinity();
  const double kInf = std::numeric_limits<double>::infinity();
  switch (e) {
    case E::kI1: return {0, 1};
    case E::kF32:
      return {f32(0.0f), f32(-0.0f), f32(1.0f), f32(-1.0f), f32(0.5f), f32(-2.5f), f32(3.0f), f32(2.5f),
              f32(1e-40f), f32(-1.4e-45f), f32(std::numeric_limits<float>::max()),
              f32(-std::numeric_limits<float>::max()), f32(kInfF), f32(-kInfF), f32(std::nanf("")), 0xffc00001u,
              f32(1e10f), f32(-3.7e9f), f32(100.25f), f32(3e38f), f32(0.999f), f32(-0.3f)};
    case E::kF64:
      return {f64(0.0), f64(-0.0), f64(1.0), f64(-1.0), f64(0.5), f64(-2.5), f64(3.0), f64(2.5), f64(4.9e-324),
              f64(-1e-310), f64(std::numeric_limits<double>::max()), f64(-std::numeric_limits<double>::max()),
              f64(kInf), f64(-kInf), f64(std::nan("")), 0xfff8000000000001ull, f64(9.3e18), f64(1.9e19),
              f64(-9.3e18), f64(65520.0), f64(65519.99), f64(3.4028235677973366e38), f64(0.999), f64(-0.3)};
    case E::kF16:
      return {0x0000, 0x8000, 0x3c00, 0xbc00, 0x3800, 0xc100, 0x4200, 0x4100, 0x0001, 0x83ff, 0x7bff, 0xfbff,
              0x7c00, 0xfc00, 0x7e00, 0xfe01, 0x7d00, 0x4248, 0xc500, 0x3bfe, 0xb4cd, 0x5640};
    case E::kBF16:
      return {0x0000, 0x8000, 0x3f80, 0xbf80, 0x3f00, 0xc020, 0x4040, 0x4020, 0x0001, 0x807f, 0x7f7f, 0xff7f,
              0x7f80, 0xff80, 0x7fc0, 0xffc1, 0x7f81, 0x4049, 0xc0a0, 0x3f7f, 0xbe9a, 0x4f80, 0x5f00};
    default: {
      if (ir::IsFloat(e)) {
        // f8: a spread of the 256 patterns, and the special ones.
        std::vector<uint64_t> v;
        for (uint64_t b = 0; b < 256; b += 7) v.push_back(b);
        for (uint64_t b : {0x01, 0x7f, 0x80, 0x81, 0xff, 0x7c, 0xfc, 0x7b, 0xfb, 0x7e, 0x7d, 0xfe}) v.push_back(b);
        return v;
      }
      const int w = ir::BitWidth(e);
      const uint64_t mask = w >= 64 ? ~uint64_t{0} : (uint64_t{1} << w) - 1;
      std::vector<uint64_t> v;
      for (int64_t x : std::vector<int64_t>{0, 1, -1, 2, 3, -3, 7, 8, 15, 16, 31, 32, 63, 64, 100, -100, 1000}) {
        v.push_back(static_cast<uint64_t>(x) & mask);
      }
      const uint64_t sign = uint64_t{1} << (w - 1);
      for (uint64_t x : {sign, sign - 1, sign + 1, mask - 1}) v.push_back(x);
      return v;
    }
  }
}

uint64_t LowBits(int n) { return (uint64_t{1} << n) - 1; }

// One element: its bits, and for complex types the imaginary part's bits.
struct Element {
  uint64_t bits = 0;
  uint64_t imag = 0;
};

// Edge-case elements: the edge values, or for complex types pairs of some
// of the part's edge values.
std::vector<Element> EdgeElements(E e) {
  std::vector<Element> out;
  if (!ir::IsComplex(e)) {
    for (uint64_t b : EdgeValues(e)) out.push_back({b, 0});
    return out;
  }
  const E part = ir::ComplexPart(e);
  const double inf = std::numeric_limits<double>::infinity();
  const double max = part == E::kF64 ? std::numeric_limits<double>::max() : std::numeric_limits<float>::max();
  const double denormal = part == E::kF64 ? 1e-310 : 1e-40;
  std::vector<uint64_t> parts;
  for (double v : {0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 3.0, denormal, max, inf, -inf, std::nan(""), 1e10, 100.25, 0.999,
                   -0.3}) {
    parts.push_back(ir::DoubleToFloatBits(v, part));
  }
  for (uint64_t re : parts) {
    for (uint64_t im : parts) out.push_back({re, im});
  }
  return out;
}

// The operands of a case: for binary ops every pair of edge values, for
// ternary ones every triple of a subset.
std::vector<std::vector<Element>> CaseInputs(const Case& c) {
  std::vector<std::vector<Element>> in(c.operands.size());
  if (c.op == "stablehlo.select") {
    const std::vector<Element> v = EdgeElements(c.result);
    for (size_t i = 0; i < v.size(); ++i) {
      in[0].push_back({i % 3 == 0 ? 1u : 0u, 0});
      in[1].push_back(v[i]);
      in[2].push_back(v[v.size() - 1 - i]);
    }
    return in;
  }
  // zeta and polygamma sum up to ~s/pi terms, and a huge odd order with a
  // negative base makes the sum NaN so that it never stops early (in the
  // interpreter too): keep their arguments moderate.
  const bool moderate = c.op == "chlo.zeta" || c.op == "chlo.polygamma";
  // pow(1, y) = pow(x, 0) = 1 even for a NaN y or x in CUDA, but glibc gives
  // NaN when that NaN is signaling (XLA:CPU and XLA:GPU differ likewise).
  const bool quiet_only = c.op == "stablehlo.power";
  // Complex power: parts that are zero, small or not finite (see kLoose).
  const bool small_parts = c.op == "stablehlo.power" && ir::IsComplex(c.operands[0]);
  auto small = [](uint64_t bits, E part) {
    const double v = ir::FloatBitsToDouble(bits, part);
    return !std::isfinite(v) || v == 0 || (std::fabs(v) <= 3 && std::fabs(v) >= 0.25);
  };
  auto signaling = [](uint64_t x, E e) {
    const int m = e == E::kBF16 ? 7 : 10;
    return (e == E::kBF16 || e == E::kF16) && ((x >> m) & LowBits(15 - m)) == LowBits(15 - m) &&
           (x & LowBits(m)) != 0 && !((x >> (m - 1)) & 1);
  };
  std::vector<std::vector<Element>> values;
  for (E e : c.operands) {
    std::vector<Element> v;
    for (const Element& x : EdgeElements(e)) {
      if (moderate && std::fabs(ir::FloatBitsToDouble(x.bits, e)) > 1000) continue;
      if (quiet_only && signaling(x.bits, e)) continue;
      if (small_parts && !(small(x.bits, ir::ComplexPart(e)) && small(x.imag, ir::ComplexPart(e)))) continue;
      v.push_back(x);
    }
    // Complex operands of binary ops: a third of the pairs.
    if (c.operands.size() == 2 && ir::IsComplex(e)) {
      std::vector<Element> thinned;
      for (size_t i = 0; i < v.size(); i += 3) thinned.push_back(v[i]);
      v = thinned;
    }
    if (c.operands.size() == 3 && v.size() > 9) v.resize(9);
    values.push_back(v);
  }
  if (c.operands.size() == 1) {
    in[0] = values[0];
  } else if (c.operands.size() == 2) {
    for (const Element& a : values[0]) {
      for (const Element& b : values[1]) {
        in[0].push_back(a);
        in[1].push_back(b);
      }
    }
  } else {
    for (const Element& a : values[0]) {
      for (const Element& b : values[1]) {
        for (const Element& x : values[2]) {
          in[0].push_back(a);
          in[1].push_back(b);
          in[2].push_back(x);
        }
      }
    }
  }
  return in;
}

std::vector<Element> Elements(const std::vector<uint64_t>& bits) {
  std::vector<Element> out;
  for (uint64_t b : bits) out.push_back({b, 0});
  return out;
}

// A tensor of the elements (little-endian; complex: real, then imaginary).
cpu::Tensor TensorOf(E e, const std::vector<Element>& elements) {
  cpu::Tensor t(ir::Type::Tensor(e, {static_cast<int64_t>(elements.size())}));
  const size_t sb = static_cast<size_t>(ir::StorageBytes(e));
  const size_t part = ir::IsComplex(e) ? sb / 2 : sb;
  for (size_t i = 0; i < elements.size(); ++i) {
    std::memcpy(t.mutable_bytes() + i * sb, &elements[i].bits, part);
    if (ir::IsComplex(e)) std::memcpy(t.mutable_bytes() + i * sb + part, &elements[i].imag, part);
  }
  return t;
}

Element ElementAt(const uint8_t* data, size_t i, E e) {
  Element v;
  const size_t sb = static_cast<size_t>(ir::StorageBytes(e));
  const size_t part = ir::IsComplex(e) ? sb / 2 : sb;
  std::memcpy(&v.bits, data + i * sb, part);
  if (ir::IsComplex(e)) std::memcpy(&v.imag, data + i * sb + part, part);
  return v;
}

double AsDouble(uint64_t bits, E e) { return ir::FloatBitsToDouble(bits, e); }

// Distance in units in the last place: the sign-magnitude bits as a line.
int64_t UlpDistance(uint64_t a, uint64_t b, E e) {
  const int w = ir::BitWidth(e);
  auto line = [&](uint64_t x) {
    const uint64_t sign = uint64_t{1} << (w - 1);
    const int64_t mag = static_cast<int64_t>(x & (sign - 1));
    return (x & sign) ? -mag : mag;
  };
  const int64_t d = line(a) - line(b);
  return d < 0 ? -d : d;
}

// `magnitude`: what a relative error is relative to (the value itself, or
// for a part of a complex number the larger part).
bool Matches(uint64_t gpu_bits, uint64_t cpu_bits, E e, Accuracy accuracy, double magnitude) {
  if (gpu_bits == cpu_bits) return true;
  if (!ir::IsFloat(e)) return false;
  const double g = AsDouble(gpu_bits, e), c = AsDouble(cpu_bits, e);
  if (std::isnan(g) && std::isnan(c)) return true;
  if (accuracy == kExact || std::isnan(g) || std::isnan(c)) return false;
  if (UlpDistance(gpu_bits, cpu_bits, e) <= 4) return true;
  if (std::isinf(g) || std::isinf(c)) return false;
  const double rel = accuracy == kLoose ? (e == E::kF64 ? 1e-11 : 1e-4) : (e == E::kF64 ? 1e-13 : 1e-6);
  return std::fabs(g - c) <= rel * std::max(magnitude, 1e-300);
}

bool Matches(const Element& gpu, const Element& cpu, E e, Accuracy accuracy) {
  if (!ir::IsComplex(e)) return Matches(gpu.bits, cpu.bits, e, accuracy, std::fabs(AsDouble(cpu.bits, e)));
  const E part = ir::ComplexPart(e);
  const double magnitude = std::max(std::fabs(AsDouble(cpu.bits, part)), std::fabs(AsDouble(cpu.imag, part)));
  return Matches(gpu.bits, cpu.bits, part, accuracy, magnitude) &&
         Matches(gpu.imag, cpu.imag, part, accuracy, magnitude);
}

int DeviceArch() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) return 0;
  cudaDeviceProp prop;
  if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess) return 0;
  return prop.major * 10 + prop.minor;
}

#define CUDA_OK(expr)                                                                     \
  do {                                                                                    \
    const cudaError_t cuda_ok_err = (expr);                                               \
    ASSERT_EQ(cuda_ok_err, cudaSuccess) << #expr << ": " << cudaGetErrorString(cuda_ok_err); \
  } while (0)

// Runs kernel `name` of `library` on `args` (n elements each) and returns the
// result's bytes (n elements of `result`).
void Launch(cudaLibrary_t library, const std::string& name, const std::vector<cpu::Tensor>& args, E result, int n,
            std::vector<uint8_t>* out) {
  cudaKernel_t kernel;
  CUDA_OK(cudaLibraryGetKernel(&kernel, library, name.c_str()));
  std::vector<void*> buffers;
  for (const cpu::Tensor& a : args) {
    void* d = nullptr;
    CUDA_OK(cudaMalloc(&d, a.byte_size()));
    CUDA_OK(cudaMemcpy(d, a.bytes(), a.byte_size(), cudaMemcpyHostToDevice));
    buffers.push_back(d);
  }
  out->assign(static_cast<size_t>(n) * static_cast<size_t>(ir::StorageBytes(result)), 0);
  void* d_out = nullptr;
  CUDA_OK(cudaMalloc(&d_out, out->size()));
  buffers.push_back(d_out);
  std::vector<void*> params;
  for (void*& b : buffers) params.push_back(&b);
  int count = n;
  params.push_back(&count);
  const unsigned block = 128;
  CUDA_OK(cudaLaunchKernel(reinterpret_cast<const void*>(kernel), dim3((static_cast<unsigned>(n) + block - 1) / block),
                           dim3(block), params.data(), 0, nullptr));
  CUDA_OK(cudaDeviceSynchronize());
  CUDA_OK(cudaMemcpy(out->data(), d_out, out->size(), cudaMemcpyDeviceToHost));
  for (void* b : buffers) cudaFree(b);
}

// The interpreter's result of the module `text` on `args`.
void Interpret(const std::string& text, const std::vector<cpu::Tensor>& args, cpu::Tensor* result) {
  auto modules = ParseOrDie(text);
  ASSERT_FALSE(modules.empty());
  cpu::Interpreter interpreter(*modules[0]);
  auto results = interpreter.RunEntry(args);
  ASSERT_TRUE(results.ok()) << results.status().message();
  *result = (*results)[0];
}

std::string Describe(const Element& x, E e) {
  char buf[64];
  if (ir::IsComplex(e)) {
    std::snprintf(buf, sizeof buf, "(0x%llx, 0x%llx)", static_cast<unsigned long long>(x.bits),
                  static_cast<unsigned long long>(x.imag));
  } else {
    std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(x.bits));
  }
  std::string s = buf;
  const E part = ir::IsComplex(e) ? ir::ComplexPart(e) : e;
  if (ir::IsFloat(part)) {
    s += " (" + std::to_string(AsDouble(x.bits, part));
    if (ir::IsComplex(e)) s += ", " + std::to_string(AsDouble(x.imag, part));
    s += ")";
  }
  return s;
}

// Compares the GPU's bytes with the interpreter's, element by element.
void ExpectSame(const std::vector<uint8_t>& got, const cpu::Tensor& want, E e, Accuracy accuracy,
                const std::vector<std::vector<Element>>& inputs, const std::vector<E>& input_types) {
  ASSERT_EQ(want.byte_size(), got.size());
  int failures = 0;
  for (size_t i = 0; i < static_cast<size_t>(want.num_elements()) && failures < 8; ++i) {
    const Element g = ElementAt(got.data(), i, e), w = ElementAt(want.bytes(), i, e);
    if (Matches(g, w, e, accuracy)) continue;
    ++failures;
    std::string operands;
    for (size_t k = 0; k < inputs.size(); ++k) operands += (k ? ", " : "") + Describe(inputs[k][i], input_types[k]);
    ADD_FAILURE() << "at (" << operands << "): gpu " << Describe(g, e) << ", cpu " << Describe(w, e);
  }
}

// Runs case `c` (kernel `name` of `library`) and compares with the CPU.
void RunCase(const Case& c, const std::string& name, cudaLibrary_t library) {
  SCOPED_TRACE(c.Label());
  const std::vector<std::vector<Element>> inputs = CaseInputs(c);
  const int n = static_cast<int>(inputs[0].size());
  std::vector<cpu::Tensor> args;
  for (size_t i = 0; i < c.operands.size(); ++i) args.push_back(TensorOf(c.operands[i], inputs[i]));
  cpu::Tensor want;
  ASSERT_NO_FATAL_FAILURE(Interpret(OpProgram(c.op, c.operands, c.result, c.attrs, n), args, &want));
  std::vector<uint8_t> got;
  ASSERT_NO_FATAL_FAILURE(Launch(library, name, args, c.result, n, &got));
  ExpectSame(got, want, c.result, c.accuracy, inputs, c.operands);
}

TEST(GpuElemental, MatchesInterpreterOnDevice) {
  const int arch = DeviceArch();
  if (arch == 0) GTEST_SKIP() << "no CUDA device";
  const std::vector<Case> cases = AllCases();
  for (const Batch& b : BuildBatches(cases, 400)) {
    const CompileResult r = Compile(b.source, arch);
    ASSERT_TRUE(r.ok) << r.log;
    cudaLibrary_t library;
    CUDA_OK(cudaLibraryLoadData(&library, r.cubin.data(), nullptr, nullptr, 0, nullptr, nullptr, 0));
    for (size_t k = 0; k < b.cases.size(); ++k) {
      RunCase(cases[b.cases[k]], "k" + std::to_string(b.cases[k]), library);
    }
    cudaLibraryUnload(library);
  }
}


// Fused chains, one kernel for several ops, give the interpreter's bits:
// f16/bf16 results are rounded after every op, and no multiply-add is
// contracted into an fma.
TEST(GpuElemental, FusedChainsMatchInterpreterOnDevice) {
  const int arch = DeviceArch();
  if (arch == 0) GTEST_SKIP() << "no CUDA device";
  for (E e : kFloatTypes) {
    SCOPED_TRACE(TypeName(e));
    const int n = 4096;
    const std::string t = TensorType(e, n);
    const std::string text = "func.func @main(%a: " + t + ", %b: " + t + ", %c: " + t + ") -> " + t + " {\n" +
                             "  %m = \"stablehlo.multiply\"(%a, %b) : (" + t + ", " + t + ") -> " + t + "\n" +
                             "  %s = \"stablehlo.add\"(%m, %c) : (" + t + ", " + t + ") -> " + t + "\n" +
                             "  %q = \"stablehlo.sqrt\"(%s) : (" + t + ") -> " + t + "\n" +
                             "  %d = \"stablehlo.divide\"(%q, %a) : (" + t + ", " + t + ") -> " + t + "\n" +
                             "  return %d : " + t + "\n}\n";
    auto modules = ParseOrDie(text);
    ASSERT_FALSE(modules.empty());
    const auto& ops = modules[0]->EntryFunction()->region(0).front().operations();
    auto m = ElementalExpr(*ops[0], {"x0", "x1"});
    ASSERT_TRUE(m.ok());
    auto sum = ElementalExpr(*ops[1], {*m, "x2"});
    ASSERT_TRUE(sum.ok());
    auto q = ElementalExpr(*ops[2], {*sum});
    ASSERT_TRUE(q.ok());
    auto d = ElementalExpr(*ops[3], {*q, "x0"});
    ASSERT_TRUE(d.ok());
    const std::string st = *gpu::StorageType(e), ct = *gpu::ComputeType(e);
    std::string source = gpu::KernelPrelude() + "extern \"C\" __global__ void fused(";
    for (int i = 0; i < 3; ++i) source += "const " + st + "* a" + std::to_string(i) + ", ";
    source += st + "* r, int n) {\n  const int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i >= n) return;\n";
    for (int i = 0; i < 3; ++i) {
      source += "  const " + ct + " x" + std::to_string(i) + " = " + gpu::LoadExpr(e, "a" + std::to_string(i) + "[i]") + ";\n";
    }
    source += "  r[i] = " + gpu::StoreExpr(e, *d) + ";\n}\n";
    const CompileResult r = Compile(source, arch);
    ASSERT_TRUE(r.ok) << r.log;
    // Positive values of mixed magnitudes (a linear congruential sequence).
    std::vector<std::vector<uint64_t>> inputs(3);
    uint64_t state = 12345;
    for (int k = 0; k < 3; ++k) {
      for (int i = 0; i < n; ++i) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        const double v = std::ldexp(1.0 + static_cast<double>(state >> 11) * 0x1p-53, static_cast<int>(state % 9) - 4);
        inputs[k].push_back(ir::DoubleToFloatBits(v, e));
      }
    }
    std::vector<cpu::Tensor> args;
    for (int k = 0; k < 3; ++k) args.push_back(TensorOf(e, Elements(inputs[k])));
    cpu::Tensor want;
    ASSERT_NO_FATAL_FAILURE(Interpret(text, args, &want));
    cudaLibrary_t library;
    CUDA_OK(cudaLibraryLoadData(&library, r.cubin.data(), nullptr, nullptr, 0, nullptr, nullptr, 0));
    std::vector<uint8_t> got;
    Launch(library, "fused", args, e, n, &got);
    cudaLibraryUnload(library);
    ExpectSame(got, want, e, kExact, {Elements(inputs[0]), Elements(inputs[1]), Elements(inputs[2])}, {e, e, e});
  }
}

}  // namespace
}  // namespace hlograph::testing
