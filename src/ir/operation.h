// The IR graph: values, operations, blocks and regions.
//
// Ownership is strictly downward: a Region owns its Blocks, a Block owns its
// arguments and Operations, an Operation owns its results and Regions.
// Operands are plain pointers to Values owned elsewhere, so IR is built top
// down and never shares ownership.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "ir/attribute.h"
#include "ir/location.h"
#include "ir/op_id.h"
#include "ir/type.h"

namespace hlograph::ir {

struct OpDef;
class Operation;
class Block;

class Value {
 public:
  Value(Type type, Operation* op, Block* block, unsigned index)
      : type_(std::move(type)), defining_op_(op), owner_block_(block), index_(index) {}
  const Type& type() const { return type_; }
  void set_type(Type t) { type_ = std::move(t); }
  Operation* defining_op() const { return defining_op_; }  // null for block args
  Block* owner_block() const { return owner_block_; }      // set for block args
  unsigned index() const { return index_; }                // result or arg number
  bool IsBlockArgument() const { return defining_op_ == nullptr; }
  // The name the value had in the source text (without '%'), a hint for the
  // printer so that printed IR reads like its input.
  const std::string& name_hint() const { return name_hint_; }
  void set_name_hint(std::string n) { name_hint_ = std::move(n); }

 private:
  Type type_;
  Operation* defining_op_;
  Block* owner_block_;
  unsigned index_;
  std::string name_hint_;
};

class Region {
 public:
  explicit Region(Operation* parent) : parent_(parent) {}
  Operation* parent() const { return parent_; }
  std::vector<std::unique_ptr<Block>>& blocks() { return blocks_; }
  const std::vector<std::unique_ptr<Block>>& blocks() const { return blocks_; }
  Block* AddBlock();
  bool empty() const { return blocks_.empty(); }
  Block& front() const { return *blocks_.front(); }

 private:
  Operation* parent_;
  std::vector<std::unique_ptr<Block>> blocks_;
};

class Block {
 public:
  explicit Block(Region* parent) : parent_(parent) {}
  Region* parent() const { return parent_; }
  Value* AddArgument(Type type, std::string name_hint = "");
  const std::vector<std::unique_ptr<Value>>& arguments() const { return args_; }
  Value* argument(size_t i) const { return args_[i].get(); }
  size_t num_arguments() const { return args_.size(); }
  // Source locations of the arguments (`%a: T loc(...)`), parallel to arguments.
  std::vector<LocationPtr>& argument_locs() { return arg_locs_; }
  const std::vector<LocationPtr>& argument_locs() const { return arg_locs_; }

  Operation* Append(std::unique_ptr<Operation> op);
  // Inserts `op` before the op at position `at` (at the end if past it).
  Operation* Insert(size_t at, std::unique_ptr<Operation> op);
  // Detaches `op` from this block and hands it to the caller.
  std::unique_ptr<Operation> Remove(Operation* op);
  const std::vector<std::unique_ptr<Operation>>& operations() const { return ops_; }
  Operation* terminator() const { return ops_.empty() ? nullptr : ops_.back().get(); }

 private:
  Region* parent_;
  std::vector<std::unique_ptr<Value>> args_;
  std::vector<LocationPtr> arg_locs_;
  std::vector<std::unique_ptr<Operation>> ops_;
};

class Operation {
 public:
  Operation(const OpDef* def, SourcePos pos) : def_(def), pos_(std::move(pos)) {}

  const OpDef& def() const { return *def_; }
  const std::string& name() const;  // "stablehlo.add"
  OpId id() const;                   // OpId::kAdd

  // Operands.
  const std::vector<Value*>& operands() const { return operands_; }
  Value* operand(size_t i) const { return operands_[i]; }
  size_t num_operands() const { return operands_.size(); }
  void AddOperand(Value* v) { operands_.push_back(v); }
  void SetOperand(size_t i, Value* v) { operands_[i] = v; }

  // Results.
  Value* AddResult(Type type);
  const std::vector<std::unique_ptr<Value>>& results() const { return results_; }
  Value* result(size_t i) const { return results_[i].get(); }
  size_t num_results() const { return results_.size(); }
  std::vector<Type> ResultTypes() const;
  std::vector<Type> OperandTypes() const;

  // Attributes, sorted by name. Whether an attribute is inherent (part of the
  // op's definition) or discardable is decided by the OpDef, not stored.
  const std::vector<NamedAttribute>& attributes() const { return attrs_; }
  Attribute attr(const std::string& name) const;
  void SetAttr(const std::string& name, Attribute value);
  void RemoveAttr(const std::string& name);

  // Regions.
  Region* AddRegion();
  const std::vector<std::unique_ptr<Region>>& regions() const { return regions_; }
  Region& region(size_t i) const { return *regions_[i]; }
  size_t num_regions() const { return regions_.size(); }

  Block* parent_block() const { return parent_block_; }
  void set_parent_block(Block* b) { parent_block_ = b; }
  // The op whose region holds this one (null at module level).
  Operation* ParentOp() const;

  const SourcePos& pos() const { return pos_; }
  const LocationPtr& loc() const { return loc_; }
  void set_loc(LocationPtr loc) { loc_ = std::move(loc); }

 private:
  const OpDef* def_;
  SourcePos pos_;
  LocationPtr loc_;
  std::vector<Value*> operands_;
  std::vector<std::unique_ptr<Value>> results_;
  std::vector<NamedAttribute> attrs_;
  std::vector<std::unique_ptr<Region>> regions_;
  Block* parent_block_ = nullptr;
};

}  // namespace hlograph::ir
