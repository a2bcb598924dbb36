#include "passes/lower_quantized.h"

#include <algorithm>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "ir/attribute.h"
#include "ir/quantized_ops.h"
#include "ir/verifier.h"
#include "passes/op_builder.h"
#include "passes/quantized_arith.h"
#include "passes/quantized_contraction.h"
#include "passes/replace_uses.h"

namespace hlograph::passes {
namespace {

bool HasQuant(const ir::Type& t) {
  if (t.IsQuantized()) return true;
  return std::any_of(t.tuple_elements().begin(), t.tuple_elements().end(), HasQuant);
}

ir::Type Storage(const ir::Type& t) {
  if (t.IsQuantized()) return t.StorageType();
  if (!t.IsTuple() || !HasQuant(t)) return t;
  std::vector<ir::Type> elements;
  for (const ir::Type& e : t.tuple_elements()) elements.push_back(Storage(e));
  return ir::Type::Tuple(std::move(elements));
}

// The ops that keep their form on storage types (uniform_quantize and
// uniform_dequantize are lowered here; a function keeps its body's ops).
bool KeepsForm(ir::OpId id) { return id == ir::OpId::kFuncFunc || ir::MovesStoredIntegers(id); }

std::string OpError(const ir::Operation& op, const std::string& message) {
  return op.pos().ToString() + ": error: '" + op.name() + "' op " + message;
}

enum class Lowering { kRetype, kQuantize, kDequantize, kContraction, kThroughExpressed };

bool Touches(const ir::Operation& op) {
  for (const ir::Value* v : op.operands()) {
    if (HasQuant(v->type())) return true;
  }
  for (const auto& r : op.results()) {
    if (HasQuant(r->type())) return true;
  }
  for (const auto& region : op.regions()) {
    for (const auto& block : region->blocks()) {
      for (const auto& arg : block->arguments()) {
        if (HasQuant(arg->type())) return true;
      }
    }
  }
  const auto* fn = op.attr("function_type").as<ir::FunctionTypeAttr>();
  return fn && (std::any_of(fn->type.inputs.begin(), fn->type.inputs.end(), HasQuant) ||
                std::any_of(fn->type.results.begin(), fn->type.results.end(), HasQuant));
}

class Lowerer {
 public:
  // Decides how each op is lowered, before anything changes; the first
  // op that cannot be is the error.
  Status Plan(const ir::Operation& op) {
    if (Touches(op)) {
      HLOGRAPH_ASSIGN(const Lowering how, Decide(op));
      plan_[&op] = how;
      if (how != Lowering::kRetype) {
        operand_types_[&op] = op.OperandTypes();
        return Status::Ok();
      }
    }
    for (const auto& region : op.regions()) {
      for (const auto& block : region->blocks()) {
        for (const auto& inner : block->operations()) HLOGRAPH_TRY(Plan(*inner));
      }
    }
    return Status::Ok();
  }

  bool empty() const { return plan_.empty(); }

  void Rewrite(ir::Block& block) {
    for (size_t i = 0; i < block.operations().size();) {
      ir::Operation* op = block.operations()[i].get();
      const auto it = plan_.find(op);
      if (it == plan_.end() || it->second == Lowering::kRetype) {
        if (it != plan_.end()) Retype(*op);
        for (const auto& region : op->regions()) {
          for (const auto& b : region->blocks()) {
            for (const auto& arg : b->arguments()) arg->set_type(Storage(arg->type()));
            Rewrite(*b);
          }
        }
        // A bitcast between a quantized type and its storage type is now none.
        if (it != plan_.end() && op->id() == ir::OpId::kBitcastConvert &&
            op->operand(0)->type() == op->result(0)->type()) {
          ReplaceUses(block, op->result(0), op->operand(0));
          block.Remove(op);
          continue;
        }
        ++i;
        continue;
      }
      OpBuilder b(block, i, *op);
      const std::vector<ir::Value*> values = Lower(b, *op, it->second);
      for (size_t r = 0; r < values.size(); ++r) ReplaceUses(block, op->result(r), values[r]);
      i = b.position();
      block.Remove(op);
    }
  }

 private:
  StatusOr<Lowering> Decide(const ir::Operation& op) {
    const ir::OpId name = op.id();
    auto refuse = [&](const std::string& why) -> StatusOr<Lowering> { return Status::Error(OpError(op, why)); };
    if (name == ir::OpId::kUniformQuantize || name == ir::OpId::kUniformDequantize) {
      const ir::Type& in = op.operand(0)->type();
      const ir::Type& out = op.result(0)->type();
      if (in.IsQuantized()) {
        if (std::string why = quantized::DequantizeRefusal(*in.quant()); !why.empty()) return refuse(why);
      }
      if (name == ir::OpId::kUniformDequantize) {
        return in.IsQuantized() ? StatusOr<Lowering>(Lowering::kDequantize) : refuse("expects a quantized operand");
      }
      if (!out.IsQuantized()) return refuse("expects a quantized result");
      const ir::ElementType from = in.IsQuantized() ? in.quant()->expressed : in.element();
      if (std::string why = quantized::QuantizeRefusal(from, *out.quant()); !why.empty()) return refuse(why);
      return Lowering::kQuantize;
    }
    if (KeepsForm(name)) return Lowering::kRetype;
    // The interpreter would call the decomposition with dequantized tensors,
    // which its signature does not take.
    if (name == ir::OpId::kComposite) {
      return refuse("takes quantized tensors, which are not lowered through a composite");
    }
    if (op.num_regions() > 0) {
      return refuse("has a body and quantized tensors; of the ops with a body only reduce, reduce_window, "
                    "select_and_scatter, scatter, map, sort, all_reduce, reduce_scatter and control flow take "
                    "quantized tensors");
    }
    for (const ir::Value* v : op.operands()) {
      if (v->type().IsTuple()) return refuse("takes quantized tensors in a tuple");
    }
    for (const auto& r : op.results()) {
      if (r->type().IsTuple()) return refuse("gives quantized tensors in a tuple");
    }
    const ir::Type& result = op.num_results() == 1 ? op.result(0)->type() : ir::Type();
    if (quantized::IsIntegerContraction(op, op.OperandTypes())) {
      if (std::string why = quantized::QuantizeRefusal(result.quant()->expressed, *result.quant()); !why.empty()) {
        return refuse(why);
      }
      return Lowering::kContraction;
    }
    for (const ir::Value* v : op.operands()) {
      if (!v->type().IsQuantized()) continue;
      if (std::string why = quantized::DequantizeRefusal(*v->type().quant()); !why.empty()) return refuse(why);
    }
    for (const auto& r : op.results()) {
      if (!r->type().IsQuantized()) continue;
      const ir::QuantParams& p = *r->type().quant();
      if (std::string why = quantized::QuantizeRefusal(p.expressed, p); !why.empty()) return refuse(why);
    }
    return Lowering::kThroughExpressed;
  }

