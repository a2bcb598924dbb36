#include "frontend/bytecode/value_names.h"

#include <set>
#include <string>
#include <vector>

namespace hlograph::frontend::bytecode {
namespace {

// MLIR's naming state: counters are inherited by nested regions from the
// point where their parent region's numbering ended; names are unique
// within a region and the regions enclosing it.
struct Counters {
  int value = 0, argument = 0, conflict = 0;
};

class Namer {
 public:
  void Region(ir::Region& region, Counters counters) {
    used_.emplace_back();
    NumberRegion(region, counters);
    for (const auto& block : region.blocks()) {
      for (const auto& op : block->operations()) {
        for (const auto& child : op->regions()) Region(*child, counters);
      }
    }
    used_.pop_back();
  }

 private:
  bool Used(const std::string& name) const {
    for (const auto& scope : used_) {
      if (scope.count(name)) return true;
    }
    return false;
  }

  std::string Unique(const std::string& name, Counters& c) {
    std::string result = name;
    if (Used(name)) {
      do {
        result = name + "_" + std::to_string(c.conflict++);
      } while (Used(result));
    }
    used_.back().insert(result);
    return result;
  }

  // Names an op suggests for its results (MLIR's getAsmResultNames).
  static std::vector<std::string> ResultNames(const ir::Operation& op) {
    if (op.id() == ir::OpId::kConstant && op.num_results() == 1) {
      const ir::Type& t = op.result(0)->type();
      bool integer = t.IsTensor() && (ir::IsInteger(t.element()) || ir::IsBool(t.element()));
      return {integer ? "c" : "cst"};
    }
    if (op.id() == ir::OpId::kRngBitGenerator && op.num_results() == 2) return {"output_state", "output"};
    return {};
  }

  void NumberRegion(ir::Region& region, Counters& c) {
    ir::Operation* parent = region.parent();
    bool iter_args = parent != nullptr && parent->id() == ir::OpId::kWhile;
    bool entry = true;
    for (const auto& block : region.blocks()) {
      for (const auto& arg : block->arguments()) {
        if (iter_args) {
          arg->set_name_hint(Unique("iterArg", c));
        } else if (entry) {
          arg->set_name_hint(Unique("arg" + std::to_string(c.argument++), c));
        } else {
          arg->set_name_hint(std::to_string(c.value++));
        }
      }
      entry = false;
      for (const auto& op : block->operations()) NumberOp(*op, c);
    }
  }

  void NumberOp(ir::Operation& op, Counters& c) {
    if (op.num_results() == 0) return;
    std::vector<std::string> names = ResultNames(op);
    if (!names.empty()) {
      for (size_t i = 0; i < names.size(); ++i) op.result(i)->set_name_hint(Unique(names[i], c));
      return;
    }
    // Unnamed results form one numbered group: %N, or %N:k used as %N#i.
    op.result(0)->set_name_hint(std::to_string(c.value++));
    for (size_t i = 1; i < op.num_results(); ++i) op.result(i)->set_name_hint("");
  }

  std::vector<std::set<std::string>> used_;
};

}  // namespace

void AssignMlirValueNames(ir::Operation& top) {
  Namer namer;
  for (const auto& region : top.regions()) namer.Region(*region, Counters{});
}

}  // namespace hlograph::frontend::bytecode
