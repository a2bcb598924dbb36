#include "backends/gpu/plan/prefix_scan.h"

#include <algorithm>
#include <cstring>
#include <iterator>
#include <set>
#include <string>

#include "backends/cpu/interpreter.h"
#include "backends/gpu/plan/elementwise_support.h"
#include "ir/attribute.h"
#include "ir/module.h"
#include "ir/verify/verify_util.h"

namespace hlograph::gpu {
namespace {

bool Supported(const ir::Value* v) { return v->type().IsTensor() && IsSupportedElementType(v->type().element()); }

// A body the scan kernel inlines: elementwise ops (on the slices, for
// chlo.scan) and splat constants, reading nothing from outside, and a
// return.
bool IsElementwiseBody(const ir::Block& block) {
  for (const auto& op : block.operations()) {
    for (const ir::Value* v : op->operands()) {
      const bool local = v->IsBlockArgument() ? v->owner_block() == &block
                                              : v->defining_op() && v->defining_op()->parent_block() == &block;
      if (!local || !Supported(v)) return false;
    }
    if (op->id() == ir::OpId::kReturn) continue;
    if (op->id() == ir::OpId::kConstant) {
      const auto* value = op->attr("value").as<ir::DenseElementsAttr>();
      if (value == nullptr || !(value->splat || value->type.NumElements() == 1) || !Supported(op->result(0))) {
        return false;
      }
      continue;
    }
    if (!IsElementwise(*op) || op->num_results() != 1 || !Supported(op->result(0))) return false;
  }
  const ir::Operation* ret = block.terminator();
  return ret != nullptr && ret->id() == ir::OpId::kReturn;
}

// The interpreter evaluates constants and bodies at plan time; they call
// no function, so an empty module serves.
const ir::Module& NoFunctions() {
  static const ir::Module* module = new ir::Module(ir::NewModuleOp(ir::SourcePos{}));
  return *module;
}

// The single element that constants alone make `v` (a splat constant,
// through broadcasts, reshapes and converts), or nothing.
std::optional<cpu::Tensor> ConstantElement(const ir::Value* v, int depth = 0) {
  using ir::OpId;
  static constexpr OpId kThrough[] = {OpId::kConstant, OpId::kBroadcastInDim, OpId::kBroadcast, OpId::kReshape,
                                      OpId::kConvert};
  const ir::Operation* def = v->defining_op();
  const bool through =
      def != nullptr && std::find(std::begin(kThrough), std::end(kThrough), def->id()) != std::end(kThrough);
  if (!through || depth > 8 || def->num_results() != 1 ||
      v->type().NumElements() != 1) {
    return std::nullopt;
  }
  std::vector<cpu::Tensor> operands;
  for (const ir::Value* o : def->operands()) {
    std::optional<cpu::Tensor> t = ConstantElement(o, depth + 1);
    if (!t) return std::nullopt;
    operands.push_back(std::move(*t));
  }
  cpu::Interpreter interpreter(NoFunctions());
  auto results = interpreter.RunSingleOp(*def, operands);
  if (!results.ok() || results->size() != 1) return std::nullopt;
  return std::move((*results)[0]);
}

// Whether the body folds `c` into itself to give `c` again, bit for bit.
bool FoldsIntoItself(const ir::Region& body, const cpu::Tensor& c) {
  cpu::Interpreter interpreter(NoFunctions());
  auto results = interpreter.RunRegion(body, {c, c});
  return results.ok() && results->size() == 1 && (*results)[0].byte_size() == c.byte_size() &&
         std::memcmp((*results)[0].bytes(), c.bytes(), c.byte_size()) == 0;
}

std::optional<PrefixScan> MatchReduceWindow(const ir::Operation& op) {
  if (op.num_operands() != 2 || op.num_results() != 1 || op.num_regions() != 1 || op.region(0).empty()) {
    return std::nullopt;
  }
  const ir::Value* x = op.operand(0);
  if (!Supported(x) || !Supported(op.operand(1)) || !Supported(op.result(0)) || x->type().rank() < 1) {
    return std::nullopt;
  }
  const ir::Block& body = op.region(0).front();
  if (body.num_arguments() != 2 || !IsElementwiseBody(body) || body.terminator()->num_operands() != 1) {
    return std::nullopt;
  }
  namespace v = ir::verify;
  const int64_t rank = x->type().rank();
  auto sizes = v::WindowAttr(op, "window_dimensions", rank, "the input rank");
  auto strides = v::WindowAttr(op, "window_strides", rank, "the input rank");
  auto base = v::WindowAttr(op, "base_dilations", rank, "the input rank");
  auto dilations = v::WindowAttr(op, "window_dilations", rank, "the input rank");
  auto padding = v::PaddingAttr(op, "padding", rank);
  if (!sizes.ok() || !strides.ok() || !base.ok() || !dilations.ok() || !padding.ok()) return std::nullopt;
  int64_t axis = -1;
  for (int64_t d = 0; d < rank; ++d) {
    const size_t i = static_cast<size_t>(d);
    if ((*strides)[i] != 1 || (*base)[i] != 1 || (*dilations)[i] != 1) return std::nullopt;
    if ((*sizes)[i] == 1) {
      if ((*padding)[i] != std::pair<int64_t, int64_t>{0, 0}) return std::nullopt;
      continue;
    }
    if (axis >= 0) return std::nullopt;  // windows along two axes
    axis = d;
  }
  if (axis < 0) return std::nullopt;
  const int64_t n = x->type().dim(axis);
  const std::pair<int64_t, int64_t> pad = (*padding)[static_cast<size_t>(axis)];
  if ((*sizes)[static_cast<size_t>(axis)] != n || n < 2) return std::nullopt;
  const bool forward = pad == std::pair<int64_t, int64_t>{n - 1, 0};
  const bool backward = pad == std::pair<int64_t, int64_t>{0, n - 1};
  if (!forward && !backward) return std::nullopt;
  const std::optional<cpu::Tensor> init = ConstantElement(op.operand(1));
  if (!init || !FoldsIntoItself(op.region(0), *init)) return std::nullopt;
  PrefixScan s;
  s.input = x;
  s.init = op.operand(1);
  s.axis = axis;
  s.reverse = backward;
  s.associative = true;
  s.body = &body;
  s.carry_first = true;
  return s;
}

std::optional<PrefixScan> MatchChloScan(const ir::Operation& op) {
  const auto* split = op.attr("operandSegmentSizes").as<ir::DenseArrayAttr>();
  if (split == nullptr || split->values != std::vector<int64_t>{1, 1} || op.num_operands() != 2 ||
      op.num_results() != 2 || op.num_regions() != 1 || op.region(0).empty()) {
    return std::nullopt;
  }
  for (const ir::Value* v : op.operands()) {
    if (!Supported(v)) return std::nullopt;
  }
  for (const auto& r : op.results()) {
    if (!Supported(r.get())) return std::nullopt;
  }
  const ir::Block& body = op.region(0).front();
  if (body.num_arguments() != 2 || !IsElementwiseBody(body) || body.terminator()->num_operands() != 2) {
    return std::nullopt;
  }
  const auto* dimension = op.attr("dimension").as<ir::IntegerAttr>();
  const ir::Type& x = op.operand(0)->type();
  if (dimension == nullptr || dimension->value < 0 || dimension->value >= x.rank()) return std::nullopt;
  const auto flag = [&](const char* name) { return ir::verify::BoolAttrOr(op, name, false); };
  const ir::Operation* ret = body.terminator();
  const ir::ElementType e = x.element();
  PrefixScan s;
  s.input = op.operand(0);
  s.init = op.operand(1);
  s.axis = dimension->value;
  s.reverse = flag("is_reverse");
  s.associative = flag("is_associative") && ret->operand(0) == ret->operand(1) &&
                  op.operand(1)->type().element() == e && op.result(0)->type().element() == e;
  s.body = &body;
  s.carry_first = false;
  s.output = 0;
  s.next_carry = 1;
  s.final_carry = true;
  return s;
}

}  // namespace

std::optional<PrefixScan> MatchPrefixScan(const ir::Operation& op) {
  if (op.id() == ir::OpId::kChloScan) return MatchChloScan(op);
  if (op.id() == ir::OpId::kReduceWindow) return MatchReduceWindow(op);
  return std::nullopt;
}

}  // namespace hlograph::gpu
