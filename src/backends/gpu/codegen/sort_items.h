// What every pass kernel of a sort or top_k shares (plan/sort_plan.h):
// the item type and its order, making an item from the operands, and
// writing the results from a sorted item. Internal to the code generator.
//
// Generated declarations (before the kernel):
//   hlo_sort_item                 unsigned long long (packed), or a struct
//                                 of the read operands' values (k<j>) and pos
//   hlo_sort_before(a, b)         a goes strictly before b: the comparator,
//                                 ties to the lower position, padding last
//   hlo_sort_exchange(a, b, up)   a, b in ascending (up) or descending order
//   hlo_sort_pos(a)               the item's position in its row
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "backends/gpu/codegen/body_emitter.h"
#include "backends/gpu/plan/sort_lowering.h"

namespace hlograph::gpu::emit {

class SortItems {
 public:
  static StatusOr<SortItems> For(const Fusion& f);

  const ir::Operation& op() const { return *op_; }
  const SortGeometry& geometry() const { return g_; }
  const SortOrder& order() const { return order_; }
  int64_t item_bytes() const { return item_bytes_; }

  // The declarations above, for kernel `f`.
  StatusOr<std::string> Declarations(const Fusion& f) const;
  // "hlo_sort_item it = {}; it.pos = <pad_pos>;" for a padding item (packed: all ones).
  std::string PaddingItem(const std::string& var, const std::string& pad_pos) const;
  // Emits the index of the operands' element at position `pos` of row
  // `row` (long long expressions).
  Index ElementIndex(BodyEmitter& e, const std::string& row, const std::string& pos) const;
  // Emits an item `var` for the element at `idx` (ElementIndex of `pos`),
  // read from the operands.
  Status LoadItem(BodyEmitter& e, const std::string& var, const Index& idx, const std::string& pos) const;
  // The operands the results fetch by position that cost a memory read
  // (not in the item, not an iota): a one-pass block sort keeps them in
  // shared memory as it loads the items.
  std::vector<int> FetchedOperands(const Fusion& f) const;
  // Emits: operand j's value at `idx`, compute type.
  StatusOr<std::string> OperandAt(BodyEmitter& e, int j, const Index& idx) const;
  // Emits the writes of sorted position `o` of row `row` from `item`;
  // `kept(j, pos)` is the expression of operand j's value kept in shared
  // memory, or "" to fetch it from the operands.
  Status WriteResults(BodyEmitter& e, const Fusion& f, const std::string& row, const std::string& o,
                      const std::string& item,
                      const std::function<std::string(int, const std::string&)>& kept = nullptr) const;

 private:
  StatusOr<std::string> KeyBits(const std::string& element) const;
  Index FullIndex(BodyEmitter& e, const std::string& row, const std::string& pos, const std::vector<int64_t>& shape) const;
  bool Carried(int j) const;

  const ir::Operation* op_ = nullptr;
  bool top_k_ = false;
  SortGeometry g_;
  SortOrder order_;
  int64_t item_bytes_ = 8;
};

// The kernel's temp of items, read (the input after its IR inputs) or
// written (its output 0), as a pointer to hlo_sort_item.
std::string ItemsIn(const Fusion& f);
std::string ItemsOut();

int Log2Of(int64_t power_of_two);

// The kernels of the passes (sort_kernel.cpp, sort_merge_kernel.cpp,
// top_k_select_kernel.cpp).
StatusOr<KernelSource> EmitBlockSortPass(const Fusion& f, const SortItems& items);
StatusOr<KernelSource> EmitMergePass(const Fusion& f, const SortItems& items);
StatusOr<KernelSource> EmitSelectPass(const Fusion& f, const SortItems& items);

// Grid of a kernel whose blocks loop over `units` (at least one block when
// there are any).
uint32_t GridFor(int64_t units);

}  // namespace hlograph::gpu::emit
