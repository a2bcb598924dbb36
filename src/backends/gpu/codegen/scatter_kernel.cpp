// stablehlo.scatter in place: the results already hold the operands (the
// planner wrote them there); a thread per update element combines it into
// its target, in the way plan/scatter_plan.h chose.
#include "backends/gpu/codegen/body_emitter.h"
#include "backends/gpu/plan/scatter_plan.h"

namespace hlograph::gpu::emit {

namespace {

// Atomic read-modify-write helpers. The compare-and-swap loop works on the
// aligned 32- or 64-bit word holding the element (1- and 2-byte elements
// share their word with neighbours, which the loop leaves as it finds
// them); `f` maps the element's storage value to the new one.
const char* const kScatterHelpers = R"(
template <typename S, typename F>
__device__ __forceinline__ void hlo_atomic_update(S* addr, F f) {
  static_assert(sizeof(S) == 1 || sizeof(S) == 2 || sizeof(S) == 4 || sizeof(S) == 8, "element size");
  if constexpr (sizeof(S) == 8) {
    unsigned long long* word = (unsigned long long*)addr;
    unsigned long long old = *(volatile unsigned long long*)word, assumed;
    do {
      assumed = old;
      S cur;
      memcpy(&cur, &assumed, 8);
      const S next = f(cur);
      unsigned long long bits;
      memcpy(&bits, &next, 8);
      if (bits == assumed) return;
      old = atomicCAS(word, assumed, bits);
    } while (old != assumed);
  } else {
    const unsigned long long at = (unsigned long long)addr;
    unsigned int* word = (unsigned int*)(at & ~3ull);
    const unsigned int shift = (unsigned int)(at & 3ull) * 8u;
    const unsigned int mask = sizeof(S) == 4 ? 0xffffffffu : (((1u << (8 * sizeof(S))) - 1u) << shift);
    unsigned int old = *(volatile unsigned int*)word, assumed;
    do {
      assumed = old;
      const unsigned int mine = (assumed & mask) >> shift;
      S cur;
      memcpy(&cur, &mine, sizeof(S));
      const S next = f(cur);
      unsigned int bits = 0;
      memcpy(&bits, &next, sizeof(S));
      const unsigned int merged = (assumed & ~mask) | ((bits << shift) & mask);
      if (merged == assumed) return;
      old = atomicCAS(word, assumed, merged);
    } while (old != assumed);
  }
}
template <typename T>
__device__ __forceinline__ void hlo_atomic_add(T* addr, T v) { atomicAdd(addr, v); }
__device__ __forceinline__ void hlo_atomic_add(long* addr, long v) {
  atomicAdd((unsigned long long*)addr, (unsigned long long)v);
}
__device__ __forceinline__ void hlo_atomic_add(long long* addr, long long v) {
  atomicAdd((unsigned long long*)addr, (unsigned long long)v);
}
__device__ __forceinline__ void hlo_atomic_add(unsigned long* addr, unsigned long v) {
  atomicAdd((unsigned long long*)addr, (unsigned long long)v);
}
template <typename R>
__device__ __forceinline__ void hlo_atomic_add(hlo_complex<R>* addr, hlo_complex<R> v) {
  atomicAdd(&addr->re, v.re);
  atomicAdd(&addr->im, v.im);
}
// Neighbouring elements added with one atomic (addr aligned to all of them).
__device__ __forceinline__ void hlo_atomic_add_vector(float* addr, float a, float b, float c, float d) {
#if __CUDA_ARCH__ >= 900
  atomicAdd((float4*)addr, make_float4(a, b, c, d));
#else
  atomicAdd(addr, a); atomicAdd(addr + 1, b); atomicAdd(addr + 2, c); atomicAdd(addr + 3, d);
#endif
}
__device__ __forceinline__ void hlo_atomic_add_vector(__half* addr, __half a, __half b) {
  atomicAdd((__half2*)addr, __halves2half2(a, b));
}
__device__ __forceinline__ void hlo_atomic_add_vector(__nv_bfloat16* addr, __nv_bfloat16 a, __nv_bfloat16 b) {
  atomicAdd((__nv_bfloat162*)addr, __halves2bfloat162(a, b));
}
template <typename T>
__device__ __forceinline__ void hlo_atomic_min(T* addr, T v) { atomicMin(addr, v); }
__device__ __forceinline__ void hlo_atomic_min(long* addr, long v) { atomicMin((long long*)addr, (long long)v); }
__device__ __forceinline__ void hlo_atomic_min(unsigned long* addr, unsigned long v) {
  atomicMin((unsigned long long*)addr, (unsigned long long)v);
}
template <typename T>
__device__ __forceinline__ void hlo_atomic_max(T* addr, T v) { atomicMax(addr, v); }
__device__ __forceinline__ void hlo_atomic_max(long* addr, long v) { atomicMax((long long*)addr, (long long)v); }
__device__ __forceinline__ void hlo_atomic_max(unsigned long* addr, unsigned long v) {
  atomicMax((unsigned long long*)addr, (unsigned long long)v);
}
)";

// Emits the scatter's index arithmetic for the code of one kernel.
class ScatterEmitter {
 public:
  ScatterEmitter(const Fusion& f, const ScatterPlan& plan, BodyEmitter& e)
      : op_(*f.ops.back()), plan_(plan), e_(e), dn_(*op_.attr("scatter_dimension_numbers").as<ir::ScatterDimsAttr>()) {}

