#include "backends/gpu/codegen/sort_items.h"

#include <algorithm>
#include <set>

#include "backends/gpu/codegen/elemental_internal.h"

namespace hlograph::gpu::emit {
namespace {

// Emits the ops of `block` that `target` depends on, `arg` bound to `x`;
// returns the variable holding `target` (the key function f(x)).
StatusOr<std::string> EmitKeyFunction(BodyEmitter& e, const ir::Block& block, const ir::Value* target,
                                      const ir::Value* arg, const std::string& x) {
  if (target == arg) return x;
  std::set<const ir::Value*> needed;
  std::vector<const ir::Value*> todo = {target};
  while (!todo.empty()) {
    const ir::Value* v = todo.back();
    todo.pop_back();
    if (v->IsBlockArgument() || !needed.insert(v).second) continue;
    for (const ir::Value* o : v->defining_op()->operands()) todo.push_back(o);
  }
  std::map<const ir::Value*, std::string> names = {{arg, x}};
  for (const auto& op : block.operations()) {
    if (op->num_results() != 1 || !needed.count(op->result(0))) continue;
    std::vector<std::string> operands;
    for (const ir::Value* o : op->operands()) {
      const auto it = names.find(o);
      if (it == names.end()) return Status::Error("a sort's key function reads a value from outside it");
      operands.push_back(it->second);
    }
    std::string expr;
    if (op->id() == ir::OpId::kConstant) {
      HLOGRAPH_ASSIGN(expr, BodyEmitter::SplatLiteral(*op));
    } else {
      HLOGRAPH_ASSIGN(expr, ElementalExpr(*op, operands));
    }
    HLOGRAPH_ASSIGN(std::string ct, ComputeType(op->result(0)->type().element()));
    const std::string var = e.Fresh("key");
    e.Line("const " + ct + " " + var + " = " + expr + ";");
    names[op->result(0)] = var;
  }
  const auto it = names.find(target);
  if (it == names.end()) return Status::Error("a sort's key function could not be emitted");
  return it->second;
}

}  // namespace

uint32_t GridFor(int64_t units) {
  return static_cast<uint32_t>(std::min<int64_t>(std::max<int64_t>(units, 0), int64_t{1} << 20));
}

int Log2Of(int64_t power_of_two) {
  int l = 0;
  while ((int64_t{1} << l) < power_of_two) ++l;
  return l;
}

std::string ItemsIn(const Fusion& f) { return "((const hlo_sort_item*)p" + std::to_string(f.inputs.size()) + ")"; }
std::string ItemsOut() { return "((hlo_sort_item*)o0)"; }

StatusOr<SortItems> SortItems::For(const Fusion& f) {
  if (f.ops.empty()) return Status::Error("a sort kernel without its op");
  SortItems s;
  s.op_ = f.ops.back();
  s.top_k_ = s.op_->id() == ir::OpId::kChloTopK;
  HLOGRAPH_ASSIGN(s.g_, SortGeometryOf(*s.op_, f.sort.keep));
  s.order_ = SortOrderOf(*s.op_);
  s.item_bytes_ = s.order_.single_key ? 8 : GeneralItemBytes(*s.op_, s.order_);
  if (f.sort.n != s.g_.n || f.sort.rows != s.g_.rows || f.sort.packed != s.order_.single_key ||
      f.sort.item_bytes != s.item_bytes_) {
    return Status::Error("internal error: the sort kernel's pass does not match its op (planned " + f.sort.ToString() + ")");
  }
  return s;
}

bool SortItems::Carried(int j) const {
  return !order_.single_key && std::count(order_.read_operands.begin(), order_.read_operands.end(), j) > 0;
}

StatusOr<std::string> SortItems::Declarations(const Fusion& f) const {
  std::ostringstream os;
  if (order_.single_key) {
    os << "typedef unsigned long long hlo_sort_item;\n"
          "__device__ __forceinline__ bool hlo_sort_before(hlo_sort_item a, hlo_sort_item b) { return a < b; }\n"
          "__device__ __forceinline__ int hlo_sort_pos(hlo_sort_item a) { return (int)(unsigned)a; }\n"
          "__device__ __forceinline__ void hlo_sort_exchange(hlo_sort_item& a, hlo_sort_item& b, bool up) {\n"
          "  const bool swap = (b < a) == up;  // equal items are padding: swapped or not alike\n"
          "  const hlo_sort_item x = swap ? b : a, y = swap ? a : b;\n"
          "  a = x;\n"
          "  b = y;\n"
          "}\n";
    return os.str();
  }
  // The fields, largest alignment first (no padding between them).
  std::vector<int> fields = order_.read_operands;
  std::stable_sort(fields.begin(), fields.end(), [&](int a, int b) {
    return ComputeAlignment(op_->operand(static_cast<size_t>(a))->type().element()) >
           ComputeAlignment(op_->operand(static_cast<size_t>(b))->type().element());
  });
  os << "struct hlo_sort_item {\n";
  for (int j : fields) {
    HLOGRAPH_ASSIGN(std::string ct, ComputeType(op_->operand(static_cast<size_t>(j))->type().element()));
    os << "  " << ct << " k" << j << ";\n";
  }
  os << "  int pos;\n};\n";
  os << "static_assert(sizeof(hlo_sort_item) == " << item_bytes_ << ", \"the plan's item size\");\n";
  // The comparator: the region on the two items' values.
  os << "__device__ __forceinline__ bool hlo_sort_less(const hlo_sort_item& a, const hlo_sort_item& b) {\n";
  {
    BodyEmitter e(f, os);
    if (top_k_) {
      const bool is_float = ir::IsFloat(op_->operand(0)->type().element());
      const std::string ka = is_float ? "hlo_total_order_key(a.k0)" : "a.k0";
      const std::string kb = is_float ? "hlo_total_order_key(b.k0)" : "b.k0";
      e.Line("return " + ka + " > " + kb + ";  // largest first");
    } else {
      std::vector<std::string> args;
      for (size_t j = 0; j < op_->num_operands(); ++j) {
        const bool read = Carried(static_cast<int>(j));
        args.push_back(read ? "a.k" + std::to_string(j) : "0");
        args.push_back(read ? "b.k" + std::to_string(j) : "0");
      }
      HLOGRAPH_ASSIGN(std::vector<std::string> r, e.EmitRegion(op_->region(0).front(), args));
      if (r.size() != 1) return Status::Error("expects a comparator returning one predicate");
      e.Line("return (bool)(" + r[0] + ");");
    }
  }
  os << "}\n";
  os << "__device__ __forceinline__ bool hlo_sort_before(const hlo_sort_item& a, const hlo_sort_item& b) {\n"
        "  if (a.pos >= " << g_.n << " || b.pos >= " << g_.n << ") return a.pos < b.pos;  // padding last\n"
        "  if (hlo_sort_less(a, b)) return true;\n"
        "  return !hlo_sort_less(b, a) && a.pos < b.pos;  // ties: the lower position first\n"
        "}\n"
        "__device__ __forceinline__ int hlo_sort_pos(const hlo_sort_item& a) { return a.pos; }\n"
        "// A call per compare-exchange (items by value, the pair returned): the\n"
        "// comparator is not inlined hundreds of times. Items never tie.\n"
        "struct hlo_sort_pair { hlo_sort_item a, b; };\n"
        "__device__ __noinline__ hlo_sort_pair hlo_sort_order(const hlo_sort_item a, const hlo_sort_item b, const bool up) {\n"
        "  const bool swap = hlo_sort_before(b, a) == up;\n"
        "  hlo_sort_pair p;\n"
        "  p.a = swap ? b : a;\n"
        "  p.b = swap ? a : b;\n"
        "  return p;\n"
        "}\n"
        "__device__ __forceinline__ void hlo_sort_exchange(hlo_sort_item& a, hlo_sort_item& b, bool up) {\n"
        "  const hlo_sort_pair p = hlo_sort_order(a, b, up);\n"
        "  a = p.a;\n"
        "  b = p.b;\n"
        "}\n";
  return os.str();
}

std::string SortItems::PaddingItem(const std::string& var, const std::string& pad_pos) const {
  if (order_.single_key) return "hlo_sort_item " + var + " = ~0ull;";
  return "hlo_sort_item " + var + " = {}; " + var + ".pos = (int)(" + pad_pos + ");";
}

Index SortItems::FullIndex(BodyEmitter& e, const std::string& row, const std::string& pos,
                           const std::vector<int64_t>& shape) const {
  const Index r = e.Delinearize(row, g_.row_shape);
  Index idx;
  for (int64_t d = 0, k = 0; d < static_cast<int64_t>(shape.size()); ++d) {
    idx.push_back(d == g_.dim ? pos : r[static_cast<size_t>(k++)]);
  }
  return idx;
}

StatusOr<std::string> SortItems::KeyBits(const std::string& element) const {
  const ir::ElementType t = order_.key_type;
  std::string bits;
  if (ir::IsFloat(t)) {
    bits = elemental::IsNarrowFormat(t)
               ? "hlo_narrow_total_order_key<" + elemental::NarrowFormatName(t) + ">(" + element + ")"
               : "hlo_total_order_key((float)(" + element + "))";
  } else if (ir::IsSignedInteger(t)) {
    bits = "((unsigned)(int)(" + element + ") ^ 0x80000000u)";
  } else {
    bits = "(unsigned)(" + element + ")";
  }
  return order_.descending ? "(~" + bits + ")" : bits;
}

Index SortItems::ElementIndex(BodyEmitter& e, const std::string& row, const std::string& pos) const {
  return FullIndex(e, row, pos, op_->operand(0)->type().shape());
}

Status SortItems::LoadItem(BodyEmitter& e, const std::string& var, const Index& idx, const std::string& pos) const {
  if (order_.single_key) {
    HLOGRAPH_ASSIGN(std::string x, e.Emit(op_->operand(static_cast<size_t>(order_.key_operand)), idx));
    std::string fx = x;
    if (order_.key_of_lhs != nullptr) {
      HLOGRAPH_ASSIGN(fx, EmitKeyFunction(e, op_->region(0).front(), order_.key_of_lhs, order_.key_argument, x));
    }
    HLOGRAPH_ASSIGN(std::string bits, KeyBits(fx));
    e.Line("const hlo_sort_item " + var + " = ((unsigned long long)(" + bits + ") << 32) | (unsigned)(" + pos + ");");
    return Status::Ok();
  }
  e.Line("hlo_sort_item " + var + " = {};");
  for (int j : order_.read_operands) {
    HLOGRAPH_ASSIGN(std::string v, e.Emit(op_->operand(static_cast<size_t>(j)), idx));
    e.Line(var + ".k" + std::to_string(j) + " = " + v + ";");
  }
  e.Line(var + ".pos = (int)(" + pos + ");");
  return Status::Ok();
}

std::vector<int> SortItems::FetchedOperands(const Fusion& f) const {
  std::vector<int> fetched;
  for (size_t i = 0; i < f.output_types.size() && i < op_->num_results(); ++i) {
    if (i < f.sort.skip_results.size() && f.sort.skip_results[i]) continue;
    const int j = SortResultSource(*op_, i);
    if (j < 0 || Carried(j) || ComputedFromNoInput(f, op_->operand(static_cast<size_t>(j)))) continue;
    if (std::count(fetched.begin(), fetched.end(), j) == 0) fetched.push_back(j);
  }
  return fetched;
}

StatusOr<std::string> SortItems::OperandAt(BodyEmitter& e, int j, const Index& idx) const {
  return e.Emit(op_->operand(static_cast<size_t>(j)), idx);
}

Status SortItems::WriteResults(BodyEmitter& e, const Fusion& f, const std::string& row, const std::string& o,
                               const std::string& item,
                               const std::function<std::string(int, const std::string&)>& kept) const {
  const std::string p = e.Fresh("pos");
  e.Line("const int " + p + " = hlo_sort_pos(" + item + ");");
  for (size_t i = 0; i < f.output_types.size(); ++i) {
    if (i < f.sort.skip_results.size() && f.sort.skip_results[i]) continue;
    const ir::Type& out = f.output_types[i];
    const int j = SortResultSource(*op_, i);
    std::string value;
    if (j < 0) {
      HLOGRAPH_ASSIGN(std::string ct, ComputeType(out.element()));
      value = "(" + ct + ")(" + p + ")";
    } else if (Carried(j)) {
      value = item + ".k" + std::to_string(j);
    } else {
      if (kept) value = kept(j, p);
      if (value.empty()) {
        HLOGRAPH_ASSIGN(value, OperandAt(e, j, ElementIndex(e, row, p)));
      }
    }
    const Index at = FullIndex(e, row, o, out.shape());
    e.Line("o" + std::to_string(i) + "[" + e.Linear(at, out.shape()) + "] = " + StoreExpr(out.element(), value) + ";");
  }
  return Status::Ok();
}

}  // namespace hlograph::gpu::emit
