#include "passes/split_inverse_real_ffts.h"

#include "ir/attribute.h"
#include "ir/verify/verify_util.h"
#include "passes/op_builder.h"
#include "passes/replace_uses.h"

namespace hlograph::passes {
namespace {

using ir::Operation;
using ir::Value;

bool IsMultiDimInverseRealFft(const Operation& op) {
  if (op.id() != ir::OpId::kFft || op.num_operands() != 1 || op.num_results() != 1) return false;
  const auto* type = op.attr("fft_type").as<ir::EnumAttr>();
  const auto* lengths = op.attr("fft_length").as<ir::DenseArrayAttr>();
  return type != nullptr && type->value == "IRFFT" && lengths != nullptr && lengths->values.size() >= 2 &&
         static_cast<int64_t>(lengths->values.size()) <= op.operand(0)->type().rank() &&
         op.operand(0)->type().IsTensor() && op.result(0)->type().IsTensor();
}

// The IRFFT `op` of operand X [batch..., n0.., h] as the two transforms.
Value* Split(ir::Block& block, size_t at, const Operation& op) {
  Value* x = op.operand(0);
  const ir::Type& in = x->type();
  const std::vector<int64_t> lengths = ir::verify::I64ArrayAttr(op, "fft_length");
  const int64_t rank = in.rank(), l = static_cast<int64_t>(lengths.size());
  const int64_t first = rank - l;  // the first fft dim
  // [batch..., h, n0..]: the last dim ahead of the leading fft dims.
  std::vector<int64_t> to_front, back(static_cast<size_t>(rank));
  for (int64_t d = 0; d < first; ++d) to_front.push_back(d);
  to_front.push_back(rank - 1);
  for (int64_t d = first; d < rank - 1; ++d) to_front.push_back(d);
  for (int64_t d = 0; d < rank; ++d) back[static_cast<size_t>(to_front[static_cast<size_t>(d)])] = d;
  std::vector<int64_t> moved_shape;
  for (int64_t d : to_front) moved_shape.push_back(in.dim(d));
  const ir::Type moved = ir::Type::Tensor(in.element(), moved_shape);
  OpBuilder b(block, at, op);
  Value* t = b.Add(ir::OpId::kTranspose, {x}, moved, {{"permutation", ir::MakeI64Array(to_front)}});
  const std::vector<int64_t> leading(lengths.begin(), lengths.end() - 1);
  Value* y = b.Add(ir::OpId::kFft, {t}, moved,
                   {{"fft_type", ir::MakeEnum("fft_type", "IFFT")}, {"fft_length", ir::MakeI64Array(leading)}});
  Value* u = b.Add(ir::OpId::kTranspose, {y}, in, {{"permutation", ir::MakeI64Array(back)}});
  return b.Add(ir::OpId::kFft, {u}, op.result(0)->type(),
               {{"fft_type", ir::MakeEnum("fft_type", "IRFFT")}, {"fft_length", ir::MakeI64Array({lengths.back()})}});
}

}  // namespace

int SplitInverseRealFfts(ir::Module& module, const std::function<bool(const Operation&)>& split) {
  int rewritten = 0;
  ForEachFunctionBody(module, [&](ir::Block& body) {
    rewritten += RewriteOps(body, body, [&](ir::Block& block, size_t at, const Operation& op) -> Value* {
      return IsMultiDimInverseRealFft(op) && split(op) ? Split(block, at, op) : nullptr;
    });
  });
  return rewritten;
}

}  // namespace hlograph::passes
