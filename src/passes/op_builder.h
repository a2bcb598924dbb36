// Building ops into a block for passes that replace one op by several:
// each new op goes before a moving insertion point and takes the position
// and location of the op it stands for, so errors and traces still point
// at the source.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "ir/operation.h"

namespace hlograph::passes {

class OpBuilder {
 public:
  // Inserts before the op at position `at` of `block` (at its end if past it).
  OpBuilder(ir::Block& block, size_t at, const ir::Operation& origin) : block_(block), at_(at), origin_(origin) {}

  // A new, detached op `id` at the origin's position.
  std::unique_ptr<ir::Operation> New(ir::OpId id) const;
  ir::Operation* Insert(std::unique_ptr<ir::Operation> op);
  // Inserts op `id` with `operands`, one result of `type` and `attrs`.
  ir::Value* Add(ir::OpId id, const std::vector<ir::Value*>& operands, const ir::Type& type,
                 const std::vector<ir::NamedAttribute>& attrs = {});

  // A constant of `type` holding `element` (little-endian bytes of one
  // element) everywhere.
  ir::Value* Splat(const ir::Type& type, const std::vector<uint8_t>& element);
  // A constant holding the given bytes, element after element.
  ir::Value* Dense(const ir::Type& type, std::vector<uint8_t> bytes);
  // `v` converted to element type `e` (itself when it has that type).
  ir::Value* Convert(ir::Value* v, ir::ElementType e);
  // An elementwise op whose result has the type of `a`.
  ir::Value* Binary(ir::OpId id, ir::Value* a, ir::Value* b);
  ir::Value* BroadcastInDim(ir::Value* v, const ir::Type& type, const std::vector<int64_t>& dims);

  // Where the next op goes: after the last one inserted.
  size_t position() const { return at_; }

 private:
  ir::Block& block_;
  size_t at_;
  const ir::Operation& origin_;
};

// The little-endian bytes of an element of type `e`: an integer (wrapped
// to its width) or a float (rounded to nearest even).
std::vector<uint8_t> IntegerBytes(ir::ElementType e, int64_t value);
std::vector<uint8_t> FloatBytes(ir::ElementType e, double value);

}  // namespace hlograph::passes
