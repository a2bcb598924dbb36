#include "passes/op_builder.h"

#include "ir/attribute.h"
#include "ir/float_bits.h"
#include "ir/op_def.h"

namespace hlograph::passes {

std::unique_ptr<ir::Operation> OpBuilder::New(ir::OpId id) const {
  auto op = std::make_unique<ir::Operation>(ir::LookupOp(id), origin_.pos());
  op->set_loc(origin_.loc());
  return op;
}

ir::Operation* OpBuilder::Insert(std::unique_ptr<ir::Operation> op) { return block_.Insert(at_++, std::move(op)); }

ir::Value* OpBuilder::Add(ir::OpId id, const std::vector<ir::Value*>& operands, const ir::Type& type,
                          const std::vector<ir::NamedAttribute>& attrs) {
  std::unique_ptr<ir::Operation> op = New(id);
  for (ir::Value* v : operands) op->AddOperand(v);
  for (const auto& [key, value] : attrs) op->SetAttr(key, value);
  op->AddResult(type);
  return Insert(std::move(op))->result(0);
}

ir::Value* OpBuilder::Splat(const ir::Type& type, const std::vector<uint8_t>& element) {
  ir::DenseElementsAttr value{type, true, element};
  return Add(ir::OpId::kConstant, {}, type, {{"value", ir::Attribute::Make(std::move(value))}});
}

ir::Value* OpBuilder::Dense(const ir::Type& type, std::vector<uint8_t> bytes) {
  ir::DenseElementsAttr value{type, false, std::move(bytes)};
  return Add(ir::OpId::kConstant, {}, type, {{"value", ir::Attribute::Make(std::move(value))}});
}

ir::Value* OpBuilder::Convert(ir::Value* v, ir::ElementType e) {
  if (v->type().element() == e) return v;
  return Add(ir::OpId::kConvert, {v}, v->type().WithElement(e));
}

ir::Value* OpBuilder::Binary(ir::OpId id, ir::Value* a, ir::Value* b) {
  return Add(id, {a, b}, a->type());
}

ir::Value* OpBuilder::BroadcastInDim(ir::Value* v, const ir::Type& type, const std::vector<int64_t>& dims) {
  return Add(ir::OpId::kBroadcastInDim, {v}, type, {{"broadcast_dimensions", ir::MakeI64Array(dims)}});
}

namespace {

std::vector<uint8_t> LittleEndian(uint64_t bits, int bytes) {
  std::vector<uint8_t> out(static_cast<size_t>(bytes));
  for (int i = 0; i < bytes; ++i) out[static_cast<size_t>(i)] = static_cast<uint8_t>(bits >> (8 * i));
  return out;
}

}  // namespace

std::vector<uint8_t> IntegerBytes(ir::ElementType e, int64_t value) {
  return LittleEndian(static_cast<uint64_t>(value), ir::StorageBytes(e));
}

std::vector<uint8_t> FloatBytes(ir::ElementType e, double value) {
  return LittleEndian(ir::DoubleToFloatBits(value, e), ir::StorageBytes(e));
}

}  // namespace hlograph::passes
