#include "backends/gpu/plan/convolution_epilogue.h"

#include "backends/gpu/plan/epilogue_patterns.h"
#include "backends/gpu/plan/generated_dot.h"
#include "backends/gpu/plan/plan_options.h"
#include "ir/attribute.h"

namespace hlograph::gpu {
namespace {

// Longer chains than this are cut (each op is a pointwise node of the
// cuDNN graph, and engines for long chains are rarer).
constexpr size_t kMaxOps = 6;

bool EpilogueType(ir::ElementType t) {
  return t == ir::ElementType::kF32 || t == ir::ElementType::kBF16 || t == ir::ElementType::kF16;
}

}  // namespace

ConvEpilogueMatch MatchConvEpilogue(const ir::Operation& conv, const ConvLowering& lowering,
                                    const std::function<bool(const ir::Value*, bool vector)>& ready) {
  ConvEpilogueMatch m;
  const auto* dn = conv.attr("dimension_numbers").as<ir::ConvDimsAttr>();
  const ir::Value* v = conv.result(0);
  if (!PlanOptions::Current().conv_epilogue || dn == nullptr || lowering.config.kind != ConvKind::kForward ||
      !lowering.result_permutation.empty() || !EpilogueType(v->type().element())) {
    return m;
  }
  while (m.absorbed.size() < kMaxOps) {
    const ir::Operation* user = SoleUser(v);
    if (user == nullptr || user->parent_block() != conv.parent_block() || user->num_results() != 1 ||
        !(user->result(0)->type() == v->type())) {
      break;
    }
    const ir::Value* other = OtherOperand(*user, v);
    if (other == nullptr) break;
    const ir::OpId name = user->id();
    ConvEpilogueOp e;
    if (name == ir::OpId::kMaximum) {
      if (!IsZero(other)) break;
      e.op = ConvPointwise::kRelu;
    } else {
      if (name == ir::OpId::kAdd) {
        e.op = ConvPointwise::kAdd;
      } else if (name == ir::OpId::kMultiply) {
        e.op = ConvPointwise::kMultiply;
      } else if (name == ir::OpId::kSubtract && user->operand(0) == v) {
        e.op = ConvPointwise::kSubtract;
      } else {
        break;
      }
      const ir::Value* vector = VectorAlong(other, dn->output_feature);
      if (vector != nullptr && ready(vector, true)) {
        e.operand = ConvOperand::kChannels;
        other = vector;
      } else if (ready(other, false)) {
        e.operand = ConvOperand::kTensor;
      } else {
        break;
      }
      e.type = other->type().element();
      m.operands.push_back(other);
    }
    m.ops.push_back(e);
    m.absorbed.push_back(user);
    v = user->result(0);
  }
  // The longest part cuDNN has not refused.
  ConvConfig config = lowering.config;
  while (!m.ops.empty()) {
    config.epilogue = m.ops;
    if (!ConvolutionRefused(config)) break;
    if (m.ops.back().operand != ConvOperand::kNone) m.operands.pop_back();
    m.ops.pop_back();
    m.absorbed.pop_back();
  }
  return m;
}

}  // namespace hlograph::gpu