  // Storage types for the op's results and the types its attributes name.
  static void Retype(ir::Operation& op) {
    for (const auto& r : op.results()) r->set_type(Storage(r->type()));
    const std::vector<ir::NamedAttribute> attrs = op.attributes();
    for (const auto& [name, value] : attrs) {
      if (const auto* dense = value.as<ir::DenseElementsAttr>(); dense && HasQuant(dense->type)) {
        ir::DenseElementsAttr copy = *dense;
        copy.type = Storage(copy.type);
        op.SetAttr(name, ir::Attribute::Make(std::move(copy)));
      } else if (const auto* fn = value.as<ir::FunctionTypeAttr>()) {
        ir::FunctionTypeAttr copy = *fn;
        for (ir::Type& t : copy.type.inputs) t = Storage(t);
        for (ir::Type& t : copy.type.results) t = Storage(t);
        op.SetAttr(name, ir::Attribute::Make(std::move(copy)));
      } else if (const auto* type = value.as<ir::TypeAttr>(); type && HasQuant(type->type)) {
        op.SetAttr(name, ir::Attribute::Make(ir::TypeAttr{Storage(type->type)}));
      }
    }
  }

  std::vector<ir::Value*> Lower(OpBuilder& b, const ir::Operation& op, Lowering how) {
    const std::vector<ir::Type>& types = operand_types_.at(&op);
    switch (how) {
      case Lowering::kQuantize: {
        ir::Value* x = op.operand(0);
        if (types[0].IsQuantized()) x = quantized::Dequantize(b, x, types[0]);
        return {quantized::Quantize(b, x, op.result(0)->type())};
      }
      case Lowering::kDequantize:
        return {quantized::Dequantize(b, op.operand(0), types[0])};
      case Lowering::kContraction:
        return {quantized::LowerIntegerContraction(b, op, op.operand(0), op.operand(1), types[0], types[1])};
      default:
        break;
    }
    // The op on dequantized operands, in the expressed type; quantized
    // results quantized again.
    std::unique_ptr<ir::Operation> copy = b.New(op.id());
    for (size_t i = 0; i < op.num_operands(); ++i) {
      copy->AddOperand(types[i].IsQuantized() ? quantized::Dequantize(b, op.operand(i), types[i]) : op.operand(i));
    }
    for (const auto& [name, value] : op.attributes()) copy->SetAttr(name, value);
    for (const auto& r : op.results()) {
      const ir::Type& t = r->type();
      copy->AddResult(t.IsQuantized() ? t.WithElement(t.quant()->expressed) : t);
    }
    ir::Operation* computed = b.Insert(std::move(copy));
    std::vector<ir::Value*> values;
    for (size_t i = 0; i < op.num_results(); ++i) {
      const ir::Type& t = op.result(i)->type();
      values.push_back(t.IsQuantized() ? quantized::Quantize(b, computed->result(i), t) : computed->result(i));
    }
    return values;
  }

  std::unordered_map<const ir::Operation*, Lowering> plan_;
  std::unordered_map<const ir::Operation*, std::vector<ir::Type>> operand_types_;
};

bool AnyQuantized(const ir::Operation& op) {
  if (Touches(op)) return true;
  for (const auto& region : op.regions()) {
    for (const auto& block : region->blocks()) {
      for (const auto& inner : block->operations()) {
        if (AnyQuantized(*inner)) return true;
      }
    }
  }
  return false;
}

}  // namespace

bool HasQuantizedTypes(const ir::Module& module) { return AnyQuantized(module.op()); }

Status LowerQuantized(ir::Module& module) {
  Lowerer lowerer;
  HLOGRAPH_TRY(lowerer.Plan(module.op()));
  if (lowerer.empty()) return Status::Ok();
  lowerer.Rewrite(module.body());
  // The ops built here are valid by construction; checked all the same, as
  // a backend would otherwise compute on a malformed program (the module is
  // then lowered as far as it got).
  Status valid = ir::VerifyModule(module);
  if (!valid.ok()) return Status::Error("lowering quantized tensors gave an invalid program: " + valid.message());
  return Status::Ok();
}

}  // namespace hlograph::passes