  const ir::Value* indices() const { return op_.operand(plan_.results); }
  const ir::Value* updates(size_t j) const { return op_.operand(plan_.results + 1 + j); }
  const ir::Type& result_type(size_t j) const { return op_.result(j)->type(); }

  // The window's start in the result for scatter position `sidx`.
  StatusOr<Index> Start(const Index& sidx) {
    const ir::Type& out = result_type(0);
    Index start(static_cast<size_t>(out.rank()), "0");
    const auto batch_index = [&](int64_t indices_dim) {
      const auto at = std::find(plan_.index_batch_dims.begin(), plan_.index_batch_dims.end(), indices_dim) -
                      plan_.index_batch_dims.begin();
      return sidx[static_cast<size_t>(at)];
    };
    const int64_t ivd = dn_.index_vector_dim;
    for (size_t c = 0; c < dn_.scatter_dims_to_operand_dims.size(); ++c) {
      Index at(static_cast<size_t>(indices()->type().rank()));
      for (int64_t k = 0; k < indices()->type().rank(); ++k) {
        at[static_cast<size_t>(k)] = k == ivd ? std::to_string(c) : batch_index(k);
      }
      HLOGRAPH_ASSIGN(std::string v, e_.Emit(indices(), at));
      start[static_cast<size_t>(dn_.scatter_dims_to_operand_dims[c])] = e_.IndexVar("(long long)(" + v + ")");
    }
    for (size_t i = 0; i < dn_.input_batching_dims.size(); ++i) {
      start[static_cast<size_t>(dn_.input_batching_dims[i])] = batch_index(dn_.scatter_indices_batching_dims[i]);
    }
    return start;
  }

  // Whether the whole window fits (one that does not is skipped, as the
  // spec says).
  std::string Fits(const Index& start) const {
    const ir::Type& out = result_type(0);
    std::string fits = "true";
    for (size_t d = 0; d < start.size(); ++d) {
      if (start[d] == "0") continue;
      fits += " && " + start[d] + " >= 0 && " + start[d] +
              " <= " + std::to_string(out.dim(static_cast<int64_t>(d)) - plan_.extent[d]) + "LL";
    }
    return fits;
  }

  // The linear index in the results of window element `widx` at `start`.
  std::string Target(const Index& start, const Index& widx) {
    Index target = start;
    for (size_t i = 0; i < plan_.operand_window_dims.size(); ++i) {
      const size_t d = static_cast<size_t>(plan_.operand_window_dims[i]);
      target[d] = e_.IndexVar(start[d] + " + " + widx[i]);
    }
    return e_.IndexVar(e_.Linear(target, result_type(0).shape()));
  }

  // The update operands' index for scatter position `sidx`, window `widx`.
  Index UpdateIndex(const Index& sidx, const Index& widx) const {
    Index u(static_cast<size_t>(updates(0)->type().rank()));
    for (size_t i = 0; i < plan_.scatter_dims.size(); ++i) u[static_cast<size_t>(plan_.scatter_dims[i])] = sidx[i];
    for (size_t i = 0; i < plan_.window_dims.size(); ++i) u[static_cast<size_t>(plan_.window_dims[i])] = widx[i];
    return u;
  }

