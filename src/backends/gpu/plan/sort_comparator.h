// What a sort's comparator means to the plan and to the kernels: which
// operands it reads (the others only move along with them, and are
// fetched by position once the order is known), and whether it orders by
// a single key of at most 32 bits in a total order. Then an element and
// its position pack into one 64-bit integer, (key << 32) | position, whose
// integer order is the sort's stable order (ties go to the lower
// position), and the kernels compare integers instead of evaluating the
// comparator (plan/sort_plan.h: "packed" items).
//
// Recognised: `compare LT|GT f(lhs_j), f(rhs_j)` where f is the same
// elementwise function of operand j's pair of arguments (JAX wraps both in
// a canonicalisation: -0 to +0, every NaN to one NaN), the compare a
// TOTALORDER one for floats or any compare of integers or bools (their
// own order, as the generated compare). Anything else stays a general
// comparator: the kernels evaluate the region and break ties by position.
#pragma once

#include <vector>

#include "ir/element_type.h"
#include "ir/operation.h"

namespace hlograph::gpu {

struct SortOrder {
  // Operands whose arguments the comparator reads (ascending): the values
  // a general comparator needs in every item.
  std::vector<int> read_operands;
  // A single key of at most 32 bits in a total order: key_operand's f.
  bool single_key = false;
  int key_operand = 0;
  bool descending = false;        // largest key first (GT)
  // f(lhs) inside the comparator (the compare's operand computed from the
  // key operand's lhs argument); null: the element itself (chlo.top_k).
  const ir::Value* key_of_lhs = nullptr;
  const ir::Value* key_argument = nullptr;  // the block argument f reads
  ir::ElementType key_type = ir::ElementType::kF32;  // the element type compared
};

// `comparator`: a sort's region block (arguments lhs_0, rhs_0, lhs_1, ...).
SortOrder AnalyzeSortComparator(const ir::Block& comparator);

// chlo.top_k's order: largest first (floats in IEEE total order), ties to
// the lower index, as the interpreter; single-key when 32 bits or fewer.
SortOrder TopKOrder(ir::ElementType element);

// Whether elements of `t` compared by their own order (floats: total
// order) fit a 32-bit key.
bool HasPackableKey(ir::ElementType t);

}  // namespace hlograph::gpu
