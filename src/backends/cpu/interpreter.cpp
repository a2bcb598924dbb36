#include "backends/cpu/interpreter.h"

#include <unistd.h>

#include <new>

#include "backends/cpu/kernel.h"
#include "backends/cpu/quantized.h"
#include "ir/op_def.h"

namespace hlograph::cpu {
namespace {

// Deep recursion (recursive calls, nested loops) must end in an error, not
// a stack overflow.
constexpr int kMaxDepth = 256;

std::string OpError(const ir::Operation& op, const std::string& message) {
  std::string s = op.pos().ToString() + ": error: '" + op.name() + "' op " + message;
  if (op.loc()) {
    std::string where = op.loc()->Describe();
    if (!where.empty()) s += "\n  note: the op comes from " + where;
  }
  return s;
}

// The host's physical memory: results beyond it would be killed by the
// system as their pages are touched, rather than fail to allocate.
int64_t HostMemoryBytes() {
  static const int64_t bytes = [] {
    const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
    return pages > 0 && page > 0 ? static_cast<int64_t>(pages) * page : INT64_MAX;
  }();
  return bytes;
}

int64_t ResultBytes(const ir::Operation& op) {
  int64_t total = 0;
  for (size_t i = 0; i < op.num_results(); ++i) {
    const ir::Type& t = op.result(i)->type();
    if (t.IsTuple() || t.IsToken()) continue;
    const int64_t n = t.NumElements(), element = ir::StorageBytes(t.element());
    const int64_t bytes = n > INT64_MAX / element ? INT64_MAX : n * element;
    total = bytes > INT64_MAX - total ? INT64_MAX : total + bytes;
  }
  return total;
}

}  // namespace

Status CheckArguments(const std::vector<ir::Type>& expected, const std::vector<Tensor>& args) {
  if (expected.size() != args.size()) {
    return Status::Error("expects " + std::to_string(expected.size()) + " arguments, got " +
                         std::to_string(args.size()));
  }
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i].type() != expected[i]) {
      return Status::Error("argument " + std::to_string(i) + " has type " + args[i].type().ToString() +
                           " but the function expects " + expected[i].ToString());
    }
  }
  return Status::Ok();
}

StatusOr<std::vector<Tensor>> Interpreter::RunEntry(const std::vector<Tensor>& args) {
  const ir::Operation* entry = module_.EntryFunction();
  if (!entry) return Status::Error("the module has no entry function (@main, or a single function)");
  return Call(*entry, args);
}

StatusOr<std::vector<Tensor>> Interpreter::Call(const ir::Operation& func, const std::vector<Tensor>& args) {
  const std::vector<ir::Type> inputs = ir::FunctionSignature(func).inputs;
  // Arguments of quantized parameters may come as their storage integers.
  std::vector<Tensor> bound = args;
  for (size_t i = 0; i < bound.size() && i < inputs.size(); ++i) {
    if (inputs[i].IsQuantized() && bound[i].type() == inputs[i].StorageType()) bound[i] = bound[i].Reshaped(inputs[i]);
  }
  HLOGRAPH_TRY(CheckArguments(inputs, bound));
  // A function sees nothing of its caller.
  const Frame* saved = current_;
  current_ = nullptr;
  auto results = RunRegion(func.region(0), bound);
  current_ = saved;
  return results;
}

StatusOr<std::vector<Tensor>> Interpreter::RunRegion(const ir::Region& region, const std::vector<Tensor>& args) {
  if (++depth_ > kMaxDepth) {
    --depth_;
    return Status::Error("regions or calls nested deeper than " + std::to_string(kMaxDepth));
  }
  const ir::Block& block = region.front();
  Frame frame;
  frame.parent = current_;
  if (args.size() != block.num_arguments()) {
    --depth_;
    return Status::Error("a region expects " + std::to_string(block.num_arguments()) + " arguments, got " +
                         std::to_string(args.size()));
  }
  for (size_t i = 0; i < args.size(); ++i) frame.values[block.argument(i)] = args[i];
  auto results = RunBlock(block, frame);
  --depth_;
  return results;
}