  StatusOr<std::vector<std::string>> Updates(const Index& uidx) {
    std::vector<std::string> u;
    for (size_t j = 0; j < plan_.results; ++j) {
      HLOGRAPH_ASSIGN(std::string v, e_.Emit(updates(j), uidx));
      u.push_back(v);
    }
    return u;
  }

  // Loads the results at `t` into fresh variables.
  StatusOr<std::vector<std::string>> LoadResults(const std::string& t) {
    std::vector<std::string> cur;
    for (size_t j = 0; j < plan_.results; ++j) {
      HLOGRAPH_ASSIGN(std::string ct, ComputeType(result_type(j).element()));
      cur.push_back(e_.Fresh("cur"));
      e_.Line(ct + " " + cur.back() + " = " + LoadExpr(result_type(j).element(), "o" + std::to_string(j) + "[" + t + "]") + ";");
    }
    return cur;
  }

  // cur = body(cur, u), in place.
  Status Combine(const std::vector<std::string>& cur, const std::vector<std::string>& u) {
    std::vector<std::string> args = cur;
    args.insert(args.end(), u.begin(), u.end());
    HLOGRAPH_ASSIGN(std::vector<std::string> next, e_.EmitRegion(op_.region(0).front(), args));
    for (size_t j = 0; j < plan_.results; ++j) e_.Line(cur[j] + " = " + next[j] + ";");
    return Status::Ok();
  }

  // kLastWins: the slot of the window at `start` in the slot table.
  std::string Slot(const Index& start) {
    Index at;
    std::vector<int64_t> shape;
    for (int64_t d : plan_.slot_dims) {
      at.push_back(start[static_cast<size_t>(d)]);
      shape.push_back(result_type(0).dim(d));
    }
    return e_.IndexVar(e_.Linear(at, shape));
  }

  void StoreResults(const std::string& t, const std::vector<std::string>& cur) {
    for (size_t j = 0; j < plan_.results; ++j) {
      e_.Line("o" + std::to_string(j) + "[" + t + "] = " + StoreExpr(result_type(j).element(), cur[j]) + ";");
    }
  }

  // One thread's update with a native atomic, a store, or a compare-and-swap loop.
  Status Atomic(const std::string& t, const std::string& u) {
    const ir::ElementType e = result_type(0).element();
    const std::string addr = "o0 + " + t;
    HLOGRAPH_ASSIGN(std::string st, StorageType(e));
    switch (plan_.order == ScatterOrder::kAtomic ? plan_.combiner : ScatterCombiner::kOther) {
      case ScatterCombiner::kReplace: e_.Line("o0[" + t + "] = " + StoreExpr(e, u) + ";"); return Status::Ok();
      case ScatterCombiner::kAdd: e_.Line("hlo_atomic_add(" + addr + ", (" + st + ")(" + StoreExpr(e, u) + "));"); return Status::Ok();
      case ScatterCombiner::kMin: e_.Line("hlo_atomic_min(" + addr + ", (" + st + ")(" + u + "));"); return Status::Ok();
      case ScatterCombiner::kMax: e_.Line("hlo_atomic_max(" + addr + ", (" + st + ")(" + u + "));"); return Status::Ok();
      case ScatterCombiner::kOther: break;
    }
    // The body inside a lambda: from the element's storage value to the new one.
    HLOGRAPH_ASSIGN(std::string ct, ComputeType(e));
    e_.Open("hlo_atomic_update(" + addr + ", [&](" + st + " stored) -> " + st);
    const std::string cur = e_.Fresh("cur");
    e_.Line(ct + " " + cur + " = " + LoadExpr(e, "stored") + ";");
    HLOGRAPH_TRY(Combine({cur}, {u}));
    e_.Line("return " + StoreExpr(e, cur) + ";");
    e_.Close();
    e_.Line(");");
    return Status::Ok();
  }

