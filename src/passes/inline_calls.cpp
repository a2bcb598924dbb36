#include "passes/inline_calls.h"

#include "ir/attribute.h"
#include "ir/clone.h"
#include "passes/replace_uses.h"

namespace hlograph::passes {
namespace {

// Inlining more calls than this means recursion: refused.
constexpr int kMaxInlinedCalls = 100000;

std::string OpError(const ir::Operation& op, const std::string& message) {
  return op.pos().ToString() + ": error: '" + op.name() + "' op " + message;
}

class Inliner {
 public:
  Inliner(ir::Module& module, ir::Block& root) : module_(module), root_(root) {}

  // Inlines the calls in `block` and in the regions within it. The ops a
  // call is replaced by are visited next, so calls they hold are inlined too.
  Status Run(ir::Block& block) {
    for (size_t i = 0; i < block.operations().size(); ++i) {
      ir::Operation* op = block.operations()[i].get();
      const bool call = op->id() == ir::OpId::kFuncCall;
      if (!call && op->id() != ir::OpId::kComposite) {
        for (const auto& region : op->regions()) {
          for (const auto& b : region->blocks()) HLOGRAPH_TRY(Run(*b));
        }
        continue;
      }
      if (++inlined_ > kMaxInlinedCalls) return Status::Error(OpError(*op, "is part of a recursion"));
      HLOGRAPH_TRY(InlineAt(block, i, call ? "callee" : "decomposition"));
      --i;  // the first inlined op (or the next op) is now at i
    }
    return Status::Ok();
  }

 private:
  // Copies the callee's body before the call, its arguments bound to the
  // call's operands; the values the copy returns replace the call's results.
  Status InlineAt(ir::Block& block, size_t at, const std::string& symbol_attr) {
    ir::Operation* op = block.operations()[at].get();
    const auto* name = op->attr(symbol_attr).as<ir::SymbolRefAttr>();
    const ir::Operation* callee = name ? module_.LookupFunction(name->name) : nullptr;
    if (!callee || callee->num_regions() != 1 || callee->region(0).empty() ||
        callee->region(0).front().num_arguments() != op->num_operands()) {
      return Status::Error(OpError(*op, "calls a function this module does not define with that signature"));
    }
    const ir::Block& body = callee->region(0).front();
    const ir::Operation* ret = body.terminator();
    if (!ret || ret->num_operands() != op->num_results()) {
      return Status::Error(OpError(*op, "expects " + std::to_string(op->num_results()) + " results from its callee"));
    }
    ir::ValueMap map;
    for (size_t a = 0; a < body.num_arguments(); ++a) map[body.argument(a)] = op->operand(a);
    // Copy first, insert after: the callee may be the block being changed.
    std::vector<std::unique_ptr<ir::Operation>> copies;
    for (const auto& inner : body.operations()) {
      if (inner.get() == ret) break;
      copies.push_back(ir::CloneOperation(*inner, map));
    }
    for (size_t k = 0; k < copies.size(); ++k) block.Insert(at + k, std::move(copies[k]));
    for (size_t r = 0; r < op->num_results(); ++r) {
      const ir::Value* v = ret->operand(r);
      auto it = map.find(v);
      ReplaceUses(root_, op->result(r), it != map.end() ? it->second : const_cast<ir::Value*>(v));
    }
    block.Remove(op);
    return Status::Ok();
  }

  ir::Module& module_;
  ir::Block& root_;
  int inlined_ = 0;
};

}  // namespace

Status InlineCalls(ir::Module& module) {
  ir::Operation* entry = module.EntryFunction();
  if (!entry || entry->num_regions() != 1 || entry->region(0).empty()) return Status::Ok();
  ir::Block& body = entry->region(0).front();
  return Inliner(module, body).Run(body);
}

}  // namespace hlograph::passes