const Tensor* Interpreter::Lookup(const Frame& frame, const ir::Value* v) const {
  for (const Frame* f = &frame; f; f = f->parent) {
    auto it = f->values.find(v);
    if (it != f->values.end()) return &it->second;
  }
  return nullptr;
}

StatusOr<std::vector<Tensor>> Interpreter::RunBlock(const ir::Block& block, Frame& frame) {
  const auto& ops = block.operations();
  for (size_t i = 0; i + 1 < ops.size(); ++i) {
    HLOGRAPH_TRY(RunOp(*ops[i], frame));
  }
  std::vector<Tensor> results;
  if (ops.empty()) return results;
  const ir::Operation& terminator = *ops.back();
  if (!terminator.def().Has(ir::kTerminator)) {
    HLOGRAPH_TRY(RunOp(terminator, frame));
    return results;
  }
  for (const ir::Value* v : terminator.operands()) {
    const Tensor* t = Lookup(frame, v);
    if (!t) return Status::Error(OpError(terminator, "uses a value that was never computed"));
    results.push_back(*t);
  }
  return results;
}

StatusOr<std::vector<Tensor>> Interpreter::RunSingleOp(const ir::Operation& op, const std::vector<Tensor>& operands) {
  if (operands.size() != op.num_operands()) {
    return Status::Error(OpError(op, "takes " + std::to_string(op.num_operands()) + " operands, got " +
                                         std::to_string(operands.size())));
  }
  Frame frame;
  for (size_t i = 0; i < operands.size(); ++i) frame.values[op.operand(i)] = operands[i];
  HLOGRAPH_TRY(RunOp(op, frame));
  std::vector<Tensor> results;
  for (const auto& r : op.results()) results.push_back(std::move(frame.values[r.get()]));
  return results;
}

Status Interpreter::RunOp(const ir::Operation& op, Frame& frame) {
  KernelFn kernel = CpuKernels().Find(op.id());
  if (!kernel) {
    return Status::Error(OpError(op, "is not supported by the CPU backend"));
  }
  std::vector<const Tensor*> operands;
  operands.reserve(op.num_operands());
  for (const ir::Value* v : op.operands()) {
    const Tensor* t = Lookup(frame, v);
    if (!t) return Status::Error(OpError(op, "uses a value that was never computed"));
    operands.push_back(t);
  }
  if (const int64_t bytes = ResultBytes(op); bytes > HostMemoryBytes()) {
    return Status::Error(OpError(op, "needs " + std::to_string(bytes) + " bytes for its results, more than the " +
                                         std::to_string(HostMemoryBytes()) + " bytes of host memory"));
  }
  std::vector<Tensor> results;
  const Frame* saved = current_;
  current_ = &frame;
  Status s;
  try {
    if (NeedsQuantizedPath(op)) {
      s = RunQuantizedOp(op, operands, results, *this);
    } else {
      KernelContext ctx{op, operands, results, *this};
      s = kernel(ctx);
    }
  } catch (const std::bad_alloc&) {
    s = Status::Error("ran out of host memory (its results need " + std::to_string(ResultBytes(op)) + " bytes)");
  }
  current_ = saved;
  if (!s.ok()) {
    // Errors from nested regions already name their op; add this one's place.
    if (s.message().find(": error: ") != std::string::npos) return s;
    return Status::Error(OpError(op, s.message()));
  }
  if (results.size() != op.num_results()) {
    return Status::Error(OpError(op, "kernel produced " + std::to_string(results.size()) + " results, expected " +
                                         std::to_string(op.num_results())));
  }
  for (size_t i = 0; i < results.size(); ++i) {
    const ir::Type& want = op.result(i)->type();
    // Kernels that build their result type from an operand's drop its
    // quantization; the stored integers are the result's.
    if (want.IsQuantized() && results[i].type() == want.StorageType()) results[i] = results[i].Reshaped(want);
    if (results[i].type() != op.result(i)->type()) {
      return Status::Error(OpError(op, "kernel produced " + results[i].type().ToString() + " for result " +
                                           std::to_string(i) + ", expected " + op.result(i)->type().ToString()));
    }
    frame.values[op.result(i)] = std::move(results[i]);
  }
  return Status::Ok();
}

}  // namespace hlograph::cpu