 private:
  const ir::Operation& op_;
  const ScatterPlan& plan_;
  BodyEmitter& e_;
  const ir::ScatterDimsAttr& dn_;
};

std::vector<int64_t> Concat(std::vector<int64_t> a, const std::vector<int64_t>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

// A thread per update element (scatter position major, so that a warp's
// threads read neighbouring update elements and write neighbouring targets).
Status EmitParallel(const ScatterPlan& plan, BodyEmitter& e, ScatterEmitter& s) {
  e.Line("const long long N = " + std::to_string(plan.threads()) + "LL;");
  e.Open(kGridStrideLoop);
  // With vector atomics a thread takes `vector` neighbours of a window row.
  std::vector<int64_t> grid = Concat(plan.scatter_shape, plan.window_shape);
  if (plan.vector > 1) grid.back() /= plan.vector;
  const Index all = e.Delinearize("lin", grid);
  const Index sidx(all.begin(), all.begin() + static_cast<long>(plan.scatter_shape.size()));
  Index widx(all.begin() + static_cast<long>(plan.scatter_shape.size()), all.end());
  if (plan.vector > 1) widx.back() = e.IndexVar(widx.back() + " * " + std::to_string(plan.vector) + "LL");
  HLOGRAPH_ASSIGN(Index start, s.Start(sidx));
  e.Line("if (!(" + s.Fits(start) + ")) continue;");
  const std::string t = s.Target(start, widx);
  if (plan.order == ScatterOrder::kLastWins) {
    // Only the window that claimed the slot last (the highest position) writes.
    e.Line("const long long s = lin / " + std::to_string(plan.window_elements) + "LL;");
    e.Line("if (((const unsigned int*)s0)[" + s.Slot(start) + "] != (unsigned int)(s + 1)) continue;");
    HLOGRAPH_ASSIGN(std::vector<std::string> u, s.Updates(s.UpdateIndex(sidx, widx)));
    s.StoreResults(t, u);
  } else if (plan.order == ScatterOrder::kSortedRuns) {
    // Only the first position of a run of equal starts works: it folds the
    // run's updates in order, then writes once.
    e.Line("const long long s = lin / " + std::to_string(plan.window_elements) + "LL;");
    e.Open("if (s > 0)");
    const Index prev_sidx = e.Delinearize("(s - 1)", plan.scatter_shape);
    HLOGRAPH_ASSIGN(Index prev, s.Start(prev_sidx));
    std::string same = "true";
    for (size_t d = 0; d < start.size(); ++d) same += " && " + prev[d] + " == " + start[d];
    e.Line("if (" + same + ") continue;");
    e.Close();
    HLOGRAPH_ASSIGN(std::vector<std::string> cur, s.LoadResults(t));
    e.Open("for (long long r = s; r < " + std::to_string(plan.windows) + "LL; ++r)");
    const Index r_sidx = e.Delinearize("r", plan.scatter_shape);
    HLOGRAPH_ASSIGN(Index at, s.Start(r_sidx));
    std::string differs = "false";
    for (size_t d = 0; d < start.size(); ++d) differs += " || " + at[d] + " != " + start[d];
    e.Line("if (" + differs + ") break;");
    HLOGRAPH_ASSIGN(std::vector<std::string> u, s.Updates(s.UpdateIndex(r_sidx, widx)));
    HLOGRAPH_TRY(s.Combine(cur, u));
    e.Close();
    s.StoreResults(t, cur);
  } else {
    HLOGRAPH_ASSIGN(std::vector<std::string> u, s.Updates(s.UpdateIndex(sidx, widx)));
    if (plan.vector > 1) {
      // The neighbours' updates, then one atomic for all of them.
      const ir::ElementType el = s.result_type(0).element();
      std::string args = "o0 + " + t;
      for (int k = 0; k < plan.vector; ++k) {
        Index at = widx;
        if (k > 0) at.back() = e.IndexVar(widx.back() + " + " + std::to_string(k) + "LL");
        HLOGRAPH_ASSIGN(std::vector<std::string> uk, s.Updates(s.UpdateIndex(sidx, at)));
        args += ", " + StoreExpr(el, uk[0]);
      }
      e.Line("hlo_atomic_add_vector(" + args + ");");
    } else if (plan.order == ScatterOrder::kUnique) {
      HLOGRAPH_ASSIGN(std::vector<std::string> cur, s.LoadResults(t));
      HLOGRAPH_TRY(s.Combine(cur, u));
      s.StoreResults(t, cur);
    } else {
      HLOGRAPH_TRY(s.Atomic(t, u[0]));
    }
  }
  e.Close();
  return Status::Ok();
}

// kLastWins' first and last kernels: a thread per window sets its slot
// to the highest position claiming it, or back to zero.
Status EmitSlots(const ScatterPlan& plan, ScatterPass pass, BodyEmitter& e, ScatterEmitter& s) {
  e.Line("const long long N = " + std::to_string(plan.windows) + "LL;");
  e.Open(kGridStrideLoop);
  const Index sidx = e.Delinearize("lin", plan.scatter_shape);
  HLOGRAPH_ASSIGN(Index start, s.Start(sidx));
  e.Line("if (!(" + s.Fits(start) + ")) continue;");
  const std::string slot = "(unsigned int*)s0 + " + s.Slot(start);
  e.Line(pass == ScatterPass::kClaim ? "atomicMax(" + slot + ", (unsigned int)(lin + 1));" : "*(" + slot + ") = 0u;");
  e.Close();
  return Status::Ok();
}

// One block applies the windows in order (duplicate indices combine as
// the spec's serial semantics say, whatever the body); the elements of one
// window are disjoint, so its threads apply them together.
Status EmitSerial(const ScatterPlan& plan, BodyEmitter& e, ScatterEmitter& s) {
  e.Open("for (long long s = 0; s < " + std::to_string(plan.windows) + "LL; ++s)");
  const Index sidx = e.Delinearize("s", plan.scatter_shape);
  HLOGRAPH_ASSIGN(Index start, s.Start(sidx));
  e.Open("if (" + s.Fits(start) + ")");
  e.Open("for (long long w = threadIdx.x; w < " + std::to_string(plan.window_elements) + "LL; w += blockDim.x)");
  const Index widx = e.Delinearize("w", plan.window_shape);
  const std::string t = s.Target(start, widx);
  HLOGRAPH_ASSIGN(std::vector<std::string> cur, s.LoadResults(t));
  HLOGRAPH_ASSIGN(std::vector<std::string> u, s.Updates(s.UpdateIndex(sidx, widx)));
  HLOGRAPH_TRY(s.Combine(cur, u));
  s.StoreResults(t, cur);
  e.Close();
  e.Close();
  e.Line("__syncthreads();");
  e.Close();
  return Status::Ok();
}

}  // namespace

StatusOr<KernelSource> EmitScatter(const Fusion& f, const EmitOptions& options) {
  const ir::Operation& op = *f.ops.back();
  HLOGRAPH_ASSIGN(ScatterPlan plan, PlanScatter(op));
  std::ostringstream body;
  BodyEmitter e(f, body);
  ScatterEmitter s(f, plan, e);
  if (plan.order == ScatterOrder::kSerial) {
    constexpr int kBlock = 1024;
    HLOGRAPH_TRY(EmitSerial(plan, e, s));
    LaunchDims launch;
    launch.block = {kBlock, 1, 1};
    launch.grid = {plan.updates() == 0 ? 0u : 1u, 1, 1};
    HLOGRAPH_ASSIGN(std::string head, KernelOpening(f, kBlock));
    return KernelSource{f.name, head + body.str() + "}\n", launch, "scatter in place (" + plan.ToString() + ", one block)"};
  }
  HLOGRAPH_ASSIGN(std::string head, KernelOpening(f));
  if (f.scatter_pass != ScatterPass::kUpdate) {
    HLOGRAPH_TRY(EmitSlots(plan, f.scatter_pass, e, s));
    return KernelSource{f.name, head + body.str() + "}\n", GridStride(plan.windows, options),
                        "scatter " + std::string(ScatterPassName(f.scatter_pass)) + " (" + plan.ToString() +
                            ", a thread per window)"};
  }
  HLOGRAPH_TRY(EmitParallel(plan, e, s));
  return KernelSource{f.name, std::string(kScatterHelpers) + head + body.str() + "}\n",
                      GridStride(plan.threads(), options),
                      "scatter in place (" + plan.ToString() + ", a thread per update element)"};
}

}  // namespace hlograph::gpu::emit
